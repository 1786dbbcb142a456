/**
 * Diffs as data, for the visual diff: what a changeset (a proposal preview) or a run of
 * changesets (version V → W) does to nodes and edges. Changes are netted per node id and edge
 * key: an edge added then removed is no difference at all.
 */
import type { JsonObject } from "../json/lossless-json";
import { jsonNumber, stringifyLosslessJson } from "../json/lossless-json";
import type { Changeset, EdgeState, NodeState } from "./changeset";
import type { Merge } from "./plan-actions";

export interface DiffNode {
  id: string;
  label: string;
  community: string | number | null;
}

export interface DiffEdge {
  key: string;
  subject: string;
  relation: string;
  object: string;
  subject_id: string;
  object_id: string;
}

export interface GraphDiff {
  addedNodes: DiffNode[];
  removedNodes: DiffNode[];
  /** Label or attributes changed (renames, merged-in aliases). */
  changedNodes: { before: DiffNode; after: DiffNode; fields: string[] }[];
  /** `from` was merged into `into` (and removed); its edges are among changedEdges, rewired. */
  mergedNodes: { from: DiffNode; into: DiffNode }[];
  addedEdges: DiffEdge[];
  removedEdges: DiffEdge[];
  /** Rewired or relabelled edges, same key. */
  changedEdges: { before: DiffEdge; after: DiffEdge }[];
}

function diffNode(state: NodeState): DiffNode {
  const c = state.attrs.community;
  return { id: state.id, label: state.label, community: typeof c === "string" ? c : (jsonNumber(c) ?? null) };
}

export type LabelOf = (id: string) => string;

function diffEdge(state: EdgeState, labelOf: LabelOf): DiffEdge {
  return {
    key: state.key,
    subject: labelOf(state.source),
    relation: state.relation,
    object: labelOf(state.target),
    subject_id: state.source,
    object_id: state.target,
  };
}

function changedFields(before: JsonObject, after: JsonObject, labelChanged: boolean): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  const fields = [...keys].filter((k) => stringifyLosslessJson(before[k] ?? null) !== stringifyLosslessJson(after[k] ?? null));
  if (labelChanged && !fields.includes("label")) fields.unshift("label");
  return fields;
}

/**
 * Net effect of changesets applied in order. `labelOf` names nodes that the changesets do not
 * mention (edge endpoints); nodes they add, remove or rename are named from the ops.
 */
export function diffChangesets({ changesets, merges = [], labelOf }: { changesets: Changeset[]; merges?: Merge[]; labelOf: LabelOf }): GraphDiff {
  const nodeFirst = new Map<string, NodeState | null>();
  const nodeLast = new Map<string, NodeState | null>();
  const edgeFirst = new Map<string, EdgeState | null>();
  const edgeLast = new Map<string, EdgeState | null>();
  const seeNode = (id: string, before: NodeState | null, after: NodeState | null) => {
    if (!nodeFirst.has(id)) nodeFirst.set(id, before);
    nodeLast.set(id, after);
  };
  const seeEdge = (key: string, before: EdgeState | null, after: EdgeState | null) => {
    if (!edgeFirst.has(key)) edgeFirst.set(key, before);
    edgeLast.set(key, after);
  };
  for (const cs of changesets) {
    for (const op of cs.ops) {
      if (op.op === "add_node") seeNode(op.node.id, null, op.node);
      else if (op.op === "remove_node") seeNode(op.node.id, op.node, null);
      else if (op.op === "update_node") seeNode(op.after.id, op.before, op.after);
      else if (op.op === "add_edge") seeEdge(op.edge.key, null, op.edge);
      else if (op.op === "remove_edge") seeEdge(op.edge.key, op.edge, null);
      else seeEdge(op.after.key, op.before, op.after);
    }
  }
  const labels = new Map<string, string>();
  for (const [id, s] of nodeLast) if (s) labels.set(id, s.label);
  for (const [id, s] of nodeFirst) if (s && !labels.has(id)) labels.set(id, s.label);
  const name: LabelOf = (id) => labels.get(id) ?? labelOf(id);

  const diff: GraphDiff = { addedNodes: [], removedNodes: [], changedNodes: [], mergedNodes: [], addedEdges: [], removedEdges: [], changedEdges: [] };
  const mergedFrom = new Map(merges.map((m) => [m.from, m.into]));
  for (const [id, first] of nodeFirst) {
    const last = nodeLast.get(id) ?? null;
    if (!first && last) diff.addedNodes.push(diffNode(last));
    else if (first && !last) {
      const into = mergedFrom.get(id);
      const survivor = into ? (nodeLast.get(into) ?? null) : null;
      if (into && survivor) diff.mergedNodes.push({ from: diffNode(first), into: diffNode(survivor) });
      else diff.removedNodes.push(diffNode(first));
    } else if (first && last) {
      const fields = changedFields(first.attrs, last.attrs, first.label !== last.label);
      if (fields.length > 0) diff.changedNodes.push({ before: diffNode(first), after: diffNode(last), fields });
    }
  }
  for (const [key, first] of edgeFirst) {
    const last = edgeLast.get(key) ?? null;
    if (!first && last) diff.addedEdges.push(diffEdge(last, name));
    else if (first && !last) diff.removedEdges.push(diffEdge(first, name));
    else if (first && last) {
      const same = first.source === last.source && first.target === last.target && first.relation === last.relation;
      if (!same || stringifyLosslessJson(first.attrs) !== stringifyLosslessJson(last.attrs)) {
        diff.changedEdges.push({ before: diffEdge(first, name), after: diffEdge(last, name) });
      }
    }
  }
  return diff;
}

export function isEmptyDiff(diff: GraphDiff): boolean {
  return Object.values(diff).every((list: unknown[]) => list.length === 0);
}
