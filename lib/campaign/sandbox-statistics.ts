/**
 * The whole-graph figures of a sandbox whose base is a partial graph of a stored version (SQL
 * retrieval on the server): the version's figures — node count, relations with their edge and
 * numeric-object counts, edge kinds, hub degree — patched by the sandbox's changeset, as the
 * retrieval index and the relation ranker count them over a whole sandbox in memory.
 *
 * Exact: the node count, the relations and their counts (the changed edges counted out and in,
 * the other incoming edges of a node relabelled to or from a number recounted, as
 * rank-relations.ts advances its counts), and the relations among the edge kinds. Not patched:
 * the hub degree (the base version's 99th percentile: a few changed edges move it only on a
 * graph whose percentile sits at their nodes' degree) and the `context` strings among the edge
 * kinds (a context whose last edge the changeset removes stays a kind; added ones are added).
 *
 * Reads go through the graphs' lookups, so a partial base records what it lacks.
 */
import type { Changeset } from "../changes/changeset";
import type { KnowledgeGraph } from "../graph/model";
import type { WholeGraphStatistics } from "../retrieve/query-graph";
import type { RelationRankerOptions, RelationStatistics } from "../retrieve/rank-relations";
import { NUMERIC_OBJECT } from "../retrieve/rank-relations";

export interface WholeGraphFigures {
  statistics: WholeGraphStatistics;
  /** The ranker's options with the version's relation statistics. */
  ranking: RelationRankerOptions & { statistics: ReadonlyMap<string, RelationStatistics> };
}

function isNumeric(graph: KnowledgeGraph, id: string): boolean {
  return NUMERIC_OBJECT.test((graph.getNode(id)?.label ?? id).trim());
}

export function sandboxFigures({ sandbox, base, changeset, figures }: { sandbox: KnowledgeGraph; base: KnowledgeGraph; changeset: Changeset; figures: WholeGraphFigures }): WholeGraphFigures {
  if (changeset.ops.length === 0) return figures;
  let nodeCount = figures.statistics.nodeCount;
  /** The base state of each changed edge (null: not in the base), from its first op. */
  const before = new Map<string, { relation: string; target: string } | null>();
  const nodes = new Set<string>();
  for (const op of changeset.ops) {
    if (op.op === "add_node") nodeCount++;
    else if (op.op === "remove_node") nodeCount--;
    if (op.op === "add_node" || op.op === "remove_node") nodes.add(op.node.id);
    else if (op.op === "update_node") nodes.add(op.before.id);
    else if (op.op === "add_edge") {
      if (!before.has(op.edge.key)) before.set(op.edge.key, null);
    } else if (op.op === "remove_edge") {
      if (!before.has(op.edge.key)) before.set(op.edge.key, op.edge);
    } else if (!before.has(op.before.key)) before.set(op.before.key, op.before);
  }
  const counts = new Map(figures.ranking.statistics);
  const bump = (relation: string, n: number, numeric: number) => {
    const s = counts.get(relation) ?? { n: 0, numeric: 0 };
    const next = { n: s.n + n, numeric: s.numeric + numeric };
    if (next.n <= 0) counts.delete(relation);
    else counts.set(relation, next);
  };
  const kinds = new Set(figures.statistics.edgeKinds);
  for (const [key, was] of before) {
    if (was) bump(was.relation, -1, isNumeric(base, was.target) ? -1 : 0);
    const now = sandbox.edges.get(key);
    if (now) {
      bump(now.relation, 1, isNumeric(sandbox, now.target) ? 1 : 0);
      const context = now.attrs.context;
      if (typeof context === "string") kinds.add(context);
    }
  }
  for (const id of nodes) {
    const was = isNumeric(base, id);
    const is = isNumeric(sandbox, id);
    if (was === is || !sandbox.getNode(id)) continue;
    for (const e of sandbox.inEdges(id)) if (!before.has(e.key)) bump(e.relation, 0, is ? 1 : -1);
  }
  for (const relation of figures.ranking.statistics.keys()) if (!counts.has(relation)) kinds.delete(relation);
  for (const relation of counts.keys()) kinds.add(relation);
  const relations = [...figures.statistics.relations.filter((r) => counts.has(r)), ...[...counts.keys()].filter((r) => !figures.ranking.statistics.has(r))];
  return {
    statistics: { ...figures.statistics, nodeCount, edgeKinds: kinds, relations },
    ranking: { ...figures.ranking, statistics: counts },
  };
}
