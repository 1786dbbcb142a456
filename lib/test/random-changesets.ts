/**
 * Test support for versions in memory: random changesets planned on a real graph (inserts,
 * deletes, renames and merges), the changeset as the store writes it, and a comparable
 * snapshot of everything a reader can see of a graph.
 */
import type { Changeset } from "../changes/changeset";
import { planActions } from "../changes/plan-actions";
import type { KnowledgeGraph } from "../graph/model";
import { stringifyLosslessJson } from "../json/lossless-json";
import type { RefinementAction } from "../loop/types";

/**
 * Everything a reader can see of a graph, in a comparable form (attributes lossless), with the
 * order the maps iterate in (exports and retrieval follow it: a fresh load reads rows by ord).
 */
/**
 * Everything a graph answers, as sorted strings. `ordered` (the default) keeps each node's edge
 * lists in the order the graph gives them (traversal, tie-breaks and which copy a clean-up keeps
 * follow it); `false` compares them as sets — for an older version still held after the graph
 * moved on, whose lists keep their edges but not always their order (left, see the note of #17).
 */
export function graphSnapshot(graph: KnowledgeGraph, ordered = true): { nodes: string[]; edges: string[]; adjacency: string[]; labels: string[]; sizes: number[]; order: string[][] } {
  const json = (v: unknown) => stringifyLosslessJson(v as never);
  const nodes = [...graph.nodes.entries()]
    .map(([id, n]) => json([id, n.id, n.label, n.normLabel, n.aliases, n.community, n.fileType, n.sourceFile, n.sourceLocation, n.ord ?? null, json(n.attrs)]))
    .sort();
  const edges = [...graph.edges.entries()].map(([key, e]) => json([key, e.key, e.source, e.target, e.relation, e.ord ?? null, json(e.attrs)])).sort();
  const adjacency: string[] = [];
  const labels = new Set<string>();
  for (const id of graph.nodes.keys()) {
    const keys = (list: { key: string }[]) => (ordered ? list.map((e) => e.key) : list.map((e) => e.key).sort()).join(",");
    const visited: string[] = [];
    graph.forEachIncident(id, (e) => visited.push(e.key));
    adjacency.push(`${id} out=${keys(graph.outEdges(id))} in=${keys(graph.inEdges(id))} all=${keys(graph.incidentEdges(id))} visit=${(ordered ? visited : [...visited].sort()).join(",")} degree=${graph.degree(id)}`);
    const node = graph.getNode(id);
    if (node) labels.add(node.normLabel);
  }
  const byLabel = [...labels].sort().map((l) => `${l}: ${[...graph.idsByNormLabel(l)].sort().join(",")}`);
  const order = [[...graph.nodes.keys()], [...graph.edges.keys()]];
  return { nodes, edges, adjacency: adjacency.sort(), labels: byLabel, sizes: [graph.nodes.size, graph.edges.size], order };
}

/** A small deterministic generator (mulberry32), so a failure is reproducible. */
export function randomSource(seed: number): (n: number) => number {
  let a = seed >>> 0;
  return (n: number) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

/** Random refinement actions on a graph: inserts, deletes, renames and merges of existing nodes. */
export function randomActions(graph: KnowledgeGraph, random: (n: number) => number, count: number, round: number): RefinementAction[] {
  const nodes = [...graph.nodes.values()];
  const edges = [...graph.edges.values()];
  const pick = <T>(list: T[]): T => list[random(list.length)] as T;
  const actions: RefinementAction[] = [];
  for (let i = 0; i < count; i++) {
    const kind = random(4);
    if (kind === 0 || edges.length === 0) {
      actions.push({ type: "insert_edge", subject: pick(nodes).id, relation: pick(edges)?.relation ?? "related_to", object: pick(nodes).id });
    } else if (kind === 1) {
      const e = pick(edges);
      actions.push({ type: "delete_edge", subject: e.source, relation: e.relation, object: e.target });
    } else if (kind === 2) {
      actions.push({ type: "replace_node", old: pick(nodes).id, new: `renamed ${round}.${i}` });
    } else {
      actions.push({ type: "replace_node", old: pick(nodes).id, new: pick(nodes).id });
    }
  }
  return actions;
}

/** The actions that plan on `graph` (random picks can name ambiguous labels or a node twice). */
export function planRandom(graph: KnowledgeGraph, random: (n: number) => number, round: number, edgeKeyPrefix: string): Changeset {
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      const plan = planActions({ graph, actions: randomActions(graph, random, 1 + random(5), round), edgeKeyPrefix });
      if (plan.changeset.ops.length > 0) return plan.changeset;
    } catch {
      // Another draw.
    }
  }
  throw new Error("no random changeset planned in 20 draws");
}

/**
 * The changeset as the store writes it: added and updated items carry the position they got
 * (lib/server/proposals/changesets.ts writeOps), so its inverse puts them back there.
 */
export function withPositions(changeset: Changeset, after: KnowledgeGraph): Changeset {
  return {
    ops: changeset.ops.map((op) => {
      switch (op.op) {
        case "add_node":
          return { ...op, node: { ...op.node, ord: after.getNode(op.node.id)?.ord } };
        case "update_node":
          return { ...op, after: { ...op.after, ord: after.getNode(op.after.id)?.ord } };
        case "add_edge":
          return { ...op, edge: { ...op.edge, ord: after.edges.get(op.edge.key)?.ord } };
        case "update_edge":
          return { ...op, after: { ...op.after, ord: after.edges.get(op.after.key)?.ord } };
        default:
          return op;
      }
    }),
  };
}

