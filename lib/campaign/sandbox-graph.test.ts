import { describe, expect, it } from "vitest";
import { applyChangeset } from "../changes/changeset";
import { planActions } from "../changes/plan-actions";
import type { KnowledgeGraph } from "../graph/model";
import { parseTriples } from "../import/parse-triples";
import { musique } from "../loop/test-support";
import { readData } from "../test/data";
import { SandboxGraph } from "./sandbox-graph";

function snapshot(graph: KnowledgeGraph) {
  const edges = [...graph.edges.values()].map((e) => `${e.key}|${e.source}|${e.relation}|${e.target}`).sort();
  const nodes = [...graph.nodes.values()].map((n) => `${n.id}|${n.label}|${n.aliases.join(",")}`).sort();
  return { edges, nodes, nodeCount: graph.nodes.size, edgeCount: graph.edges.size };
}

const keys = (list: { key: string }[]) => list.map((e) => e.key).sort();

function expectSameView(sandbox: KnowledgeGraph, copy: KnowledgeGraph, ids: Iterable<string>) {
  expect(snapshot(sandbox)).toEqual(snapshot(copy));
  for (const id of ids) {
    expect(keys(sandbox.outEdges(id))).toEqual(keys(copy.outEdges(id)));
    expect(keys(sandbox.inEdges(id))).toEqual(keys(copy.inEdges(id)));
    expect(keys(sandbox.incidentEdges(id))).toEqual(keys(copy.incidentEdges(id)));
    expect(sandbox.degree(id)).toBe(copy.degree(id));
    expect([...sandbox.neighborIds(id)].sort()).toEqual([...copy.neighborIds(id)].sort());
    const node = copy.getNode(id);
    expect(sandbox.getNode(id)?.label).toBe(node?.label);
    if (node) expect([...sandbox.idsByNormLabel(node.normLabel)].sort()).toEqual([...copy.idsByNormLabel(node.normLabel)].sort());
  }
}

describe("SandboxGraph", () => {
  it("reads like the applied changeset on countries_S1 (insert, delete, merge, rename) and leaves the live graph alone", () => {
    const live = parseTriples(readData("countries_S1", "graph.txt"), { source: "graph.txt" });
    const before = snapshot(live);
    const plan = planActions({
      graph: live,
      edgeKeyPrefix: "t.",
      actions: [
        { type: "insert_edge", subject: "eritrea", relation: "locatedIn", object: "africa" },
        { type: "insert_edge", subject: "atlantis", relation: "locatedIn", object: "europe" },
        { type: "delete_edge", subject: "ghana", relation: "locatedIn", object: "western_africa" },
        { type: "replace_node", old: "togo", new: "benin" },
        { type: "replace_node", old: "mali", new: "republic of mali" },
      ],
    });
    const sandbox = new SandboxGraph(live, plan.changeset);
    const copy = applyChangeset(live, plan.changeset);
    expectSameView(sandbox, copy, ["eritrea", "africa", "ghana", "western_africa", "benin", "togo", "mali", "europe", ...[...copy.nodes.keys()].filter((id) => id.startsWith("refinery_"))]);
    expect(sandbox.getNode("togo")).toBeUndefined();
    expect(sandbox.nodes.has("togo")).toBe(false);
    expect(sandbox.idsByNormLabel("republic of mali").has("mali")).toBe(true);
    expect(snapshot(live)).toEqual(before);
    // Only the changes are held.
    expect(sandbox.overlaySize.edges).toBeLessThan(40);
  });

  it("stacks changesets into one overlay over the live graph and refuses changes that conflict", () => {
    const live = parseTriples(readData("countries_S1", "graph.txt"), { source: "graph.txt" });
    const first = planActions({ graph: live, edgeKeyPrefix: "a.", actions: [{ type: "insert_edge", subject: "eritrea", relation: "locatedIn", object: "africa" }] });
    const one = new SandboxGraph(live, first.changeset);
    const second = planActions({ graph: one, edgeKeyPrefix: "b.", actions: [{ type: "delete_edge", subject: "eritrea", relation: "locatedIn", object: "africa" }] });
    const two = one.withChanges(second.changeset);
    expect(two.live).toBe(live);
    expect(two.changeset.ops).toHaveLength(2);
    expect(two.outEdges("eritrea").some((e) => e.target === "africa")).toBe(false);
    expect(one.outEdges("eritrea").some((e) => e.target === "africa")).toBe(true);
    // The same removal again no longer applies.
    expect(() => two.withChanges(second.changeset)).toThrow(expect.objectContaining({ code: "CONFLICT" }));
    expect(() => one.addEdge()).toThrow(/read-only/);
  });

  it("matches the applied changeset on the MuSiQue bundle's graph", () => {
    const live = musique().graph;
    const some = [...live.edges.values()].slice(100, 103);
    const plan = planActions({
      graph: live,
      edgeKeyPrefix: "m.",
      actions: [
        ...some.map((e) => ({ type: "delete_edge" as const, subject: live.getNode(e.source)?.label ?? e.source, relation: e.relation, object: live.getNode(e.target)?.label ?? e.target })),
        { type: "insert_edge", subject: live.getNode(some[0]!.source)!.label, relation: "is near", object: "A brand new place" },
      ],
    });
    const sandbox = new SandboxGraph(live, plan.changeset);
    expectSameView(sandbox, applyChangeset(live, plan.changeset), some.flatMap((e) => [e.source, e.target]));
  });
});
