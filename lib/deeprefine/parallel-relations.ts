/**
 * The skill's `--refresh-wiki` rule: graphify's wiki shows one edge per endpoint pair, so an
 * apply that would give an already-linked pair a second, parallel edge is refused rather than
 * silently hidden in the wiki. Checked on the plan (new and rewired edges), before anything is
 * written.
 */
import type { Changeset } from "../changes/changeset";
import type { KnowledgeGraph } from "../graph/model";

export interface ParallelRelation {
  subject: string;
  relation: string;
  object: string;
  subject_id: string;
  object_id: string;
  /** Relations that already link the pair (either direction) and stay after the apply. */
  existing: string[];
}

function connects(e: { source: string; target: string }, a: string, b: string): boolean {
  return (e.source === a && e.target === b) || (e.source === b && e.target === a);
}

/**
 * Edges the changeset adds (or rewires onto a new pair) whose endpoint pair was already linked
 * in `before` by an edge that survives in `after`.
 */
export function findParallelRelations({ before, after, changeset }: { before: KnowledgeGraph; after: KnowledgeGraph; changeset: Changeset }): ParallelRelation[] {
  const found: ParallelRelation[] = [];
  for (const op of changeset.ops) {
    let edge: { key: string; source: string; target: string; relation: string };
    if (op.op === "add_edge") edge = op.edge;
    else if (op.op === "update_edge" && !connects(op.before, op.after.source, op.after.target)) edge = op.after;
    else continue;
    if (!after.edges.has(edge.key)) continue;
    const existing = after
      .incidentEdges(edge.source)
      .filter((e) => e.key !== edge.key && connects(e, edge.source, edge.target))
      .filter((e) => {
        const old = before.edges.get(e.key);
        return old !== undefined && connects(old, edge.source, edge.target);
      });
    if (existing.length === 0) continue;
    found.push({
      subject: after.getNode(edge.source)?.label ?? edge.source,
      relation: edge.relation,
      object: after.getNode(edge.target)?.label ?? edge.target,
      subject_id: edge.source,
      object_id: edge.target,
      existing: [...new Set(existing.map((e) => e.relation))],
    });
  }
  return found;
}
