/**
 * Shared types of the refinement loop (DeepRefine seed 000): configuration, step records,
 * the provider interface every LLM backend implements, and the run trace that is persisted.
 */
import type { KnowledgeGraph, Triple } from "../graph/model";
import type { CorpusDocument } from "../import/corpus";
import type { ExpandHopsOptions, ExpandHopsResult } from "../retrieve/expand-hops";
import type { QueryGraphOptions, QueryGraphResult } from "../retrieve/query-graph";

export interface LoopConfig {
  maxHops: number;
  incrementHop: number;
  baseTopK: number;
  /** Triple cap per step: step k uses maxTripleNumByStep[k-1]. */
  maxTripleNumByStep: number[];
  historyHorizon: number;
  maxActions: number;
  /** Refine even when the last step said Yes (the skill does; the newer research code does not). */
  refineAfterFinalYes: boolean;
  /** Corrective retries when the model's output misses the required tag. */
  formatRetries: number;
}

export const DEFAULT_LOOP_CONFIG: LoopConfig = Object.freeze({
  maxHops: 4,
  incrementHop: 1,
  baseTopK: 10,
  maxTripleNumByStep: [5, 10, 15, 20],
  historyHorizon: 4,
  maxActions: 10,
  refineAfterFinalYes: true,
  formatRetries: 2,
});

export type RetrievalMethod = "graphify_query" | "graph_rft_plan" | "k_hop_expansion" | "graphify_query+k_hop_expansion";

/** How step 1 retrieves: the keyword query, or the subgraph of an Ask plan (Graph-RFT, issue #11). */
export type Step1Retrieval = "graphify_query" | "graph_rft_plan";

export const STEP1_RETRIEVALS: readonly Step1Retrieval[] = ["graphify_query", "graph_rft_plan"];

/**
 * Planned retrieval for step 1 (`graph_rft_plan`): the triples an Ask plan used, most useful
 * first, and a line saying how they were found. Injected by the caller, so the loop does not
 * depend on how asks are executed (or on a provider of its own).
 */
export type PlanRetrieval = (args: { question: string; graph: KnowledgeGraph; signal?: AbortSignal }) => Promise<{ triples: Triple[]; evidence: string }>;

/**
 * How the loop retrieves (default: `queryGraph` / `expandHops` on the run's graph in memory).
 * Injected for graphs not held in memory (SQL retrieval on PostgreSQL, issue #17): each call
 * returns the same result the in-memory functions give and a graph holding at least every node
 * and edge of it and what the heuristic provider reads about the question; the loop hands that
 * graph to the steps after it (formatting, judge, abduction, refinement).
 */
export interface LoopRetrieval {
  query(options: Omit<QueryGraphOptions, "graph">): Promise<{ result: QueryGraphResult; graph: KnowledgeGraph }>;
  expand(options: Omit<ExpandHopsOptions, "graph">): Promise<{ result: ExpandHopsResult; graph: KnowledgeGraph }>;
}

export interface StepRecord {
  step: number;
  query: string;
  numHops: number;
  baseTopK: number;
  cap: number;
  retrieval: { method: RetrievalMethod; evidence: string };
  triples: Triple[];
  /** Graph edge keys behind `triples`, same order. */
  edgeKeys: string[];
  answerable: boolean;
  judgementRaw: string;
  timings: { retrievalMs: number; judgeMs: number };
}

export type RefinementAction =
  | { type: "insert_edge"; subject: string; relation: string; object: string }
  | { type: "delete_edge"; subject: string; relation: string; object: string }
  | { type: "replace_node"; old: string; new: string };

export type LoopTask = "judge" | "abduction" | "refinement";

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/** What a provider gets for each call: the prompt messages (for LLMs) and the same facts, structured (for the heuristic). */
export type TaskContext =
  | { task: "judge"; question: string; step: number; triples: Triple[]; graph: KnowledgeGraph }
  | { task: "abduction"; question: string; history: StepRecord[]; graph: KnowledgeGraph }
  | {
      task: "refinement";
      question: string;
      triples: Triple[];
      abduction: string;
      originalText: string;
      documents: CorpusDocument[];
      graph: KnowledgeGraph;
      maxActions: number;
    };

export interface CompletionRequest {
  task: LoopTask;
  messages: ChatMessage[];
  context: TaskContext;
  signal?: AbortSignal;
}

export interface CompletionResult {
  text: string;
  usage?: TokenUsage;
  /** Model name the server reported, if any. */
  model?: string;
}

export interface LlmProvider {
  readonly name: "heuristic" | "openai" | "replay";
  readonly model: string;
  /** False for the heuristic provider: the UI and every trace say it is not an LLM. */
  readonly isLlm: boolean;
  complete(request: CompletionRequest): Promise<CompletionResult>;
}

export interface LlmCallRecord {
  task: LoopTask;
  step: number | null;
  attempt: number;
  raw: string;
  latencyMs: number;
  usage?: TokenUsage;
  error?: string;
}

export type RunStatus = "running" | "early_exit" | "awaiting_review" | "finished" | "failed" | "interrupted";

export interface RunTrace {
  question: string;
  queryId: string;
  provider: { name: LlmProvider["name"]; model: string; isLlm: boolean };
  config: LoopConfig;
  steps: StepRecord[];
  earlyExit: boolean;
  abductionRaw: string | null;
  abduction: string | null;
  refinementRaw: string | null;
  actions: RefinementAction[];
  /** Parse problems of individual actions (skipped), e.g. wrong arity or unknown verb. */
  actionWarnings: string[];
  status: RunStatus;
  error: string | null;
  calls: LlmCallRecord[];
}

/** Progress events, in order, for persistence and live streaming. */
export type LoopEvent =
  | { type: "step_started"; step: number; cap: number }
  | { type: "step_finished"; step: StepRecord }
  | { type: "llm_call"; call: LlmCallRecord }
  | { type: "abduction"; raw: string; abduction: string }
  | { type: "refinement"; raw: string; actions: RefinementAction[]; warnings: string[] }
  | { type: "finished"; trace: RunTrace };
