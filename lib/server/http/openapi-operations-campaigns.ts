/** The campaign operations of the OpenAPI document (refinement campaigns, issue #15). */
import { z } from "zod";
import type { OperationSpec } from "./openapi-spec";
import { campaignListQuery, campaignParams, startCampaignBody } from "../campaigns";

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

export const campaignSchemas = {
  CampaignSummary,
  CampaignDetails: CampaignSummary.extend({
    config: z.object({ iterationCap: int, thresholds: z.object({ target: z.number(), plateauThreshold: z.number(), plateauStreak: int, tieTolerance: z.number() }), maxActionsPerIteration: int }),
    questionList: z.array(z.object({ id: z.string(), question: z.string(), answers: z.array(z.string()).optional() })),
    iterationList: z.array(CampaignIteration),
    worklog: z.array(WorklogEntry),
  }),
  StartedCampaign: z.object({ campaignId: z.string() }),
};

export const campaignOperations: OperationSpec[] = [
  { path: "/api/campaigns", method: "get", operationId: "findCampaigns", tag: "campaigns", summary: "Campaigns, newest first", query: campaignListQuery, response: { schema: "CampaignSummary", list: true }, errors: [400, 500] },
  {
    path: "/api/campaigns",
    method: "post",
    operationId: "startCampaign",
    tag: "campaigns",
    summary: "Start a refinement campaign over a question set in a sandbox of the graph",
    description: "Answers 202 at once; watch it with GET /api/campaigns/{id}. The live graph does not change: the best accepted iteration becomes one proposal in the review queue.",
    body: { schema: startCampaignBody },
    status: 202,
    response: { schema: "StartedCampaign" },
    errors: [400, 404, 500],
  },
  { path: "/api/campaigns/{id}", method: "get", operationId: "getCampaign", tag: "campaigns", summary: "One campaign with every iteration, its sandbox changes and the worklog", params: campaignParams, response: { schema: "CampaignDetails" }, errors: [400, 404, 500] },
  {
    path: "/api/campaigns/{id}/stop",
    method: "post",
    operationId: "stopCampaign",
    tag: "campaigns",
    summary: "Stop a running campaign; it keeps its iterations and submits its best accepted one",
    params: campaignParams,
    status: 202,
    response: { schema: "CampaignDetails" },
    errors: [400, 404, 409, 500],
  },
  {
    path: "/api/campaigns/{id}/resume",
    method: "post",
    operationId: "resumeCampaign",
    tag: "campaigns",
    summary: "Go on with an interrupted campaign from its stored iterations, in this server",
    params: campaignParams,
    status: 202,
    response: { schema: "StartedCampaign" },
    errors: [400, 404, 409, 500],
  },
];
