/**
 * The campaign's loop / Ask / review in-process, on whatever graph (sandbox) they are given:
 * the hop loop with the campaign's provider, Ask with the same provider (the heuristic
 * planner when it is not an LLM), and the review with the graph's documents and rules. The
 * server builds one with the graph's stored documents and its mined rules; the CLI and tests
 * with a bundle's. Rules are mined on the live version: a campaign changes little of it.
 */
import { runAsk } from "../ask/run-ask";
import type { AskModel } from "../ask/types";
import type { KnowledgeGraph, Triple } from "../graph/model";
import type { CorpusDocument } from "../import/corpus";
import { documentIdsForTriples } from "../loop/prompts";
import { runHopLoop } from "../loop/run-hop-loop";
import type { LlmProvider, LoopConfig } from "../loop/types";
import { DEFAULT_LOOP_CONFIG } from "../loop/types";
import { queryIdOf } from "../questions/query-id";
import type { MinedGraphRules } from "../review/mine-graph-rules";
import { reviewActions } from "../review/review-actions";
import type { ActionReview, LabelThresholds } from "../review/types";
import type { CampaignRunner } from "./run-campaign";

export interface CreateCampaignRunnerOptions {
  provider: LlmProvider;
  documents?: readonly CorpusDocument[];
  loopConfig?: LoopConfig;
  /** Mined rules of the live version; a promise lets scoring start while they are still being mined (only reviews wait). */
  rules?: MinedGraphRules | null | Promise<MinedGraphRules | null>;
  labelThresholds?: LabelThresholds;
  /** Score answer accuracy with Ask for questions with gold answers (default true). */
  ask?: boolean;
  /** Ask's model (default: `provider`; one with isLlm false means the heuristic planner). */
  askProvider?: AskModel;
  /** Re-verify reviews (the server passes its LLM verification); identity by default. */
  verify?: (args: { graph: KnowledgeGraph; reviews: ActionReview[]; documents: ReadonlyMap<string, CorpusDocument> }) => Promise<ActionReview[]>;
}

export function createCampaignRunner({ provider, documents = [], loopConfig = DEFAULT_LOOP_CONFIG, rules, labelThresholds, ask = true, askProvider = provider, verify }: CreateCampaignRunnerOptions): CampaignRunner {
  const byId = new Map(documents.map((d) => [d.docId, d]));
  const loadDocuments = (graph: KnowledgeGraph) => async (triples: Triple[]) =>
    documentIdsForTriples({ graph, triples })
      .map((id) => byId.get(id))
      .filter((d): d is CorpusDocument => d !== undefined);
  return {
    maxHops: loopConfig.maxHops,
    runLoop: ({ graph, question, signal }) => runHopLoop({ graph, question: question.question, provider, config: loopConfig, queryId: queryIdOf(question.question), loadDocuments: loadDocuments(graph), signal }),
    ...(ask ? { ask: ({ graph, question, signal }) => runAsk({ graph, question: question.question, provider: askProvider, documents, signal }) } : {}),
    review: async ({ graph, actions, retrieved }) => {
      const reviews = reviewActions({ graph, actions, documents: byId, retrieved, rules: await rules, thresholds: labelThresholds });
      return verify ? verify({ graph, reviews, documents: byId }) : reviews;
    },
  };
}
