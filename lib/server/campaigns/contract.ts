/** The request contracts and response schemas of the campaign routes (app/api/campaigns/**). */
import { z } from "zod";
import { campaignParams, providerName } from "../../api/contract";
import type { RequestContract } from "../../api/contract";
import { MAX_CAMPAIGN_QUESTIONS } from "../../campaign/parse-campaign-questions";

const campaignQuestion = z.object({
  id: z.string().min(1).max(200).optional().describe("default q<position>"),
  question: z.string().trim().min(1).max(4000),
  answers: z.array(z.string().max(1000)).max(100).optional().describe("gold answers: the accuracy sub-score uses them"),
});

const startCampaignBody = z
  .object({
    graph: z.string().min(1).max(200),
    questions: z.array(campaignQuestion).min(1).max(MAX_CAMPAIGN_QUESTIONS).optional().describe("the question set (or fromQueue)"),
    fromQueue: z.enum(["pending", "all"]).optional().describe("take the graph's queued questions (with their gold answers, when imported with them)"),
    provider: providerName.optional().describe("default: the configured provider"),
    iterationCap: z.number().int().min(1).max(20).optional().describe("default 3"),
    target: z.number().min(1).max(100).optional().describe("overall score that halts as target met (default 80)"),
    maxActionsPerIteration: z.number().int().min(1).max(200).optional().describe("default 20"),
  })
  .refine((b) => (b.questions ? 1 : 0) + (b.fromQueue ? 1 : 0) === 1, { message: "give either questions or fromQueue" })
  // JSON Schema cannot see the refine: say it there too, so the document rejects what the route rejects.
  .meta({
    oneOf: [{ required: ["questions"], not: { required: ["fromQueue"] } }, { required: ["fromQueue"], not: { required: ["questions"] } }],
    examples: [
      { graph: "httpx", questions: [{ id: "q1", question: "Which class does Client inherit from?", answers: ["BaseClient"] }], provider: "heuristic", iterationCap: 3, target: 80, maxActionsPerIteration: 20 },
    ],
  });

export const campaignsContract = {
  findCampaigns: { query: z.object({ graph: z.string().min(1).max(200).optional(), limit: z.coerce.number().int().min(1).max(500).default(100) }) },
  startCampaign: { body: startCampaignBody },
  getCampaign: { params: campaignParams },
  stopCampaign: { params: campaignParams },
  resumeCampaign: { params: campaignParams },
} satisfies Record<string, RequestContract>;

const int = z.number().int();
const timestamp = z.string().describe("ISO 8601 date-time");
const band = z.enum(["Accept", "Minor", "Major", "Reject"]);
const decision = z.enum(["BASELINE", "ACCEPT", "REVERT", "HALT_PLATEAU", "HALT_TARGET_MET", "NOTHING_TO_FIX", "ERROR"]);
const evidence = z.enum(["supported", "attributed", "needs_evidence"]);

const SubScores = z.object({
  answerability: z.number().describe("% of questions the loop judge answered"),
  accuracy: z.number().nullable().describe("% of gold questions answered right through evidence; null without gold answers"),
  efficiency: z.number().describe("hops needed: 100 at step 1, 0 when unanswerable"),
  hygiene: z.number().describe("100 minus the share of changes adding duplicates, dangling nodes or conflicts"),
});

const QuestionResult = z.object({
  id: z.string(),
  question: z.string(),
  answerable: z.boolean(),
  steps: int,
  answer: z.string().nullable().optional(),
  correct: z.boolean().nullable().optional(),
  accuracyNote: z.string().optional(),
  error: z.string().nullable().optional(),
});

const GatedAction = z.object({ action: z.record(z.string(), z.unknown()), text: z.string(), questions: z.array(z.string()), evidence, confidence: z.enum(["HIGH", "MEDIUM", "LOW"]), score: z.number(), why: z.string() });
const DaFinding = z.object({ id: z.string(), round: int, severity: z.enum(["CRITICAL", "MAJOR", "MINOR"]), challenge: z.string(), rebuttalScore: int.min(1).max(5), rebuttal: z.string(), conceded: z.boolean(), withdrawn: z.boolean().optional() });

const CampaignIteration = z.object({
  iter: int,
  decision,
  accepted: z.boolean(),
  delta: z.number(),
  score: z.object({ sub: SubScores, overall: z.number().describe("computed from the sub-scores"), band, questions: z.array(QuestionResult), hygiene: z.object({ changes: int, duplicates: z.array(z.string()), dangling: z.array(z.string()), conflicts: z.array(z.string()) }) }),
  actions: z.array(GatedAction).describe("what entered the sandbox"),
  heldBack: z.array(GatedAction.extend({ reason: z.string() })),
  da: z.object({ findings: z.array(DaFinding), guard: z.object({ standing: z.array(DaFinding), refused: z.array(z.object({ id: z.string(), round: int, reason: z.string() })), blocked: z.boolean() }) }),
  memory: z.object({ focusOn: z.array(z.string()), doNotRepropose: z.array(z.string()) }),
  changeset: z.object({ ops: z.array(z.record(z.string(), z.unknown())) }).describe("this iteration's changes over the previous accepted sandbox"),
  cumulativeActions: z.array(z.record(z.string(), z.unknown())),
  reasons: z.array(z.string()),
  consecutiveSmall: int,
  error: z.string().optional(),
  startedAt: timestamp,
  finishedAt: timestamp,
});

const WorklogEntry = z.object({ iter: int, at: timestamp, decision, overall: z.number(), band, sub: SubScores, actions: z.array(z.string()), heldBack: z.array(z.string()), daFindings: z.array(z.object({ id: z.string(), severity: z.string(), rebuttalScore: int, standing: z.boolean() })), reasons: z.array(z.string()) });

const CampaignSummary = z.object({
  id: z.string(),
  graph: z.string(),
  baseVersion: int,
  provider: z.string(),
  model: z.string(),
  isLlm: z.boolean(),
  status: z.enum(["running", "finished", "stopped", "failed", "interrupted"]),
  haltedBecause: z.enum(["target_met", "plateau", "cap", "nothing_left", "stopped", "error"]).nullable(),
  bestIter: int.nullable(),
  error: z.string().nullable(),
  proposalId: z.string().nullable().describe("the one proposal holding the best accepted iteration's actions"),
  questions: int,
  iterations: int,
  overall: z.number().nullable(),
  createdAt: timestamp,
  finishedAt: timestamp.nullable(),
});

/** Response schemas of the campaign routes, registered as components of the OpenAPI document. */
export const campaignsResponses = {
  CampaignSummary,
  CampaignDetails: CampaignSummary.extend({
    config: z.object({ iterationCap: int, thresholds: z.object({ target: z.number(), plateauThreshold: z.number(), plateauStreak: int, tieTolerance: z.number() }), maxActionsPerIteration: int }),
    questionList: z.array(z.object({ id: z.string(), question: z.string(), answers: z.array(z.string()).optional() })),
    iterationList: z.array(CampaignIteration),
    worklog: z.array(WorklogEntry),
  }),
  StartedCampaign: z.object({ campaignId: z.string() }),
};
