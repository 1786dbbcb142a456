/** The request contracts of the question queue, run and loop-settings routes. */
import { z } from "zod";
import { graphParams, providerName, runParams } from "../../api/contract";
import type { RequestContract } from "../../api/contract";

const startRunsBody = z
  .object({
    question: z.string().trim().max(4000).optional(),
    queryId: z.string().regex(/^[0-9a-f]{16}$/).optional().describe("a queued question's id"),
    pending: z.boolean().optional().describe("run every pending question of the queue"),
    provider: providerName.optional(),
    refineAfterFinalYes: z.boolean().optional(),
  })
  .meta({
    // What the launcher asks for (run-launcher.ts), stated for clients: a question, a queued question, or the pending queue.
    anyOf: [
      { required: ["question"], properties: { question: { pattern: "\\S" } } },
      { required: ["queryId"] },
      { required: ["pending"], properties: { pending: { const: true } } },
    ],
    examples: [{ question: "How does Client build requests?", provider: "heuristic", refineAfterFinalYes: false }],
  });

export const runsContract = {
  findQuestions: { params: graphParams, query: z.object({ status: z.enum(["pending", "refined", "all"]).default("all") }) },
  addQuestions: {
    params: graphParams,
    body: z
      .object({ questions: z.array(z.string().trim().min(1, "a question is empty").max(4000)).min(1).max(1000) })
      .meta({ examples: [{ questions: ["How does Client build requests?", "What does Timeout use?"] }] }),
  },
  syncMemoryQuestions: {
    params: graphParams,
    body: z
      .object({ dir: z.string().trim().min(1).optional().describe("folder holding graphify-out/memory (admins only); default: the graph's source folder") })
      .meta({ examples: [{ dir: "/data/httpx" }] }),
  },
  findRuns: { params: graphParams },
  startRuns: { params: graphParams, body: startRunsBody },
  getRun: { params: runParams },
  streamRunEvents: { params: runParams },
  getRunDeepRefineFile: { params: runParams, query: z.object({ file: z.enum(["trace", "refinement"]).default("trace") }) },
  getRunStepAnswer: { params: runParams },
  getLoopSettings: { params: graphParams },
  updateLoopSettings: {
    params: graphParams,
    body: z.object({ step1Retrieval: z.enum(["graphify_query", "graph_rft_plan"]) }).meta({ examples: [{ step1Retrieval: "graph_rft_plan" }] }),
  },
} satisfies Record<string, RequestContract>;
