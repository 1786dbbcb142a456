/**
 * Request shapes of the campaign routes, shared by the handlers (app/api/campaigns) and the
 * OpenAPI document (openapi-operations-campaigns.ts), so the two cannot drift apart.
 */
import { z } from "zod";
import { MAX_CAMPAIGN_QUESTIONS } from "../../campaign/parse-campaign-questions";

export const campaignQuestion = z.object({
  id: z.string().min(1).max(200).optional().describe("default q<position>"),
  question: z.string().trim().min(1).max(4000),
  answers: z.array(z.string().max(1000)).max(100).optional().describe("gold answers: the accuracy sub-score uses them"),
});

export const startCampaignBody = z
  .object({
    graph: z.string().min(1).max(200),
    questions: z.array(campaignQuestion).min(1).max(MAX_CAMPAIGN_QUESTIONS).optional().describe("the question set (or fromQueue)"),
    fromQueue: z.enum(["pending", "all"]).optional().describe("take the graph's queued questions (with their gold answers, when imported with them)"),
    provider: z.enum(["heuristic", "openai", "replay"]).optional().describe("default: the configured provider"),
    iterationCap: z.number().int().min(1).max(20).optional().describe("default 3"),
    target: z.number().min(1).max(100).optional().describe("overall score that halts as target met (default 80)"),
    maxActionsPerIteration: z.number().int().min(1).max(200).optional().describe("default 20"),
  })
  .refine((b) => (b.questions ? 1 : 0) + (b.fromQueue ? 1 : 0) === 1, { message: "give either questions or fromQueue" });

export const campaignParams = z.object({ id: z.string().min(1).max(100).describe("campaign id") });

export const campaignListQuery = z.object({
  graph: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
