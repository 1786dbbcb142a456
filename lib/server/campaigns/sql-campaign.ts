/**
 * Campaigns on graphs retrieved through SQL (issue #17 item 4): over `REFINERY_SQL_RETRIEVAL_EDGES`
 * on PostgreSQL no instance loads the campaign's base version. A sandbox is only its changeset
 * (lib/campaign/campaign-sandboxes.ts); whatever reads it runs on a SandboxGraph laid over a
 * partial graph of the base version, fetched with SQL until the read misses nothing:
 *
 *   planning, scoring   settleOnSql (graphs/partial-version.ts, as a commit plans and checks):
 *                       the changeset's nodes and edges prefetched, the rest fetched as read;
 *   a new sandbox       findConflicts of the whole changeset, the same way (CONFLICT as in memory);
 *   the hop loop        SQL retrieval with the sandbox as an overlay of each round's partial graph
 *                       (createSqlLoopRetrieval): deleted edges are gone from what it reads,
 *                       inserted edges and nodes are found when their endpoints or names are
 *                       reached, replaced nodes read as the replacement; the retrieval index and
 *                       relation ranker take the version's figures patched by the changeset
 *                       (lib/campaign/sandbox-statistics.ts);
 *   Ask                 sqlSettleGraph with the same overlay (asks/asks.ts does it without);
 *   the review          reviewed as a run's actions are over SQL (proposals/sql-review.ts): a
 *                       neighbourhood of the actions, here with the sandbox laid over it, no mined
 *                       rules (RULES_NOT_MINED), labels resting only on neighbourhood statistics
 *                       lowered to LOW.
 *
 * Equal to the campaign in memory (sql-campaign.test.ts) wherever the parts are: retrieval, the
 * heuristic judge, Ask with the heuristic planner, planning and the score. Not equal:
 *   - the review, by design: no mined rules (path rules, signatures, functional relations), so
 *     the claim-evidence gate lets fewer actions through — an action supported in memory only by
 *     a mined rule needs evidence here, and the campaign may stop earlier (NOTHING_TO_FIX);
 *   - a provider that reads beyond the retrieved triples' neighbourhood (the heuristic
 *     abduction and refinement: see runs/sql-run-graph.ts) sees the partial graph only, and may
 *     propose other actions;
 *   - the figures sandbox-statistics.ts leaves unpatched (the hub degree; `context` kinds of
 *     removed edges), and planActions' whole-graph exemplars when the changeset removes the
 *     version's first edge or its only node with a community.
 */
import type { AskTrace } from "../../ask/types";
import { runAsk } from "../../ask/run-ask";
import type { CampaignSandbox, CampaignSandboxes } from "../../campaign/campaign-sandboxes";
import type { CampaignRunner } from "../../campaign/run-campaign";
import { SandboxGraph } from "../../campaign/sandbox-graph";
import { sandboxFigures } from "../../campaign/sandbox-statistics";
import type { Changeset } from "../../changes/changeset";
import { findConflicts } from "../../changes/changeset";
import { AppError } from "../../errors";
import type { KnowledgeGraph, Triple } from "../../graph/model";
import type { CorpusDocument } from "../../import/corpus";
import { documentIdsForTriples } from "../../loop/prompts";
import { runHopLoop } from "../../loop/run-hop-loop";
import type { LlmProvider, LoopConfig } from "../../loop/types";
import { queryIdOf } from "../../questions/query-id";
import { setWholeGraphStatistics } from "../../retrieve/query-graph";
import { configureRelationRanker } from "../../retrieve/rank-relations";
import { reviewActions } from "../../review/review-actions";
import type { LabelThresholds } from "../../review/types";
import type { SqlOverlay, SqlRunGraph } from "../graphs";
import { createSqlLoopRetrieval, settleOnSql, sqlSettleGraph } from "../graphs";
import { reviewOverSql } from "../proposals";

/** A sandbox of a version that is not in memory: its changes over the base version. */
export interface SqlSandbox extends CampaignSandbox {
  readonly sql: true;
}

/** The sandbox of `changeset` laid over a partial graph of the base version, with the version's figures patched by it. */
function sandboxOverlay(changeset: Changeset): SqlOverlay {
  return (part, whole) => {
    const sandbox = new SandboxGraph(part, changeset, { checked: true });
    const figures = sandboxFigures({ sandbox, base: part, changeset, figures: whole });
    setWholeGraphStatistics(sandbox, figures.statistics);
    configureRelationRanker(sandbox, figures.ranking);
    return sandbox;
  };
}

export function createSqlSandboxes(sql: SqlRunGraph): CampaignSandboxes<SqlSandbox> {
  const { source } = sql;
  return {
    async create(changeset, previous) {
      const ops = [...(previous?.changeset.ops ?? []), ...changeset.ops];
      if (ops.length > 0) {
        const whole = { ops };
        const { result: conflicts } = await settleOnSql(source, (graph) => findConflicts(graph, whole), (rows) => rows.fetchChangeset(whole));
        if (conflicts.length > 0) throw new AppError("CONFLICT", `the sandbox changes do not apply to the live graph: ${conflicts.map((c) => c.message).join("; ")}`);
      }
      return { sql: true, changeset: { ops } };
    },
    async read(sandbox, run) {
      const settled = await settleOnSql(source, (graph) => run(new SandboxGraph(graph, sandbox.changeset, { checked: true }), graph), (rows) => rows.fetchChangeset(sandbox.changeset));
      return settled.result;
    },
  };
}

export interface SqlCampaignRunnerOptions {
  sql: SqlRunGraph;
  provider: LlmProvider;
  documents: readonly CorpusDocument[];
  loopConfig: LoopConfig;
  labelThresholds?: LabelThresholds;
}

/** create-campaign-runner.ts's loop, Ask and review, on sandboxes read through SQL. */
export function createSqlCampaignRunner({ sql, provider, documents, loopConfig, labelThresholds }: SqlCampaignRunnerOptions): CampaignRunner<SqlSandbox> {
  const byId = new Map(documents.map((d) => [d.docId, d]));
  /** `model` null: the heuristic planner. */
  const ask = (graph: KnowledgeGraph, question: string, signal: AbortSignal | undefined, model: LlmProvider | null): Promise<AskTrace> =>
    runAsk({ graph, question, ...(model ? { provider: model } : {}), documents, signal });
  return {
    maxHops: loopConfig.maxHops,
    async runLoop({ graph: sandbox, question, signal }) {
      const retrieval = createSqlLoopRetrieval(sql.source, sandboxOverlay(sandbox.changeset));
      const loadDocuments = async (triples: Triple[]) =>
        documentIdsForTriples({ graph: retrieval.lastGraph(), triples })
          .map((id) => byId.get(id))
          .filter((d): d is CorpusDocument => d !== undefined);
      return runHopLoop({ graph: retrieval.lastGraph(), retrieval, question: question.question, provider, config: loopConfig, queryId: queryIdOf(question.question), loadDocuments, signal });
    },
    async ask({ graph: sandbox, question, signal }) {
      const overlay = sandboxOverlay(sandbox.changeset);
      if (!provider.isLlm) return (await sqlSettleGraph(sql.source, question.question, (graph) => ask(graph, question.question, signal, provider), overlay)).result;
      // A model is asked once: on the graph the heuristic plan of the same question settles on (as asks.ts does).
      const settled = await sqlSettleGraph(sql.source, question.question, (graph) => ask(graph, question.question, signal, null), overlay);
      return ask(settled.graph, question.question, signal, provider);
    },
    async review({ graph: sandbox, actions, retrieved }) {
      const overlay = (graph: KnowledgeGraph) => new SandboxGraph(graph, sandbox.changeset, { checked: true });
      return reviewOverSql(sql, { graph: sql.name, actions, retrieved }, async ({ neighbourhood }) =>
        reviewActions({ graph: overlay(neighbourhood.graph), actions, documents: byId, retrieved, rules: null, thresholds: labelThresholds }),
      );
    },
  };
}
