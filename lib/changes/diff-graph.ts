/**
 * The data behind the visual diff: the touched nodes and edges of a diff, drawn over their live
 * neighbourhood (context) in the version the change was planned on. Each element carries a
 * status (added / removed / changed / merged / context) so the client only styles it.
 */
import type { GraphDiff } from "../changes/diff";
import type { KnowledgeGraph } from "../graph/model";

export type DiffStatus = "added" | "removed" | "changed" | "merged" | "context";

export interface DiffGraphNode {
  id: string;
  label: string;
  community: string | number | null;
  status: DiffStatus;
  /** For a renamed or merged node: what it was called before. */
  previousLabel?: string;
  /** For a merged node: the survivor it was merged into. */
  mergedInto?: string;
}

export interface DiffGraphEdge {
  id: string;
  source: string;
  target: string;
  relation: string;
  status: DiffStatus;
  /** For a rewired edge: its endpoints before. */
  previous?: { source: string; target: string; relation: string };
}

export interface DiffGraph {
  nodes: DiffGraphNode[];
  edges: DiffGraphEdge[];
  /** Context was cut to stay readable. */
  truncated: boolean;
}

const CONTEXT_EDGES_PER_NODE = 6;
const MAX_CONTEXT_EDGES = 150;

export function buildDiffGraph({ base, diff }: { base: KnowledgeGraph; diff: GraphDiff }): DiffGraph {
  const nodes = new Map<string, DiffGraphNode>();
  const edges = new Map<string, DiffGraphEdge>();
  const put = (id: string, status: DiffStatus, extra: Partial<DiffGraphNode> = {}) => {
    const existing = nodes.get(id);
    if (existing && existing.status !== "context") return;
    const node = base.getNode(id);
    nodes.set(id, { id, label: node?.label ?? id, community: node?.community ?? null, status, ...extra });
  };
  for (const n of diff.addedNodes) put(n.id, "added", { label: n.label, community: n.community });
  for (const n of diff.removedNodes) put(n.id, "removed");
  for (const m of diff.mergedNodes) {
    put(m.from.id, "merged", { mergedInto: m.into.id });
    put(m.into.id, "changed", { previousLabel: m.into.label });
  }
  for (const c of diff.changedNodes) put(c.after.id, "changed", { label: c.after.label, previousLabel: c.before.label !== c.after.label ? c.before.label : undefined });
  const endpoint = (id: string, label: string) => {
    if (!nodes.has(id)) nodes.set(id, { id, label, community: base.getNode(id)?.community ?? null, status: "context" });
  };
  for (const e of diff.addedEdges) {
    endpoint(e.subject_id, e.subject);
    endpoint(e.object_id, e.object);
    edges.set(e.key, { id: e.key, source: e.subject_id, target: e.object_id, relation: e.relation, status: "added" });
  }
  for (const e of diff.removedEdges) {
    endpoint(e.subject_id, e.subject);
    endpoint(e.object_id, e.object);
    edges.set(e.key, { id: e.key, source: e.subject_id, target: e.object_id, relation: e.relation, status: "removed" });
  }
  for (const c of diff.changedEdges) {
    endpoint(c.after.subject_id, c.after.subject);
    endpoint(c.after.object_id, c.after.object);
    endpoint(c.before.subject_id, c.before.subject);
    endpoint(c.before.object_id, c.before.object);
    edges.set(c.after.key, {
      id: c.after.key,
      source: c.after.subject_id,
      target: c.after.object_id,
      relation: c.after.relation,
      status: "changed",
      previous: { source: c.before.subject_id, target: c.before.object_id, relation: c.before.relation },
    });
  }
  // Faded context: a few existing edges around each touched node, so the change has a place.
  let truncated = false;
  let added = 0;
  // Touched = changed nodes and the endpoints of changed edges (all that is in the map so far).
  const touched = [...nodes.keys()];
  for (const id of touched) {
    let perNode = 0;
    for (const e of base.incidentEdges(id)) {
      if (edges.has(e.key)) continue;
      if (perNode >= CONTEXT_EDGES_PER_NODE || added >= MAX_CONTEXT_EDGES) {
        truncated = true;
        break;
      }
      for (const end of [e.source, e.target]) endpoint(end, base.getNode(end)?.label ?? end);
      edges.set(e.key, { id: e.key, source: e.source, target: e.target, relation: e.relation, status: "context" });
      perNode++;
      added++;
    }
  }
  return { nodes: [...nodes.values()], edges: [...edges.values()], truncated };
}
