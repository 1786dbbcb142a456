/**
 * The JSON of the question-queue, run and provider endpoints, as the browser sees it: the
 * server's own types (type-only imports vanish from the browser bundle, so nothing of the
 * server layer ships), plus the few shapes only the browser needs.
 */
import type { RunStatus } from "@/lib/loop/types";
import type { AddQuestionsResult } from "@/lib/server/runs/questions";

export type { LlmCallRecord, LoopConfig, RefinementAction, RetrievalMethod, RunStatus, StepRecord } from "@/lib/loop/types";
export type { Triple as RunTriple } from "@/lib/graph/model";
export type { RunDetails, RunSummary } from "@/lib/server/runs/runs";
export type { AddQuestionsResult, QuestionItem } from "@/lib/server/runs/questions";
export type { LaunchedRuns } from "@/lib/server/runs/run-launcher";

/** `status` event of GET /api/runs/{id}/events. */
export interface RunStatusEvent {
  status: RunStatus;
  steps: number;
  error: string | null;
}

export interface SyncMemoryResult extends AddQuestionsResult {
  files: number;
  unreadable: string[];
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
