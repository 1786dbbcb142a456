/**
 * Graph changes as data: a changeset is a list of explicit operations, each carrying the state
 * it expects before (so it can be checked against a newer version and inverted exactly).
 * Applied by a pure function; persisted separately (lib/server/proposals/changesets.ts).
 */
import type { GraphEdge, GraphNode } from "../graph/model";
import { KnowledgeGraph, edgeFromRecord, nodeFromRecord } from "../graph/model";
import type { JsonObject, JsonValue } from "../json/lossless-json";
import { isJsonObject, parseLosslessJson, stringifyLosslessJson } from "../json/lossless-json";

export interface NodeState {
  id: string;
  label: string;
  attrs: JsonObject;
  /**
   * Position in the graph's file order, on removed items: re-adding (an undo) puts the item
   * back where it was, so apply + revert exports byte-identical to the original.
   */
  ord?: number;
}

export interface EdgeState {
  key: string;
  source: string;
  target: string;
  relation: string;
  attrs: JsonObject;
  ord?: number;
}

export type ChangeOp =
  | { op: "add_node"; node: NodeState }
  | { op: "remove_node"; node: NodeState }
  | { op: "update_node"; before: NodeState; after: NodeState }
  | { op: "add_edge"; edge: EdgeState }
  | { op: "remove_edge"; edge: EdgeState }
  | { op: "update_edge"; before: EdgeState; after: EdgeState };

export interface Changeset {
  ops: ChangeOp[];
}

export function nodeState(node: GraphNode): NodeState {
  return { id: node.id, label: node.label, attrs: node.attrs, ...(node.ord === undefined ? {} : { ord: node.ord }) };
}

export function edgeState(edge: GraphEdge): EdgeState {
  return { key: edge.key, source: edge.source, target: edge.target, relation: edge.relation, attrs: edge.attrs, ...(edge.ord === undefined ? {} : { ord: edge.ord }) };
}

export function nodeFromState(state: NodeState): GraphNode {
  const node = nodeFromRecord(state.attrs.id === state.id ? state.attrs : { ...state.attrs, id: state.id });
  return { ...node, id: state.id, label: state.label, ...(state.ord === undefined ? {} : { ord: state.ord }) };
}

export function edgeFromState(state: EdgeState): GraphEdge {
  return { ...edgeFromRecord(state.key, state.source, state.target, state.attrs), relation: state.relation, ...(state.ord === undefined ? {} : { ord: state.ord }) };
}

/** The changeset that undoes `changeset`: operations reversed and each one inverted. */
export function invertChangeset(changeset: Changeset): Changeset {
  const ops = [...changeset.ops].reverse().map((op): ChangeOp => {
    switch (op.op) {
      case "add_node":
        return { op: "remove_node", node: op.node };
      case "remove_node":
        return { op: "add_node", node: op.node };
      case "update_node":
        return { op: "update_node", before: op.after, after: op.before };
      case "add_edge":
        return { op: "remove_edge", edge: op.edge };
      case "remove_edge":
        return { op: "add_edge", edge: op.edge };
      case "update_edge":
        return { op: "update_edge", before: op.after, after: op.before };
    }
  });
  return { ops };
}

function sameJson(a: JsonValue, b: JsonValue): boolean {
  return stringifyLosslessJson(a) === stringifyLosslessJson(b);
}

function sameNode(node: GraphNode | undefined, state: NodeState): boolean {
  return node !== undefined && node.label === state.label && sameJson(node.attrs, state.attrs);
}

function sameEdge(edge: GraphEdge | undefined, state: EdgeState): boolean {
  return (
    edge !== undefined &&
    edge.source === state.source &&
    edge.target === state.target &&
    edge.relation === state.relation &&
    sameJson(edge.attrs, state.attrs)
  );
}

export interface Conflict {
  op: number;
  message: string;
}

/**
 * Is the changeset still applicable to `graph`? Every operation's expected "before" state must
 * hold, in order (a later op sees the effects of earlier ones). Returns the conflicts; empty
 * means it applies cleanly. This is the optimistic-concurrency check: a proposal made on an
 * older version applies to a newer one only if nothing it touches changed in between.
 */
export function findConflicts(graph: KnowledgeGraph, changeset: Changeset): Conflict[] {
  const conflicts: Conflict[] = [];
  // Overlay of the effects of earlier ops, so the check does not mutate or copy the graph.
  const nodes = new Map<string, GraphNode | null>();
  const edges = new Map<string, GraphEdge | null>();
  const nodeAt = (id: string) => (nodes.has(id) ? (nodes.get(id) ?? undefined) : graph.getNode(id));
  const edgeAt = (key: string) => (edges.has(key) ? (edges.get(key) ?? undefined) : graph.edges.get(key));
  changeset.ops.forEach((op, i) => {
    const fail = (message: string) => conflicts.push({ op: i, message });
    switch (op.op) {
      case "add_node":
        if (nodeAt(op.node.id)) fail(`node ${JSON.stringify(op.node.id)} already exists`);
        nodes.set(op.node.id, nodeFromState(op.node));
        break;
      case "remove_node":
        if (!sameNode(nodeAt(op.node.id), op.node)) fail(`node ${JSON.stringify(op.node.id)} changed or is gone`);
        nodes.set(op.node.id, null);
        break;
      case "update_node":
        if (!sameNode(nodeAt(op.before.id), op.before)) fail(`node ${JSON.stringify(op.before.id)} changed or is gone`);
        nodes.set(op.after.id, nodeFromState(op.after));
        break;
      case "add_edge":
        if (edgeAt(op.edge.key)) fail(`edge ${op.edge.key} already exists`);
        for (const end of [op.edge.source, op.edge.target]) if (!nodeAt(end)) fail(`edge ${op.edge.key} needs node ${JSON.stringify(end)}, which is gone`);
        edges.set(op.edge.key, edgeFromState(op.edge));
        break;
      case "remove_edge":
        if (!sameEdge(edgeAt(op.edge.key), op.edge)) fail(`edge ${op.edge.key} (${op.edge.source} --${op.edge.relation}--> ${op.edge.target}) changed or is gone`);
        edges.set(op.edge.key, null);
        break;
      case "update_edge":
        if (!sameEdge(edgeAt(op.before.key), op.before)) fail(`edge ${op.before.key} (${op.before.source} --${op.before.relation}--> ${op.before.target}) changed or is gone`);
        for (const end of [op.after.source, op.after.target]) if (!nodeAt(end)) fail(`edge ${op.after.key} needs node ${JSON.stringify(end)}, which is gone`);
        edges.set(op.after.key, edgeFromState(op.after));
        break;
    }
  });
  // A node may only be removed once no live edge still uses it.
  for (const [id, node] of nodes) {
    if (node !== null) continue;
    const stillUsed = graph.incidentEdges(id).some((e) => {
      const now = edgeAt(e.key);
      return now !== undefined && (now.source === id || now.target === id);
    });
    const added = [...edges.values()].some((e) => e !== null && (e.source === id || e.target === id));
    if (stillUsed || added) conflicts.push({ op: -1, message: `node ${JSON.stringify(id)} would be removed while edges still use it` });
  }
  return conflicts;
}

/** A new graph with the changeset applied (the input is not modified). Throws on conflicts. */
export function applyChangeset(graph: KnowledgeGraph, changeset: Changeset): KnowledgeGraph {
  const conflicts = findConflicts(graph, changeset);
  if (conflicts.length > 0) throw new Error(`changeset does not apply: ${conflicts.map((c) => c.message).join("; ")}`);
  const removedNodes = new Set<string>();
  const removedEdges = new Set<string>();
  const nodeUpdates = new Map<string, GraphNode>();
  const edgeUpdates = new Map<string, GraphEdge>();
  const addedNodes: GraphNode[] = [];
  const addedEdges: GraphEdge[] = [];
  for (const op of changeset.ops) {
    switch (op.op) {
      case "add_node": {
        removedNodes.delete(op.node.id);
        addedNodes.push(nodeFromState(op.node));
        break;
      }
      case "remove_node":
        removedNodes.add(op.node.id);
        break;
      case "update_node":
        nodeUpdates.set(op.after.id, nodeFromState(op.after));
        break;
      case "add_edge":
        addedEdges.push(edgeFromState(op.edge));
        break;
      case "remove_edge":
        removedEdges.add(op.edge.key);
        break;
      case "update_edge":
        edgeUpdates.set(op.after.key, edgeFromState(op.after));
        break;
    }
  }
  // Rebuilt in file order (`ord`): existing and re-added items keep their positions, new
  // ones go at the end in the order they were added.
  const out = new KnowledgeGraph(graph.meta);
  let nextNodeOrd = 0;
  for (const node of graph.nodes.values()) nextNodeOrd = Math.max(nextNodeOrd, (node.ord ?? 0) + 1);
  const nodes: GraphNode[] = [];
  const addedNodeIds = new Set(addedNodes.map((n) => n.id));
  // Updates keep the item's position: an updated state carries no `ord` of its own.
  const updated = <T extends { ord?: number }>(item: T, update: T | undefined): T => (update ? { ...update, ord: update.ord ?? item.ord } : item);
  for (const node of graph.nodes.values()) if (!removedNodes.has(node.id) && !addedNodeIds.has(node.id)) nodes.push(updated(node, nodeUpdates.get(node.id)));
  for (const node of addedNodes) if (!removedNodes.has(node.id)) nodes.push({ ...(nodeUpdates.get(node.id) ?? node), ord: node.ord ?? nextNodeOrd++ });
  for (const node of nodes.sort((a, b) => (a.ord ?? 0) - (b.ord ?? 0))) out.addNode(node);
  let nextEdgeOrd = 0;
  for (const edge of graph.edges.values()) nextEdgeOrd = Math.max(nextEdgeOrd, (edge.ord ?? 0) + 1);
  const addedEdgeKeys = new Set(addedEdges.map((e) => e.key));
  const edges: GraphEdge[] = [];
  for (const edge of graph.edges.values()) if (!removedEdges.has(edge.key) && !addedEdgeKeys.has(edge.key)) edges.push(updated(edge, edgeUpdates.get(edge.key)));
  for (const edge of addedEdges) if (!removedEdges.has(edge.key)) edges.push({ ...(edgeUpdates.get(edge.key) ?? edge), ord: edge.ord ?? nextEdgeOrd++ });
  for (const edge of edges.sort((a, b) => (a.ord ?? 0) - (b.ord ?? 0))) out.addEdge(edge);
  return out;
}

/** Changesets as lossless JSON text (attribute numbers such as `1.0` survive). */
export function serializeChangeset(changeset: Changeset): string {
  return stringifyLosslessJson(changeset as unknown as JsonValue, { ensureAscii: false });
}

export function parseChangeset(text: string): Changeset {
  const value = parseLosslessJson(text, { source: "changeset" });
  if (!isJsonObject(value) || !Array.isArray(value.ops)) throw new Error("stored changeset is corrupt");
  return value as unknown as Changeset;
}
