import { describe, expect, it } from "vitest";
import type { JsonObject } from "../json/lossless-json";
import { stringifyLosslessJson } from "../json/lossless-json";
import { graphSnapshot, randomSource } from "../test/random-changesets";
import type { GraphChanges, GraphEdge, GraphNode } from "./model";
import { KnowledgeGraph, nodeFromRecord } from "./model";

/** A graph built from scratch from plain states, edges in ord order: what a fresh load gives. */
function fresh(nodes: GraphNode[], edges: GraphEdge[]): KnowledgeGraph {
  const graph = new KnowledgeGraph();
  for (const n of [...nodes].sort((a, b) => (a.ord ?? 0) - (b.ord ?? 0))) graph.addNode({ ...n });
  for (const e of [...edges].sort((a, b) => (a.ord ?? 0) - (b.ord ?? 0))) graph.addEdge({ ...e });
  return graph;
}

function node(id: string, ord: number): GraphNode {
  return { ...nodeFromRecord({ id }), ord };
}

describe("the edge columns", () => {
  it("equal a fresh build through thousands of random changes (adjacency lists, rebuilds, renumbering), and old versions keep theirs", () => {
    const random = randomSource(17);
    const nodes = Array.from({ length: 120 }, (_, i) => node(`n${i}`, i));
    const state = new Map<string, GraphEdge>();
    let nextOrd = 0;
    let nextKey = 0;
    const relations = ["r0", "r1", "r2", "knows"];
    const attrsFor = (source: string, target: string, relation: string, kind: number): JsonObject =>
      kind === 0 ? { relation, source, target } : kind === 1 ? { source, relation, target } : { relation, source, target, confidence: "EXTRACTED", weight: random(5) };
    const newEdge = (key: string, ord: number): GraphEdge => {
      const source = `n${random(nodes.length)}`;
      // Some self-loops: listed once by incidentEdges, twice by forEachIncident.
      const target = random(20) === 0 ? source : `n${random(nodes.length)}`;
      const relation = relations[random(relations.length)] as string;
      return { key, source, target, relation, attrs: attrsFor(source, target, relation, random(3)), ord };
    };
    let graph = new KnowledgeGraph();
    for (const n of nodes) graph.addNode({ ...n });
    for (let i = 0; i < 1500; i++) {
      // Keys mostly e<n>, some by name (and a non-canonical e0…, which is a name too).
      const key = i % 97 === 0 ? `edge-${i}` : i % 101 === 0 ? `e0${i}` : `e${nextKey++}`;
      const e = newEdge(key, nextOrd++);
      state.set(key, e);
      graph.addEdge({ ...e });
    }
    const removed: GraphEdge[] = [];
    const older: { graph: KnowledgeGraph; snapshot: ReturnType<typeof graphSnapshot> }[] = [];
    for (let round = 0; round < 60; round++) {
      const changes: GraphChanges = { nodes: new Map(), edges: new Map() };
      const keys = [...state.keys()];
      for (let c = 0; c < 120; c++) {
        const kind = random(10);
        if (kind < 3) {
          const e = newEdge(`e${nextKey++}`, nextOrd++);
          changes.edges.set(e.key, e);
        } else if (kind < 6 && keys.length > 0) {
          const key = keys[random(keys.length)] as string;
          if (changes.edges.has(key)) continue;
          changes.edges.set(key, null);
        } else if (kind < 9 && keys.length > 0) {
          // Moved or relabelled in place: the same key and position.
          const key = keys[random(keys.length)] as string;
          if (changes.edges.has(key)) continue;
          const old = state.get(key) as GraphEdge;
          changes.edges.set(key, { ...newEdge(key, old.ord as number) });
        } else if (removed.length > 0 && round % 7 === 3) {
          // A revert: an edge back at its old, earlier position.
          const back = removed.splice(random(removed.length), 1)[0] as GraphEdge;
          if (!state.has(back.key) && !changes.edges.has(back.key)) changes.edges.set(back.key, back);
        }
      }
      for (const [key, e] of changes.edges) {
        const before = state.get(key);
        if (e === null) {
          if (before) removed.push(before);
          state.delete(key);
        } else state.set(key, e);
      }
      const previous = graph;
      const previousSnapshot = round % 10 === 0 ? graphSnapshot(previous, false) : null;
      graph = graph.advance(changes);
      if (previousSnapshot) older.push({ graph: previous, snapshot: previousSnapshot });
      // Read between rounds (the adjacency catches up in lists) only on some: others pile up into a rebuild.
      if (round % 3 !== 2) expect(graphSnapshot(graph)).toEqual(graphSnapshot(fresh(nodes, [...state.values()])));
    }
    expect(graphSnapshot(graph)).toEqual(graphSnapshot(fresh(nodes, [...state.values()])));
    // Older versions keep their edges; each node's list order is promised for the newest only.
    for (const o of older) expect(graphSnapshot(o.graph, false)).toEqual(o.snapshot);
  });

  it("keeps stored JSON as text until read, then gives the record; plain triples come back as {relation, source, target}", () => {
    const graph = new KnowledgeGraph();
    graph.addNode(node("a", 0));
    graph.addNode(node("b", 1));
    graph.addEdgeRow("e0", "a", "b", "rel", 0, null);
    graph.addEdgeRow("e1", "a", "b", "other", 1, '{"relation":"other","source":"a","target":"b","weight":0.10}');
    graph.addEdgeRow("x", "b", "a", "rel", 2, '{"source":"b","target":"a"}');
    expect(graph.edges.get("e0")).toEqual({ key: "e0", source: "a", target: "b", relation: "rel", attrs: { relation: "rel", source: "a", target: "b" }, ord: 0 });
    const e1 = graph.edges.get("e1") as GraphEdge;
    expect(stringifyLosslessJson(e1.attrs)).toBe('{"relation":"other","source":"a","target":"b","weight":0.10}');
    expect(graph.edges.get("x")?.attrs).toEqual({ source: "b", target: "a" });
    expect(graph.outEdges("a").map((e) => e.key)).toEqual(["e0", "e1"]);
    expect(graph.inEdges("a").map((e) => e.key)).toEqual(["x"]);
    expect(graph.degree("a")).toBe(3);
    expect([...graph.edges.keys()]).toEqual(["e0", "e1", "x"]);
    // The next generated key follows the largest e<n>.
    expect(graph.addEdge({ source: "b", target: "b", relation: "self", attrs: {} }).key).toBe("e2");
    expect(graph.incidentEdges("b").map((e) => e.key)).toEqual(["x", "e2", "e0", "e1"]);
    expect(() => graph.addEdgeRow("e1", "a", "b", "rel", 9, null)).toThrow(/duplicate edge key/);
    expect(() => graph.addEdgeRow("e9", "a", "zz", "rel", 9, null)).toThrow(/unknown node/);
  });

  it("gives a clear error for a stored record that is not a JSON object, when it is read", () => {
    const graph = new KnowledgeGraph();
    graph.addNode(node("a", 0));
    graph.addEdgeRow("e0", "a", "a", "rel", 0, "[1,2]");
    expect(() => graph.edges.get("e0")).toThrow(/stored edge e0 is not an object/);
  });
});
