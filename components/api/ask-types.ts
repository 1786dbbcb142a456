/**
 * The Ask API's shapes as the browser sees them (lib/server/asks.ts answers them; the page
 * assigns the server's value to these types, so the compiler checks they agree).
 */
import type { AskAnswer, AskTrace } from "@/lib/ask/types";

export type { AskAnswer, AskPassage, AskToolCall, AskTrace, PlanStep } from "@/lib/ask/types";

export type AskRowStatus = "running" | AskTrace["status"] | "interrupted";

export interface AskSummary {
  id: string;
  graph: string;
  question: string;
  graphVersion: number;
  provider: string;
  model: string;
  isLlm: boolean;
  status: AskRowStatus;
  answers: AskAnswer[];
  error: string | null;
  totalMs: number | null;
  proposalId: string | null;
  startedByName: string | null;
  createdAt: string;
  finishedAt: string | null;
}

export interface AskDetails extends AskSummary {
  trace: AskTrace | null;
}

export interface AskAgainResult {
  proposalId: string;
  graph: string;
  question: string;
  before: AskDetails;
  after: AskDetails;
  changed: boolean;
  added: string[];
  removed: string[];
}

export interface RunStepAnswer {
  runId: string;
  step: number;
  method: "heuristic_ask_over_step_triples";
  trace: AskTrace;
}

export type Step1Retrieval = "graphify_query" | "graph_rft_plan";

export interface LoopSettings {
  graph: string;
  step1Retrieval: Step1Retrieval;
}
