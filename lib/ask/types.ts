/**
 * Ask the graph (Graph-RFT, seed 002; issue #11): the trace of one ask, shared by the pure
 * executor (lib/ask), the server that stores asks (lib/server), the API, the CLI and the page.
 *
 * CONTRACT: the server stores `AskTrace` as JSON and the page draws it. Extend additively.
 */
import type { Triple } from "../graph/model";

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
}

export interface AskPassage {
  docId: string;
  title: string | null;
  /** The quoted sentence(s), verbatim. */
  quote: string;
  score: number;
  /** "corpus" (the graph's own passages / files) or "web" (a configured web search). */
  origin: "corpus" | "web";
}

export interface AskAnswer {
  label: string;
  /** Graph node id, null when the answer came from text only. */
  id: string | null;
  score: number;
  /** How it was found: "graph" (a plan chain), "corpus" (a passage), "model" (the model's own words). */
  via: "graph" | "corpus" | "model";
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
  options: { corpusFallback: boolean; toolBudget: number };
}
