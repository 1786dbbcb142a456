/**
 * Versions in memory at the cost of their change: the next version is the cached graph advanced
 * in place by the committed changeset, an older one is the newer graph read through the inverse
 * changesets since (see KnowledgeGraph.advance and KnowledgeGraph.overlay). Both give what a
 * fresh load of that version gives: the same nodes, edges, attributes, positions and adjacency.
 */
import type { GraphChanges, GraphEdge, GraphNode } from "../graph/model";
import { KnowledgeGraph } from "../graph/model";
import type { Changeset } from "./changeset";
import { edgeFromState, nodeFromState } from "./changeset";

/**
 * The net effect of changesets applied in order to `graph`: the final state of every item they
 * touch. Items added without a position (changesets stored before positions were recorded) go
 * after the graph's last one, as a load of the stored rows would put them.
 */
export function changesOf(graph: KnowledgeGraph, changesets: Changeset[]): GraphChanges {
  const changes: GraphChanges = { nodes: new Map(), edges: new Map() };
  const nodeAt = (id: string) => (changes.nodes.has(id) ? (changes.nodes.get(id) ?? undefined) : graph.getNode(id));
  const edgeAt = (key: string) => (changes.edges.has(key) ? (changes.edges.get(key) ?? undefined) : graph.edges.get(key));
  // Positions for items added without one: after the graph's last item and any put so far.
  const seen = { node: -1, edge: -1 };
  let graphMax: { node: number; edge: number } | null = null;
  const next = (kind: "node" | "edge"): number => {
    graphMax ??= { node: maxOrd(graph.nodes.values()), edge: maxOrd(graph.edges.values()) };
    return (seen[kind] = Math.max(seen[kind], graphMax[kind]) + 1);
  };
  const putNode = (node: GraphNode, ord: number | undefined) => {
    const at = ord ?? node.ord ?? next("node");
    seen.node = Math.max(seen.node, at);
    changes.nodes.set(node.id, { ...node, ord: at });
  };
  const putEdge = (edge: GraphEdge, ord: number | undefined) => {
    const at = ord ?? edge.ord ?? next("edge");
    seen.edge = Math.max(seen.edge, at);
    changes.edges.set(edge.key, { ...edge, ord: at });
  };
  for (const changeset of changesets) {
    for (const op of changeset.ops) {
      switch (op.op) {
        case "add_node":
          putNode(nodeFromState(op.node), undefined);
          break;
        case "remove_node":
          changes.nodes.set(op.node.id, null);
          break;
        case "update_node": {
          // The new state keeps the old one's position (its row is written at the closed row's ord).
          const ord = nodeAt(op.before.id)?.ord ?? op.after.ord;
          if (op.after.id !== op.before.id) changes.nodes.set(op.before.id, null);
          putNode(nodeFromState(op.after), ord);
          break;
        }
        case "add_edge":
          putEdge(edgeFromState(op.edge), undefined);
          break;
        case "remove_edge":
          changes.edges.set(op.edge.key, null);
          break;
        case "update_edge": {
          const ord = edgeAt(op.before.key)?.ord ?? op.after.ord;
          if (op.after.key !== op.before.key) changes.edges.set(op.before.key, null);
          putEdge(edgeFromState(op.after), ord);
          break;
        }
      }
    }
  }
  return changes;
}

function maxOrd(items: Iterable<{ ord?: number }>): number {
  let max = -1;
  for (const item of items) if (item.ord !== undefined && item.ord > max) max = item.ord;
  return max;
}

/**
 * The version after `changesets` (in order), from the newest version `graph`, which from then on
 * shows its own version through the result. O(change).
 */
export function advanceGraph(options: { graph: KnowledgeGraph; changesets: Changeset[] }): KnowledgeGraph {
  return options.graph.advance(changesOf(options.graph, options.changesets));
}

/**
 * An older version, read through `graph`: `inverses` are the inverse changesets of the versions
 * since, newest first (each takes its version back to the one before). O(change).
 */
export function rewindGraph(options: { graph: KnowledgeGraph; inverses: Changeset[] }): KnowledgeGraph {
  return KnowledgeGraph.overlay(options.graph, changesOf(options.graph, options.inverses));
}
