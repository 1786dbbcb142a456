/**
 * The JSON of the question-queue, run and provider endpoints, as the browser sees it (copied
 * from lib/loop/types.ts, lib/server/runs.ts and lib/server/questions.ts: components may not
 * import lib/server). The run page assigns a server RunDetails to this RunDetails, so the
 * compiler notices when the two drift apart.
 */
export type RunStatus = "running" | "early_exit" | "awaiting_review" | "finished" | "failed" | "interrupted";

export type RetrievalMethod = "graphify_query" | "k_hop_expansion" | "graphify_query+k_hop_expansion";

export interface LoopConfig {
  maxHops: number;
  incrementHop: number;
  baseTopK: number;
  maxTripleNumByStep: number[];
  historyHorizon: number;
  maxActions: number;
  refineAfterFinalYes: boolean;
  formatRetries: number;
}

export interface RunTriple {
  subject: string;
  relation: string;
  object: string;
  subject_id: string;
  object_id: string;
}

export interface StepRecord {
  step: number;
  query: string;
  numHops: number;
  baseTopK: number;
  cap: number;
  retrieval: { method: RetrievalMethod; evidence: string };
  triples: RunTriple[];
  edgeKeys: string[];
  answerable: boolean;
  judgementRaw: string;
  timings: { retrievalMs: number; judgeMs: number };
}

export type RefinementAction =
  | { type: "insert_edge"; subject: string; relation: string; object: string }
  | { type: "delete_edge"; subject: string; relation: string; object: string }
  | { type: "replace_node"; old: string; new: string };

export interface LlmCallRecord {
  task: "judge" | "abduction" | "refinement";
  step: number | null;
  attempt: number;
  raw: string;
  latencyMs: number;
  usage?: { promptTokens: number; completionTokens: number; totalTokens: number };
  error?: string;
}

export interface RunSummary {
  id: string;
  graph: string;
  queryId: string;
  question: string;
  graphVersion: number;
  provider: string;
  model: string;
  isLlm: boolean;
  status: RunStatus;
  error: string | null;
  earlyExit: boolean;
  steps: number;
  actions: number;
  createdAt: string;
  finishedAt: string | null;
}

export interface RunDetails extends RunSummary {
  config: LoopConfig;
  stepRecords: StepRecord[];
  abductionRaw: string | null;
  abduction: string | null;
  refinementRaw: string | null;
  actionList: RefinementAction[];
  actionWarnings: string[];
  calls: LlmCallRecord[];
}

/** `status` event of GET /api/runs/{id}/events. */
export interface RunStatusEvent {
  status: RunStatus;
  steps: number;
  error: string | null;
}

export interface QuestionItem {
  pk: number;
  queryId: string;
  text: string;
  source: string;
  answers: string[] | null;
  refined: boolean;
  ord: number;
  createdAt: string;
}

export interface AddQuestionsResult {
  added: QuestionItem[];
  existing: QuestionItem[];
}

export interface SyncMemoryResult extends AddQuestionsResult {
  files: number;
  unreadable: string[];
}

export interface LaunchedRuns {
  runId: string | null;
  queued: string[];
}

export interface ProviderInfo {
  provider: string;
  model: string | null;
  baseUrl: string | null;
  hasApiKey: boolean;
  isLlm: boolean;
}

export const TERMINAL_STATUSES: ReadonlySet<RunStatus> = new Set(["early_exit", "awaiting_review", "finished", "failed", "interrupted"]);

export function isRunning(run: { status: RunStatus }): boolean {
  return !TERMINAL_STATUSES.has(run.status);
}
