/**
 * What a planned change touches, and whether a later changeset changed any of it. Used to
 * dismiss approvals given before such a change ("changed since approved"): a person approved
 * the action against the graph as it was, and what they saw no longer holds.
 *
 * An action touches: the nodes it adds, removes or updates; the nodes its edges start and end
 * at; the edges it adds, removes or updates. A later changeset changes one of them when it
 * adds, removes or updates one of those nodes or edges, adds or removes an edge between two of
 * those nodes (a parallel or duplicate edge changes what an insert or delete means), or adds or
 * removes any edge of a node the action removes or rewires (a merge would move it too).
 */
import type { RefinementAction } from "../loop/types";
import type { ResolvedAction } from "../review/resolve-action";
import type { ResolvedName } from "../review/types";
import type { ChangeOp, Changeset, EdgeState } from "./changeset";
import { newNodeIdCandidate } from "./plan-actions";

export interface TouchedItems {
  nodes: Set<string>;
  edges: Set<string>;
  /** Nodes the action removes or updates: any edge change at them matters. */
  reshaped: Set<string>;
}

export function findTouchedItems(changeset: Changeset): TouchedItems {
  const touched: TouchedItems = { nodes: new Set(), edges: new Set(), reshaped: new Set() };
  const edge = (e: EdgeState) => {
    touched.edges.add(e.key);
    touched.nodes.add(e.source);
    touched.nodes.add(e.target);
  };
  for (const op of changeset.ops) {
    switch (op.op) {
      case "add_node":
        touched.nodes.add(op.node.id);
        break;
      case "remove_node":
        touched.nodes.add(op.node.id);
        touched.reshaped.add(op.node.id);
        break;
      case "update_node":
        touched.nodes.add(op.before.id);
        touched.reshaped.add(op.before.id);
        break;
      case "add_edge":
      case "remove_edge":
        edge(op.edge);
        break;
      case "update_edge":
        edge(op.before);
        edge(op.after);
        break;
    }
  }
  return touched;
}

function describeEdge(e: EdgeState): string {
  return `edge ${e.source} --${e.relation}--> ${e.target}`;
}

function verbOf(op: ChangeOp): string {
  return op.op.startsWith("add") ? "added" : op.op.startsWith("remove") ? "removed" : "changed";
}

/** The first op of `changeset` that changes something in `touched`, described; null if none. */
export function findTouchingChange(touched: TouchedItems, changeset: Changeset): string | null {
  const edgeHits = (e: EdgeState) =>
    touched.edges.has(e.key) ||
    (touched.nodes.has(e.source) && touched.nodes.has(e.target)) ||
    touched.reshaped.has(e.source) ||
    touched.reshaped.has(e.target);
  for (const op of changeset.ops) {
    switch (op.op) {
      case "add_node":
      case "remove_node":
        if (touched.nodes.has(op.node.id)) return `node ${JSON.stringify(op.node.label)} ${verbOf(op)}`;
        break;
      case "update_node":
        if (touched.nodes.has(op.before.id)) return `node ${JSON.stringify(op.before.label)} changed`;
        break;
      case "add_edge":
      case "remove_edge":
        if (edgeHits(op.edge)) return `${describeEdge(op.edge)} ${verbOf(op)}`;
        break;
      case "update_edge":
        if (edgeHits(op.before) || edgeHits(op.after)) return `${describeEdge(op.before)} changed`;
        break;
    }
  }
  return null;
}

/** An edge of the base version, as the rows store it. */
export interface EdgeRef {
  key: string;
  source: string;
  target: string;
  relation: string;
}

/**
 * What the items an action touches depend on in its base version, answered without loading it
 * (indexed queries on the stored rows, on the server; a loaded graph in tests).
 */
export interface BaseVersionRows {
  hasNode(id: string): Promise<boolean>;
  /** The edges `source --relation--> target`, in file order. */
  edgesBetween(source: string, target: string, relation: string): Promise<EdgeRef[]>;
  /** Every edge starting or ending at the node. */
  incidentEdges(id: string): Promise<EdgeRef[]>;
}

/**
 * The items one action touches on its base version: the same answer as
 * `findTouchedItems(planActions({graph: base, actions: [action]}).changeset)` (a test holds the
 * two equal), from the names the review resolved on that version and a few row look-ups, so no
 * version is loaded. Null when the plan would refuse the action (apply refuses it anyway).
 */
export async function findActionTouchedItems({
  action,
  resolved,
  rows,
  edgeKeyPrefix = "stale.",
}: {
  action: RefinementAction;
  /** The review's resolution on the base version (ActionReview.resolved). */
  resolved: ResolvedAction;
  rows: BaseVersionRows;
  edgeKeyPrefix?: string;
}): Promise<TouchedItems | null> {
  const touched: TouchedItems = { nodes: new Set(), edges: new Set(), reshaped: new Set() };
  const existing = async (name: ResolvedName | undefined): Promise<string | null> => (name?.nodeId && (await rows.hasNode(name.nodeId)) ? name.nodeId : null);
  const addEdge = (e: { key: string; source: string; target: string }) => {
    touched.edges.add(e.key);
    touched.nodes.add(e.source);
    touched.nodes.add(e.target);
  };

  if (action.type === "insert_edge") {
    const relation = action.relation.trim();
    if (!relation || !resolved.subject || !resolved.object) return null;
    const created = new Map<string, string>();
    const endpoint = async (name: ResolvedName): Promise<string | null> => {
      if (name.status === "ambiguous") return null;
      const id = await existing(name);
      if (id) return id;
      const label = name.name.trim();
      if (!label) return null;
      const earlier = created.get(label);
      if (earlier) return earlier;
      const taken = new Set(created.values());
      let candidate = newNodeIdCandidate(label, 1);
      for (let n = 2; taken.has(candidate) || (await rows.hasNode(candidate)); n++) candidate = newNodeIdCandidate(label, n);
      created.set(label, candidate);
      return candidate;
    };
    const s = await endpoint(resolved.subject);
    if (!s) return null;
    const o = await endpoint(resolved.object);
    if (!o) return null;
    for (const id of created.values()) touched.nodes.add(id);
    // An edge that exists already makes the insert a no-op: nothing is touched.
    if (created.size === 0 && (await rows.edgesBetween(s, o, relation)).length > 0) return touched;
    addEdge({ key: `${edgeKeyPrefix}0`, source: s, target: o });
    return touched;
  }

  if (action.type === "delete_edge") {
    const ids: string[] = [];
    for (const name of [resolved.subject, resolved.object]) {
      if (!name || name.status === "ambiguous" || !name.nodeId) return null;
      ids.push(name.nodeId);
    }
    const [s, o] = ids as [string, string];
    const [kept, ...extra] = await rows.edgesBetween(s, o, action.relation.trim());
    if (!kept) return null;
    for (const e of extra.length === 0 ? [kept] : extra) addEdge(e);
    return touched;
  }

  const oldName = resolved.old;
  const newName = resolved.new;
  if (!oldName || !newName || oldName.status === "ambiguous") return null;
  const old = await existing(oldName);
  if (!old) return null;
  if (newName.status === "ambiguous") return null;
  const survivor = await existing(newName);
  if (survivor === old) return touched;
  if (survivor) {
    const incident = new Map((await rows.incidentEdges(old)).map((e) => [e.key, e]));
    for (const e of incident.values()) {
      addEdge(e);
      addEdge({ key: e.key, source: e.source === old ? survivor : e.source, target: e.target === old ? survivor : e.target });
    }
    for (const id of [survivor, old]) {
      touched.nodes.add(id);
      touched.reshaped.add(id);
    }
    return touched;
  }
  if (!action.new.trim()) return null;
  touched.nodes.add(old);
  touched.reshaped.add(old);
  return touched;
}
