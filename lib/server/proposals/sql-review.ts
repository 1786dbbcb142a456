/**
 * The review of proposed actions (a run's, an API or CLI proposal's, an edit's) over
 * `REFINERY_SQL_RETRIEVAL_EDGES` on PostgreSQL (issue #17 item 4): `reviewForGraph`
 * (proposals.ts) calls this, and it reviews against a neighbourhood of the
 * actions fetched with SQL (graphs/sql-run-neighbourhood.ts: the names' nodes, every edge of
 * each endpoint, the edges between their neighbours, so paths of length ≤ 3; under caps).
 *
 * Mined rules (path rules, neighbour and embedding predictors) need the whole graph, so a
 * neighbourhood review has none, and says so on every action (warning RULES_NOT_MINED). What
 * the neighbourhood cannot tell is never evidence: the relation's usual kinds and functionality
 * are counted over the neighbourhood only, so a label above LOW that rests on nothing else is
 * set LOW with the reason. Labels are only ever lowered here.
 */
import type { ReviewInput } from "../../review/review-actions";
import type { ActionReview, ScoreSignal } from "../../review/types";
import type { KnowledgeGraph, Triple } from "../../graph/model";
import type { SqlRunGraph } from "../graphs";
import { sqlReviewNeighbourhood } from "../graphs";

export interface ReviewOverSqlOptions {
  graph: string;
  actions: readonly ReviewInput[];
  retrieved?: Triple[];
  rulesWaitMs?: number;
}

/** proposals.ts `reviewForGraph` against a given neighbourhood (passed in: no import circle). */
export type ReviewAgainst = (options: ReviewOverSqlOptions & { neighbourhood: { graphId: string; version: number; graph: KnowledgeGraph } }) => Promise<ActionReview[]>;

/** Signal kinds a neighbourhood counts from part of the graph: no evidence on their own there. */
const WHOLE_GRAPH_KINDS: ReadonlySet<ScoreSignal["kind"]> = new Set(["signature", "functional", "disjoint", "rule"]);

function namesOf(actions: readonly ReviewInput[]): string[] {
  const names: string[] = [];
  for (const item of actions) {
    if ("type" in item && item.type === "replace_node") names.push(item.old, item.new);
    else if ("type" in item && (item.type === "insert_edge" || item.type === "delete_edge")) names.push(item.subject, item.object);
  }
  return names;
}

export async function reviewOverSql(sql: SqlRunGraph, options: ReviewOverSqlOptions, reviewForGraph: ReviewAgainst): Promise<ActionReview[]> {
  const ids = new Set<string>();
  for (const t of options.retrieved ?? []) ids.add(t.subject_id).add(t.object_id);
  const around = await sqlReviewNeighbourhood(sql.source, { names: namesOf(options.actions), ids: [...ids] });
  const reviews = await reviewForGraph({ ...options, neighbourhood: { graphId: sql.source.graphId, version: sql.source.version, graph: around.graph } });
  const scope =
    `rules not mined for graphs over ${sql.threshold.toLocaleString("en-US")} edges (this version: ${sql.edgeCount.toLocaleString("en-US")}); ` +
    `reviewed from the actions' neighbourhood (${around.graph.nodes.size.toLocaleString("en-US")} nodes, ${around.graph.edges.size.toLocaleString("en-US")} edges: every edge of the named nodes, paths of length ≤ 3)` +
    (around.capped.length > 0 ? `; capped: ${around.capped.slice(0, 3).join("; ")}${around.capped.length > 3 ? "; …" : ""}` : "");
  return reviews.map((review) => {
    const warnings = [...review.warnings, { code: "RULES_NOT_MINED" as const, message: scope }];
    if (review.confidence === "LOW") return { ...review, warnings };
    const evidence = (review.signals ?? []).filter((s) => (s.positive || s.strong) && !WHOLE_GRAPH_KINDS.has(s.kind));
    if (evidence.length > 0) return { ...review, warnings };
    return {
      ...review,
      confidence: "LOW" as const,
      warnings,
      reasons: [
        ...review.reasons,
        `LOW: was ${review.confidence}, but on this graph its only evidence is the relation's usual kinds or functionality, counted in the neighbourhood and not the whole graph: no evidence left`,
      ],
    };
  });
}
