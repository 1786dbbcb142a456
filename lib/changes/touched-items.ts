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
import type { ChangeOp, Changeset, EdgeState } from "./changeset";

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
