import { describe, expect, it } from "vitest";
import type { GraphEdge, KnowledgeGraph } from "../graph/model";
import { parseGraphifyJson } from "../import/parse-graphify";
import { parseTriples } from "../import/parse-triples";
import type { RefinementAction } from "../loop/types";
import { resolveActionNames } from "../review/resolve-action";
import { readData } from "../test/data";
import type { Changeset, EdgeState, NodeState } from "./changeset";
import { planActions } from "./plan-actions";
import type { BaseVersionRows, EdgeRef, TouchedItems } from "./touched-items";
import { findActionTouchedItems, findTouchedItems, findTouchingChange } from "./touched-items";

const node = (id: string): NodeState => ({ id, label: id.toUpperCase(), attrs: { id } });
const edge = (key: string, source: string, relation: string, target: string): EdgeState => ({ key, source, target, relation, attrs: {} });

describe("touched items", () => {
  const insert: Changeset = { ops: [{ op: "add_edge", edge: edge("v2.0", "a", "calls", "b") }] };
  const touched = findTouchedItems(insert);

  it("an insert touches its edge and both endpoints", () => {
    expect([...touched.nodes].sort()).toEqual(["a", "b"]);
    expect([...touched.edges]).toEqual(["v2.0"]);
  });

  it("a later change to an endpoint, or an edge between the same pair, is a change; an edge elsewhere is not", () => {
    expect(findTouchingChange(touched, { ops: [{ op: "update_node", before: node("a"), after: { ...node("a"), label: "A2" } }] })).toBe('node "A" changed');
    expect(findTouchingChange(touched, { ops: [{ op: "add_edge", edge: edge("v3.0", "b", "uses", "a") }] })).toBe("edge b --uses--> a added");
    expect(findTouchingChange(touched, { ops: [{ op: "add_edge", edge: edge("v3.0", "a", "uses", "c") }] })).toBeNull();
    expect(findTouchingChange(touched, { ops: [{ op: "remove_edge", edge: edge("e9", "c", "uses", "d") }] })).toBeNull();
  });

  it("a merge reshapes the removed node: any later edge at it is a change", () => {
    const merge = findTouchedItems({ ops: [{ op: "update_edge", before: edge("e1", "old", "r", "x"), after: edge("e1", "new", "r", "x") }, { op: "remove_node", node: node("old") }] });
    expect(findTouchingChange(merge, { ops: [{ op: "add_edge", edge: edge("v4.0", "old", "r", "z") }] })).toBe("edge old --r--> z added");
  });
});

describe("the items an action touches, without its base version (findActionTouchedItems)", () => {
  const httpx = parseGraphifyJson(readData("graphify", "httpx", "graph.json"));
  const countries = parseTriples(readData("countries_S1", "graph.txt"), { source: "graph.txt" });
  // Duplicated names and edges, so ambiguity and identical copies are exercised too.
  const copies = parseTriples("a|r|b\na|r|b\na|r|b\nA|r|c\nc|s|a\nd|r|a\n");

  /** The row look-ups the server answers with SQL, answered from a loaded graph. */
  const rowsOf = (graph: KnowledgeGraph): BaseVersionRows => {
    const ref = (e: GraphEdge): EdgeRef => ({ key: e.key, source: e.source, target: e.target, relation: e.relation });
    return {
      hasNode: (id) => Promise.resolve(graph.getNode(id) !== undefined),
      edgesBetween: (s, o, r) => Promise.resolve(graph.outEdges(s).filter((e) => e.target === o && e.relation === r).sort((x, y) => (x.ord ?? 0) - (y.ord ?? 0)).map(ref)),
      incidentEdges: (id) => Promise.resolve(graph.incidentEdges(id).map(ref)),
    };
  };

  const fromPlan = (graph: KnowledgeGraph, action: RefinementAction): TouchedItems | null => {
    try {
      return findTouchedItems(planActions({ graph, actions: [action], edgeKeyPrefix: "stale." }).changeset);
    } catch {
      return null;
    }
  };

  const sorted = (t: TouchedItems | null) => t && { nodes: [...t.nodes].sort(), edges: [...t.edges].sort(), reshaped: [...t.reshaped].sort() };

  /** Random actions over the graph's own names (labels, ids, new names, blanks), seeded. */
  function randomActions(graph: KnowledgeGraph, count: number, seed: number): RefinementAction[] {
    let state = seed;
    const next = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648);
    const nodes = [...graph.nodes.values()];
    const edges = [...graph.edges.values()];
    const pick = <T>(xs: T[]): T => xs[Math.floor(next() * xs.length)] as T;
    const name = (): string => {
      const r = next();
      const n = pick(nodes);
      return r < 0.6 ? n.label : r < 0.8 ? n.id : r < 0.95 ? `made up ${Math.floor(next() * 5)}` : " ";
    };
    const out: RefinementAction[] = [];
    for (let i = 0; i < count; i++) {
      const r = next();
      const e = pick(edges);
      const label = (id: string) => (next() < 0.7 ? (graph.getNode(id)?.label ?? id) : id);
      if (r < 0.3) out.push({ type: "delete_edge", subject: label(e.source), relation: next() < 0.9 ? e.relation : "other", object: label(e.target) });
      else if (r < 0.45) out.push({ type: "insert_edge", subject: label(e.source), relation: e.relation, object: label(e.target) });
      else if (r < 0.7) out.push({ type: "insert_edge", subject: name(), relation: next() < 0.9 ? pick(edges).relation : "", object: name() });
      else out.push({ type: "replace_node", old: name(), new: next() < 0.5 ? pick(nodes).label : name() });
    }
    return out;
  }

  for (const [title, graph] of [
    ["httpx (graphify)", httpx],
    ["countries_S1 (triples)", countries],
    ["duplicates and ambiguous names", copies],
  ] as const) {
    it(`equals the planned change's touched items on ${title}`, async () => {
      const rows = rowsOf(graph);
      const actions = randomActions(graph, 300, 17);
      let planned = 0;
      for (const action of actions) {
        const resolved = resolveActionNames({ graph, action });
        const expected = fromPlan(graph, action);
        if (expected) planned++;
        expect(sorted(await findActionTouchedItems({ action, resolved, rows })), JSON.stringify(action)).toEqual(sorted(expected));
      }
      // The random actions must exercise both outcomes, or the comparison proves little.
      expect(planned).toBeGreaterThan(10);
      expect(planned).toBeLessThan(actions.length);
    });
  }
});
