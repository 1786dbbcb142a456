import { describe, expect, it } from "vitest";
import type { KnowledgeGraph } from "../graph/model";
import { parseGraphifyJson } from "../import/parse-graphify";
import { parseTriples } from "../import/parse-triples";
import type { RefinementAction } from "../loop/types";
import { resolveActionNames } from "../review/resolve-action";
import { readData } from "../test/data";
import { actionKey } from "./action-key";
import { applyChangeset } from "./changeset";
import { findMootReason, findTouchedNames, isConcernedBy } from "./find-moot-reason";
import { planActions } from "./plan-actions";

/** Two graphs of different kinds (code with files, and plain triples): the rules must hold on both. */
const GRAPHS: [string, () => KnowledgeGraph][] = [
  ["httpx (graphify)", () => parseGraphifyJson(readData("graphify", "httpx", "graph.json"))],
  ["countries (triples)", () => parseTriples(readData("countries_S1", "graph.txt"))],
];

/** An edge whose endpoint labels name exactly its endpoints, stored once: the names an action would use. */
function namedEdge(graph: KnowledgeGraph): { subject: string; relation: string; object: string } {
  for (const e of graph.edges.values()) {
    const subject = graph.getNode(e.source)?.label;
    const object = graph.getNode(e.target)?.label;
    if (!subject || !object || e.source === e.target) continue;
    const names = resolveActionNames({ graph, action: { type: "insert_edge", subject, relation: e.relation, object } });
    if (names.subject?.nodeId !== e.source || names.object?.nodeId !== e.target) continue;
    if (graph.outEdges(e.source).filter((x) => x.target === e.target && x.relation === e.relation).length !== 1) continue;
    return { subject, relation: e.relation, object };
  }
  throw new Error("no uniquely named edge");
}

/** Two uniquely named nodes with no edge between them under `relation`. */
function unlinkedPair(graph: KnowledgeGraph, relation: string): { subject: string; object: string } {
  const named = [...graph.nodes.values()].filter((n) => resolveActionNames({ graph, action: { type: "insert_edge", subject: n.label, relation, object: n.label } }).subject?.nodeId === n.id);
  for (const a of named.slice(0, 50)) for (const b of named.slice(50, 100)) if (!graph.outEdges(a.id).some((e) => e.target === b.id && e.relation === relation)) return { subject: a.label, object: b.label };
  throw new Error("no unlinked pair");
}

function apply(graph: KnowledgeGraph, action: RefinementAction) {
  const plan = planActions({ graph, actions: [action], edgeKeyPrefix: "test." });
  return { after: applyChangeset(graph, plan.changeset), changeset: plan.changeset };
}

describe.each(GRAPHS)("moot actions on %s", (_name, load) => {
  const graph = load();
  const edge = namedEdge(graph);

  it("an insert is moot once its edge exists; a delete once its edge is gone", () => {
    const insert: RefinementAction = { type: "insert_edge", ...edge };
    const del: RefinementAction = { type: "delete_edge", ...edge };
    expect(findMootReason({ graph, action: insert })).toContain("exists");
    expect(findMootReason({ graph, action: del })).toBeNull();
    const { after } = apply(graph, del);
    expect(findMootReason({ graph: after, action: del })).toContain("no edge");
    expect(findMootReason({ graph: after, action: insert })).toBeNull();
  });

  it("a copy of an applied insert becomes moot, and the commit concerns it but not an unrelated action", () => {
    const pair = unlinkedPair(graph, edge.relation);
    const insert: RefinementAction = { type: "insert_edge", subject: pair.subject, relation: edge.relation, object: pair.object };
    // Another run's copy, spaced differently: the same key, the same row in the queue.
    const copy: RefinementAction = { type: "insert_edge", subject: ` ${pair.subject}`, relation: edge.relation, object: `${pair.object}  ` };
    expect(actionKey(copy)).toBe(actionKey(insert));
    expect(findMootReason({ graph, action: copy })).toBeNull();
    const { after, changeset } = apply(graph, insert);
    expect(findMootReason({ graph: after, action: copy })).toContain("exists");
    const touched = findTouchedNames({ changeset, before: graph });
    expect(isConcernedBy(copy, touched)).toBe(true);
    const far = namedEdge(after);
    const unrelated: RefinementAction = { type: "insert_edge", subject: far.subject, relation: `${far.relation}_x`, object: far.object };
    if (far.subject !== pair.subject && far.object !== pair.object && far.subject !== pair.object && far.object !== pair.subject) expect(isConcernedBy(unrelated, touched)).toBe(false);
  });

  it("a replace is moot once the old node was merged into the new one", () => {
    const replace: RefinementAction = { type: "replace_node", old: edge.subject, new: edge.object };
    expect(findMootReason({ graph, action: replace })).toBeNull();
    const { after } = apply(graph, replace);
    // The merged node's label lives on as an alias of the survivor, so both names now reach one node.
    expect(findMootReason({ graph: after, action: replace })).toMatch(/one node|is gone/);
  });

  it("different words are different keys: case is kept", () => {
    expect(actionKey({ type: "insert_edge", ...edge })).not.toBe(actionKey({ type: "insert_edge", ...edge, subject: edge.subject.toUpperCase() === edge.subject ? edge.subject.toLowerCase() : edge.subject.toUpperCase() }));
    expect(actionKey({ type: "delete_edge", ...edge })).not.toBe(actionKey({ type: "insert_edge", ...edge }));
  });
});

describe("ambiguous names", () => {
  it("are never moot: a person must pick the node", () => {
    const graph = parseGraphifyJson(
      JSON.stringify({
        directed: true,
        multigraph: false,
        graph: {},
        nodes: [
          { id: "a1", label: "Foo", source_file: "one.py" },
          { id: "a2", label: "Foo", source_file: "two.py" },
          { id: "b", label: "Bar", source_file: "one.py" },
        ],
        links: [{ source: "a1", target: "b", relation: "calls" }],
      }),
    );
    expect(resolveActionNames({ graph, action: { type: "insert_edge", subject: "Foo", relation: "calls", object: "Bar" } }).subject?.status).toBe("ambiguous");
    expect(findMootReason({ graph, action: { type: "insert_edge", subject: "Foo", relation: "calls", object: "Bar" } })).toBeNull();
    expect(findMootReason({ graph, action: { type: "delete_edge", subject: "Foo", relation: "uses", object: "Bar" } })).toBeNull();
    expect(findMootReason({ graph, action: { type: "replace_node", old: "Foo", new: "Bar" } })).toBeNull();
  });
});
