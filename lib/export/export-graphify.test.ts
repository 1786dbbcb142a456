/**
 * The streaming graph.json writer: its chunks join into exactly the document the one-string
 * printer makes (byte for byte, on the shared graphs and on graphs that did not come from
 * graphify), and no chunk grows with the graph.
 */
import { describe, expect, it } from "vitest";
import { KnowledgeGraph, edgeFromRecord, nodeFromRecord } from "../graph/model";
import { parseGraphifyJson } from "../import/parse-graphify";
import { parseTriples } from "../import/parse-triples";
import { LosslessNumber, stringifyLosslessJson } from "../json/lossless-json";
import { GRAPHIFY_GRAPHS, readData } from "../test/data";
import { exportGraphifyJson, graphToGraphifyDocument, graphifyJsonChunks } from "./export-graphify";

/** What export printed before it streamed: the whole document, then one string. */
function printedWhole(graph: KnowledgeGraph): string {
  return stringifyLosslessJson(graphToGraphifyDocument(graph), { indent: 2, ensureAscii: true });
}

describe("graphifyJsonChunks", () => {
  it.each(GRAPHIFY_GRAPHS)("%s: the chunks join into the original file and the whole-document print", (name) => {
    const text = readData("graphify", name, "graph.json");
    const graph = parseGraphifyJson(text);
    const chunks = [...graphifyJsonChunks(graph, { chunkSize: 4096 })];
    expect(chunks.join("")).toBe(text);
    expect(chunks.join("")).toBe(printedWhole(graph));
    expect(exportGraphifyJson(graph)).toBe(text);
  });

  it("prints triple graphs, empty graphs and edited records like the whole-document print", () => {
    const countries = parseTriples(readData("countries_S1", "graph.txt"));
    expect(exportGraphifyJson(countries)).toBe(printedWhole(countries));

    const empty = new KnowledgeGraph();
    expect(exportGraphifyJson(empty)).toBe(printedWhole(empty));
    expect(JSON.parse(exportGraphifyJson(empty))).toEqual({ directed: true, multigraph: true, graph: {}, nodes: [], links: [] });

    // Nested values, non-ASCII, kept number text, an edge rewired away from its record's ids,
    // a custom links key and top-level fields around the lists.
    const graph = new KnowledgeGraph({ top: { graph: { name: "t", tags: ["a", { b: [] }] }, edges: null, nodes: null, hyperedges: [{ id: "h", nodes: ["x", "y"] }] }, linksKey: "edges" });
    graph.addNode(nodeFromRecord({ id: "x", label: "Zürich — café", community: 1, extra: { deep: [1, [2, { z: null }]] } }));
    graph.addNode(nodeFromRecord({ id: "y", label: "y" }));
    graph.addNode(nodeFromRecord({ id: "z", label: "z" }));
    graph.addEdge(edgeFromRecord("e1", "x", "z", { source: "x", target: "y", relation: "near", weight: new LosslessNumber("1.0") }));
    graph.addEdge(edgeFromRecord("e2", "y", "x", { relation: "far", source: "y", target: "x", context: "line 1\nline 2" }));
    const text = exportGraphifyJson(graph);
    expect(text).toBe(printedWhole(graph));
    expect(text).toContain('"weight": 1.0');
    expect(text).toContain("Z\\u00fcrich \\u2014 caf\\u00e9");
    expect(Object.keys(JSON.parse(text) as object)).toEqual(["graph", "edges", "nodes", "hyperedges"]);
  });

  it("keeps printing the version it started on when the graph advances mid-stream", () => {
    const graph = parseGraphifyJson(readData("graphify", "httpx", "graph.json"));
    const expected = exportGraphifyJson(graph);
    const chunks = graphifyJsonChunks(graph, { chunkSize: 1024 });
    const first = chunks.next();
    const [edgeKey] = graph.edges.keys();
    if (first.done || edgeKey === undefined) throw new Error("expected a chunk and an edge");
    const added = nodeFromRecord({ id: "added_while_streaming", label: "added" });
    const next = graph.advance({ nodes: new Map([[added.id, added]]), edges: new Map([[edgeKey, null]]) });
    const text = first.value + [...chunks].join("");
    expect(text).toBe(expected);
    expect(exportGraphifyJson(next)).not.toBe(expected);
    expect(exportGraphifyJson(next)).toContain("added_while_streaming");
  });

  it("yields chunks of bounded size, never the whole document", () => {
    const graph = parseGraphifyJson(readData("graphify", "rsl-siege-manager", "graph.json"));
    const chunkSize = 16 * 1024;
    let total = 0;
    let largest = 0;
    let count = 0;
    let longestRecord = 0;
    for (const edge of graph.edges.values()) longestRecord = Math.max(longestRecord, JSON.stringify(edge.attrs, null, 2).length * 6);
    for (const node of graph.nodes.values()) longestRecord = Math.max(longestRecord, JSON.stringify(node.attrs, null, 2).length * 6);
    for (const chunk of graphifyJsonChunks(graph, { chunkSize })) {
      total += chunk.length;
      largest = Math.max(largest, chunk.length);
      count++;
    }
    expect(total).toBeGreaterThan(20 * chunkSize);
    // A chunk closes as soon as it reaches chunkSize, so it holds at most one record more.
    expect(largest).toBeLessThan(chunkSize + longestRecord + 100);
    expect(count).toBeGreaterThanOrEqual(Math.floor(total / (chunkSize + longestRecord + 100)));
  });
});
