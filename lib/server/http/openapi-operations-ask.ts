/** The Ask operations of the OpenAPI document (Graph-RFT planned reasoning over a graph, issue #11). */
import { z } from "zod";
import type { OperationSpec } from "./openapi-spec";
import { Triple } from "./openapi-schemas";
import { asksContract } from "../asks";
import { runsContract } from "../runs";

const int = z.number().int();
const timestamp = z.string().describe("ISO 8601 date-time");
const entityRef = z.object({ id: z.string().nullable(), label: z.string() });

const AskAnswer = z.object({
  label: z.string(),
  id: z.string().nullable().describe("graph node id; null when the answer came from text only"),
  score: z.number(),
  via: z.enum(["graph", "corpus", "model"]),
  evidence: z.object({ triples: z.array(Triple).optional(), passage: z.object({ docId: z.string(), quote: z.string() }).optional() }).optional(),
});

const AskPassage = z.object({ docId: z.string(), title: z.string().nullable(), quote: z.string(), score: z.number(), origin: z.enum(["corpus", "web"]), url: z.string().optional() });

const PlanHead = z.union([z.object({ entity: z.string() }), z.object({ ref: z.string() })]);
const PlanStep = z.union([
  z.object({ id: z.string(), op: z.literal("search"), targetType: z.string(), head: PlanHead, relation: z.string() }),
  z.object({ id: z.string(), op: z.enum(["intersect", "union"]), args: z.array(z.string()) }),
  z.object({ id: z.string(), op: z.literal("negation"), main: z.string(), args: z.array(z.string()) }),
]);

const AskToolCall = z.object({
  n: int,
  tool: z.enum(["relation_search", "neighbor_search", "web_search"]),
  input: z.object({ head: z.string().optional(), relation: z.string().optional(), query: z.string().optional() }),
  planStep: z.string().nullable().optional(),
  output: z.string(),
  relations: z.array(z.object({ relation: z.string(), score: z.number() })).optional(),
  entities: z.array(z.object({ id: z.string(), label: z.string() })).optional(),
  triples: z.array(Triple).optional(),
  passages: z.array(AskPassage).optional(),
  ms: z.number(),
  error: z.string().optional(),
});

const AskTrace = z.object({
  question: z.string(),
  graph: z.string(),
  version: int,
  provider: z.string(),
  model: z.string(),
  status: z.enum(["answered", "no_answer", "failed"]),
  answers: z.array(AskAnswer),
  answerText: z.string(),
  think: z.string(),
  planText: z.string(),
  plan: z.array(PlanStep),
  stepAnswers: z.record(z.string(), z.array(entityRef)),
  calls: z.array(AskToolCall),
  subgraph: z.array(Triple),
  transcript: z.array(z.object({ role: z.enum(["system", "user", "assistant", "tool"]), content: z.string() })),
  error: z.object({ step: z.string(), message: z.string() }).nullable().optional(),
  timings: z.object({ totalMs: z.number(), modelMs: z.number(), toolMs: z.number() }),
  options: z.object({ corpusFallback: z.boolean(), toolBudget: int, formatRetries: int.optional() }),
  isLlm: z.boolean().optional(),
  turns: int.optional(),
});

const AskSummary = z.object({
  id: z.string(),
  graph: z.string(),
  question: z.string(),
  graphVersion: int,
  provider: z.string(),
  model: z.string(),
  isLlm: z.boolean(),
  status: z.enum(["running", "answered", "no_answer", "failed", "interrupted"]),
  answers: z.array(AskAnswer).describe("best first; empty while running"),
  error: z.string().nullable(),
  totalMs: int.nullable(),
  proposalId: z.string().nullable().describe("set when the ask re-checked a proposal after it was applied"),
  startedByName: z.string().nullable(),
  createdAt: timestamp,
  finishedAt: timestamp.nullable(),
});

const AskDetails = AskSummary.extend({ trace: AskTrace.nullable().describe("the plan, every tool call and its result; null while running") });

/** Response schemas, registered as components in openapi.ts. */
export const askSchemas = {
  AskSummary,
  AskDetails,
  AskAgainResult: z.object({
    proposalId: z.string(),
    graph: z.string(),
    question: z.string(),
    before: AskDetails.describe("the question asked of the proposal's base version"),
    after: AskDetails.describe("the question asked of the current version"),
    changed: z.boolean(),
    added: z.array(z.string()),
    removed: z.array(z.string()),
  }),
  RunStepAnswer: z.object({
    answer: z
      .object({ runId: z.string(), step: int, method: z.literal("heuristic_ask_over_step_triples"), trace: AskTrace })
      .nullable()
      .describe("null while the run goes on or when no step was judged answerable"),
  }),
  LoopSettings: z.object({ graph: z.string(), step1Retrieval: z.enum(["graphify_query", "graph_rft_plan"]) }),
};

export const askOperations: OperationSpec[] = [
  { path: "/api/graphs/{name}/asks", method: "get", operationId: "findAsks", request: asksContract.findAsks, tag: "ask", summary: "The graph's asks, newest first", response: { schema: "AskSummary", list: true }, errors: [400, 404, 500] },
  {
    path: "/api/graphs/{name}/asks",
    method: "post",
    operationId: "askGraph",
    request: asksContract.askGraph,
    tag: "ask",
    summary: "Ask the graph a question: plan, tool calls (relation_search, neighbor_search, web_search over the corpus) and answer",
    description: "Answers 201 at once with the stored ask (status running); poll GET /api/asks/{id}, or send wait: true to get the finished ask.",
    status: 201,
    response: { schema: "AskDetails" },
    errors: [400, 404, 500],
  },
  { path: "/api/asks/{id}", method: "get", operationId: "getAsk", request: asksContract.getAsk, tag: "ask", summary: "One ask with its whole trace", response: { schema: "AskDetails" }, errors: [400, 404, 500] },
  {
    path: "/api/proposals/{id}/ask-again",
    method: "post",
    operationId: "askAgainAfterApply",
    request: asksContract.askAgainAfterApply,
    tag: "ask",
    summary: "Ask an applied proposal's question of its base version and of the current version; says whether the answer changed",
    response: { schema: "AskAgainResult" },
    errors: [400, 404, 409, 500],
  },
  {
    path: "/api/runs/{id}/answer",
    method: "get",
    operationId: "getRunStepAnswer",
    request: runsContract.getRunStepAnswer,
    tag: "ask",
    summary: "What the step judged answerable answers: the heuristic Ask over that step's triples",
    response: { schema: "RunStepAnswer" },
    errors: [400, 404, 500],
  },
  { path: "/api/graphs/{name}/loop-settings", method: "get", operationId: "getLoopSettings", request: runsContract.getLoopSettings, tag: "runs", summary: "The graph's loop settings (step 1 retrieval)", response: { schema: "LoopSettings" }, errors: [400, 404, 500] },
  {
    path: "/api/graphs/{name}/loop-settings",
    method: "put",
    operationId: "updateLoopSettings",
    request: runsContract.updateLoopSettings,
    tag: "runs",
    summary: "Choose step 1 retrieval of the graph's loop: graphify_query (keyword query) or graph_rft_plan (the Ask plan's subgraph); admins",
    response: { schema: "LoopSettings" },
    errors: [400, 404, 500],
  },
];
