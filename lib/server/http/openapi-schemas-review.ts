/**
 * Response bodies of the proposal, provider and settings endpoints, for the OpenAPI document
 * (see openapi-schemas.ts for the rules; openapi.test.ts checks them against the server types).
 */
import { z } from "zod";
import { LLM_PROVIDER_NAMES } from "../providers";
import { EDITABLE_LLM_FIELDS } from "../providers";
import { DiffGraph, GraphDiff, RefinementAction, Triple } from "./openapi-schemas";
import { ActionEvaluation, ApprovalPolicy, Decision } from "./openapi-schemas-approvals";

const int = z.number().int();
const timestamp = z.string().describe("ISO 8601 date-time");
const confidence = z.enum(["HIGH", "MEDIUM", "LOW"]);

const NameCandidate = z.object({
  id: z.string(),
  label: z.string(),
  qualified: z.string(),
  matchedBy: z.enum(["id", "qualified", "label", "normalized", "alias", "fuzzy"]),
  score: z.number(),
});

const ResolvedName = z.object({
  name: z.string(),
  status: z.enum(["exact", "ambiguous", "not_found"]),
  nodeId: z.string().nullable(),
  candidates: z.array(NameCandidate),
});

export const ActionReview = z.object({
  index: int,
  action: RefinementAction,
  text: z.string(),
  confidence,
  score: z.number().min(0).max(1).optional().describe("plausibility 0–1 from independent signals; absent on reviews stored before scores existed"),
  signals: z
    .array(
      z.object({
        kind: z.enum(["text", "rule", "signature", "functional", "disjoint", "code", "graph", "name", "llm", "warning"]),
        contribution: z.number().describe("signed: > 0 speaks for the action, < 0 against it"),
        summary: z.string(),
        evidence: int.optional().describe("index into evidence[] of the item carrying the quote, path or source"),
        positive: z.boolean().optional().describe("evidence for the action; an action with none is LOW"),
        strong: z.boolean().optional().describe("states or strongly predicts the fact (what HIGH needs)"),
      }),
    )
    .optional(),
  reasons: z.array(z.string()),
  evidence: z.array(
    z.object({
      kind: z.enum(["node", "edge", "path", "relation_usage", "retrieved", "text", "code"]),
      summary: z.string(),
      quote: z.string().optional(),
      source: z
        .object({ docId: z.string(), title: z.string().nullable().optional(), path: z.string().nullable().optional(), line: int.nullable().optional() })
        .optional(),
      path: z.array(Triple).optional(),
      highlights: z.array(z.string()).optional(),
    }),
  ),
  warnings: z.array(z.object({ code: z.string().describe("WarningCode, e.g. AMBIGUOUS_NAME"), message: z.string(), candidates: z.array(NameCandidate).optional() })),
  suggestions: z.array(z.object({ action: RefinementAction, text: z.string(), reason: z.string(), score: z.number() })),
  resolved: z.object({ subject: ResolvedName.optional(), object: ResolvedName.optional(), old: ResolvedName.optional(), new: ResolvedName.optional() }),
});

export const ProposalActionItem = z.object({
  index: int,
  action: RefinementAction,
  review: ActionReview,
  confidence,
  status: z.enum(["pending", "applied", "rejected", "skipped", "reverted", "obsolete"]),
  appliedIn: int.nullable(),
  decisions: z.array(Decision).describe("every approval and veto, including withdrawn and dismissed ones"),
  evaluation: ActionEvaluation,
  changedSinceApproved: z.string().nullable().describe("why an approval was dismissed when something the action touches changed"),
  editedByIds: z.array(z.string()).describe("accounts that edited it under review: like its submitter, they cannot approve it"),
  obsoleteIn: int.nullable().describe("obsolete: the version that made it moot (a copy applied, its edge added or gone)"),
  obsoleteReason: z.string().nullable(),
});

export const ProposalDetails = z.object({
  id: z.string(),
  graph: z.string(),
  runId: z.string().nullable(),
  baseVersion: int,
  source: z.string(),
  question: z.string().nullable(),
  status: z.enum(["pending", "applied", "partially_applied", "rejected"]),
  createdAt: timestamp,
  updatedAt: timestamp,
  counts: z.object({ HIGH: int, MEDIUM: int, LOW: int }),
  actions: z.array(ProposalActionItem),
  submittedById: z.string().nullable(),
  submittedByName: z.string().nullable(),
  origin: z.enum(["person", "agent", "cli", "campaign"]).describe("a person (the web), an agent (an API token, MCP), the command line, or a campaign"),
  agentName: z.string().nullable().describe("the agent an agent's proposal says it is (free text)"),
  agentModel: z.string().nullable().describe("the model it says it runs on (free text)"),
  startedById: z.string().nullable(),
  startedByName: z.string().nullable(),
  policy: ApprovalPolicy.describe("the rules that apply now: in solo mode (fewer than two people may approve) one approval applies and people may approve their own runs"),
  approvalMode: z.enum(["solo", "team"]),
  rulesMining: z
    .object({
      state: z.enum(["mining", "reviewing", "failed"]).describe("mining: the graph rules are being mined; reviewing: mined, the reviews are being made again; failed: mining failed, the reviews stay"),
      progress: z.number().min(0).max(1),
      error: z.string().optional().describe("failed: why mining failed; reviewing: why the last attempt to review them again failed, and when the next is (2 s, doubling up to 5 minutes)"),
    })
    .nullable()
    .describe("set while a pending action was reviewed before its version's graph rules were mined; it is reviewed again once they are (poll until null)"),
});

export const ProposalPage = z.object({
  proposals: z.array(ProposalDetails),
  nextCursor: z.string().nullable().describe("pass as `cursor` for the next page; null on the last page"),
  limit: int,
  summary: z.object({
    total: int.describe("proposals matching all filters, on every page"),
    byStatus: z.object({ pending: int, applied: int, partially_applied: int, rejected: int }).describe("proposals per status matching the other filters"),
    byLabel: z.object({ HIGH: int, MEDIUM: int, LOW: int }).describe("actions per label in the proposals matching all filters"),
    byOrigin: z.object({ person: int, agent: int, cli: int, campaign: int }).describe("proposals per origin matching the other filters"),
    pendingActions: int.describe("pending actions in the proposals matching every filter but status"),
    pendingByLabel: z.object({ HIGH: int, MEDIUM: int, LOW: int }).describe("pending actions per label, same scope as pendingActions"),
  }),
});

/** GET /api/proposals/rows: the queue's compact read (lib/server/proposals/queue-proposals.ts). */
const QueueAction = z.object({
  index: int,
  action: RefinementAction,
  review: z.object({
    text: z.string(),
    score: z.number().min(0).max(1).optional(),
    signals: z.array(z.object({ kind: z.string(), contribution: z.number(), summary: z.string() })).optional().describe("the strongest signals by |contribution| (at most 3), without evidence"),
    reasons: z.array(z.string()).describe("only the last reason (the rule that set the label)"),
    warnings: z.array(z.object({ code: z.string(), message: z.string() })),
  }),
  confidence,
  status: z.enum(["pending", "applied", "rejected", "skipped", "reverted", "obsolete"]),
  appliedIn: int.nullable(),
  evaluation: z.object({ approvals: int, required: int, approverIds: z.array(z.string()), vetoers: z.array(z.object({ userName: z.string() })) }),
  changedSinceApproved: z.string().nullable(),
  editedByIds: z.array(z.string()),
  obsoleteIn: int.nullable(),
  obsoleteReason: z.string().nullable(),
});

export const QueueProposalPage = ProposalPage.extend({
  proposals: z.array(
    ProposalDetails.pick({ id: true, graph: true, runId: true, question: true, createdAt: true, submittedById: true, submittedByName: true, origin: true, agentName: true, agentModel: true, startedById: true, policy: true, approvalMode: true }).extend({
      actions: z.array(QueueAction),
    }),
  ),
});

export const DecisionResult = z.object({
  proposal: ProposalDetails,
  actions: z.array(z.object({ index: int, approvals: int, required: int, status: z.string(), appliedIn: int.nullable(), waiting: z.boolean() })),
});

const AppliedAction = z.object({ index: int, action: RefinementAction, summary: z.string(), skipped: z.boolean() });

export const PreviewResult = z.object({
  baseVersion: int,
  plannedOn: int.describe("the version the preview is planned on: the current one"),
  actions: z.array(AppliedAction.extend({ ops: z.tuple([int, int]).describe("this action's operations within the changeset: [start, end)") })),
  diff: GraphDiff,
  graph: DiffGraph,
});

export const ApplyResult = z.object({ version: int, applied: z.array(AppliedAction), diff: GraphDiff });

const RedactedLlmSettings = z.object({
  provider: z.enum(LLM_PROVIDER_NAMES),
  baseUrl: z.string().nullable(),
  model: z.string().nullable(),
  hasApiKey: z.boolean(),
  temperature: z.number(),
  timeoutMs: z.number(),
  maxRetries: int,
  concurrency: int,
  maxTokens: int.nullable(),
});

export const ProviderInfo = RedactedLlmSettings.extend({ isLlm: z.boolean() });

export const LlmSettingsView = z.object({
  effective: RedactedLlmSettings,
  overridden: z.array(z.enum(EDITABLE_LLM_FIELDS)),
  apiKeySource: z.enum(["environment", "none"]),
});

export const ConnectionCheck = z.object({ ok: z.boolean(), provider: z.string(), model: z.string().nullable(), latencyMs: z.number(), detail: z.string() });
