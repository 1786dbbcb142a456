/** The request contracts of the Ask routes (app/api/graphs/{name}/asks, app/api/asks, ask-again). */
import { z } from "zod";
import { askParams, graphParams, proposalParams, providerName } from "../../api/contract";
import type { RequestContract } from "../../api/contract";
import { MAX_QUESTION_CHARS } from "./asks";

const askBody = z
  .object({
    question: z.string().trim().min(1, "the question is empty").max(MAX_QUESTION_CHARS),
    provider: providerName.optional().describe("default: the configured provider"),
    version: z.number().int().positive().optional().describe("graph version to ask (default: the current one)"),
    corpusFallback: z.boolean().optional().describe("let web_search search the graph's corpus when the graph has no fitting relation (default true)"),
    toolBudget: z.number().int().min(1).max(50).optional().describe("tool calls allowed (default 12)"),
    wait: z.boolean().optional().describe("answer when the ask has finished (default: at once, status running)"),
  })
  .meta({ examples: [{ question: "Which class does Client inherit from?", provider: "heuristic", version: 1, corpusFallback: true, toolBudget: 12, wait: false }] });

export const asksContract = {
  findAsks: { params: graphParams },
  askGraph: { params: graphParams, body: askBody },
  getAsk: { params: askParams },
  askAgainAfterApply: { params: proposalParams, body: z.object({ provider: providerName.optional() }).meta({ examples: [{ provider: "heuristic" }] }) },
} satisfies Record<string, RequestContract>;
