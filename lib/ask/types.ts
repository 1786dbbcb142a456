/**
 * Ask the graph (Graph-RFT, seed 002; issue #11): the trace of one ask, shared by the pure
 * executor (lib/ask), the server that stores asks (lib/server), the API, the CLI and the page.
 *
 * CONTRACT: the server stores `AskTrace` as JSON and the page draws it. Extend additively.
 */
import type { Triple } from "../graph/model";
import type { ChatMessage, CompletionResult } from "../loop/types";

/** A member of an answer set: a graph node, or (id null) a name found only in text. */
export interface AskEntity {
  id: string | null;
  label: string;
}

/** `h` of a SearchKG sub-problem: a named entity, or the answer set of an earlier sub-problem. */
export type PlanHead = { entity: string } | { ref: string };

export type PlanStep =
  /** Ans_i = SearchKG(t=target_type | h=entity or Ans_j, r=relation) */
  | { id: string; op: "search"; targetType: string; head: PlanHead; relation: string }
  /** Ans_i = Intersect(Ans_a, Ans_b, …) / Union(…) */
  | { id: string; op: "intersect" | "union"; args: string[] }
  /** Ans_i = Negation(main, Ans_b, …): main minus the others */
  | { id: string; op: "negation"; main: string; args: string[] };

export type AskToolName = "relation_search" | "neighbor_search" | "web_search";

/** One tool call and what it returned, in order. */
export interface AskToolCall {
  /** 1-based position in the trace. */
  n: number;
  tool: AskToolName;
  /** The arguments as the model wrote them (h, r) or the query for web_search. */
  input: { head?: string; relation?: string; query?: string };
  /** The plan step it serves, when known ("Ans1"). */
  planStep?: string | null;
  /** The text returned inside <relation_information> / <neighbor_information> / <web_information>. */
  output: string;
  /** Structured result for the UI. */
  relations?: Array<{ relation: string; score: number }>;
  /** Neighbour entities (graph node ids and labels) and the triples behind them. */
  entities?: Array<{ id: string; label: string }>;
  triples?: Triple[];
  /** Corpus passages / source files found by web_search (the graph's own corpus first). */
  passages?: AskPassage[];
  ms: number;
  /** Why the tool returned nothing useful (unknown entity, unknown step, no corpus…); absent when it worked. */
  error?: string;
}

export interface AskPassage {
  docId: string;
  title: string | null;
  /** The quoted sentence(s), verbatim. */
  quote: string;
  score: number;
  /** "corpus" (the graph's own passages / files) or "web" (a configured web search). */
  origin: "corpus" | "web";
  /** Web results: the page address. */
  url?: string;
}

export interface AskAnswer {
  label: string;
  /** Graph node id, null when the answer came from text only. */
  id: string | null;
  score: number;
  /** How it was found: "graph" (a plan chain), "corpus" (a passage), "model" (the model's own words). */
  via: "graph" | "corpus" | "model";
  /** What states it: the triples of the chain that reached it, or the passage quoted. */
  evidence?: { triples?: Triple[]; passage?: { docId: string; quote: string } };
}

export type AskStatus = "answered" | "no_answer" | "failed";

export interface AskTrace {
  question: string;
  graph: string;
  version: number;
  provider: string;
  model: string;
  status: AskStatus;
  /** Best first. */
  answers: AskAnswer[];
  /** The model's final <answer> text (or the heuristic's). */
  answerText: string;
  think: string;
  /** The <plan> as written, and parsed. */
  planText: string;
  plan: PlanStep[];
  /** Answer sets per plan step id, after execution. */
  stepAnswers: Record<string, Array<{ id: string | null; label: string }>>;
  calls: AskToolCall[];
  /** Every triple used, for the subgraph drawing. */
  subgraph: Triple[];
  /** Raw model turns (prompt/response), as the loop's LlmCall records them. */
  transcript: Array<{ role: "system" | "user" | "assistant" | "tool"; content: string }>;
  /** When status is "failed": which step and why. */
  error?: { step: string; message: string } | null;
  timings: { totalMs: number; modelMs: number; toolMs: number };
  options: { corpusFallback: boolean; toolBudget: number; formatRetries?: number };
  /** False for the heuristic planner: the UI says it is not an LLM. */
  isLlm?: boolean;
  /** Model turns taken (an LLM's replies, corrective retries included; the heuristic's written turns). */
  turns?: number;
}

/**
 * The chat model Ask talks to. Any `LlmProvider` of lib/loop fits (openai, replay); a provider
 * with `isLlm: false` (the heuristic) is never called: runAsk uses the heuristic planner.
 */
export interface AskModel {
  readonly name: string;
  readonly model: string;
  readonly isLlm: boolean;
  complete(request: AskCompletionRequest): Promise<CompletionResult>;
}

export interface AskCompletionRequest {
  /** Always "ask"; typed string so that the loop's providers (whose tasks are the loop's) fit `AskModel`. */
  task: string;
  messages: ChatMessage[];
  signal?: AbortSignal;
}

/** A real web search for deployments that have one (the graph's corpus is always searched first). */
export interface WebSearch {
  readonly name: string;
  search(query: string, options: { limit: number; signal?: AbortSignal }): Promise<Array<{ url: string; title: string | null; snippet: string }>>;
}
