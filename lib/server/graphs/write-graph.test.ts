/**
 * The fast triple path (rows straight from the lines) writes exactly the rows the generic path
 * (parseTriples → KnowledgeGraph → graph-rows) would, on two real triple files.
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { parseLabelFile, parseTripleLines, parseTriples } from "../../import/parse-triples";
import { dataPath } from "../../test/data";
import type { GraphContent } from "./write-graph";
import { contentOfGraph, contentOfTriples } from "./write-graph";

function rowsOf(content: GraphContent): { nodes: unknown[][]; edges: unknown[][] } {
  // Copied one by one: a generator may reuse its row array.
  const copy = (rows: Iterable<unknown[]>) => {
    const out: unknown[][] = [];
    for (const r of rows) out.push([...r]);
    return out;
  };
  return { nodes: copy(content.nodeRows("g")), edges: copy(content.edgeRows("g")) };
}

describe("contentOfTriples", () => {
  it.each([
    ["countries_S1/graph.txt", dataPath("countries_S1", "graph.txt"), undefined],
    ["metaqa/kb.txt", dataPath("metaqa", "kb.txt"), undefined],
  ])("gives the generic path's rows for %s", (_label, file) => {
    const text = fs.readFileSync(file, "utf8");
    const fast = contentOfTriples(parseTripleLines(text, file));
    const generic = contentOfGraph(parseTriples(text, { source: file }));
    expect(fast.nodeCount).toBe(generic.nodeCount);
    expect(fast.edgeCount).toBe(generic.edgeCount);
    expect(fast.meta).toEqual(generic.meta);
    expect(rowsOf(fast)).toEqual(rowsOf(generic));
  });

  it("gives the generic path's rows with a label file (labels differ from ids)", () => {
    const text = fs.readFileSync(dataPath("countries_S1", "graph.txt"), "utf8");
    const triples = parseTripleLines(text);
    // A label map over real ids: every other entity gets a readable label.
    const ids = [...new Set(triples.flatMap((t) => [t.subject, t.object]))];
    const labels = parseLabelFile(ids.filter((_, i) => i % 2 === 0).map((id) => `${id}\t${id.replace(/_/g, " ").toUpperCase()}`).join("\n"));
    const fast = rowsOf(contentOfTriples(triples, labels));
    const generic = rowsOf(contentOfGraph(parseTriples(text, { labels })));
    expect(fast).toEqual(generic);
    expect(fast.nodes.some((r) => r[2] !== r[1])).toBe(true);
  });
});
