/**
 * Response bodies of the approval, discussion and policy endpoints, for the OpenAPI document
 * (see openapi-schemas.ts for the rules; openapi.test.ts checks them against the server types).
 */
import { z } from "zod";
import { APPROVER_ROLES } from "../../auth/approval-policy";
import { GraphDiff, RefinementAction } from "./openapi-schemas";

const int = z.number().int();
const timestamp = z.string().describe("ISO 8601 date-time");

export const ApprovalPolicy = z.object({
  requiredHigh: int.describe("approvals a HIGH action needs, from distinct people"),
  requiredMedium: int,
  requiredLow: int,
  lowNeedsReason: z.boolean().describe("LOW approvals must carry a written reason"),
  approverRole: z.enum(APPROVER_ROLES).describe("reviewer: reviewers and admins approve; admin: only admins"),
  bulkHigh: z.boolean().describe("several HIGH actions may be approved in one request"),
  separateDuties: z.boolean().describe("whoever started the run or submitted the proposal cannot approve it"),
});

export const GraphPolicy = z.object({
  graph: z.string(),
  policy: ApprovalPolicy,
  isCustom: z.boolean(),
  updatedAt: timestamp.nullable(),
  updatedBy: z.string().nullable(),
  mode: z.enum(["solo", "team"]).describe("solo while fewer than two enabled accounts may approve: then `effective` applies"),
  approvers: z.number().int().describe("enabled accounts that may approve under this policy"),
  effective: ApprovalPolicy.describe("the rules approvals are checked against now"),
});

export const Decision = z.object({
  id: int,
  userId: z.string(),
  userName: z.string(),
  kind: z.enum(["approve", "reject"]).describe("reject = a veto until withdrawn"),
  reason: z.string().nullable(),
  graphVersion: int.describe("the graph version when it was given"),
  createdAt: timestamp,
  withdrawnAt: timestamp.nullable(),
  dismissedAt: timestamp.nullable(),
  dismissedReason: z.string().nullable().describe('e.g. "changed since approved: edge a --calls--> b removed in version 7"'),
});

export const ActionEvaluation = z.object({
  approvals: int.describe("distinct people whose approval counts now"),
  required: int,
  satisfied: z.boolean(),
  vetoed: z.boolean(),
  approvers: z.array(z.string()),
  approverIds: z.array(z.string()),
  vetoers: z.array(z.object({ userName: z.string(), reason: z.string().nullable() })),
  dismissed: z.array(z.object({ userName: z.string(), reason: z.string() })),
  needsReason: z.boolean(),
});

const AppliedAction = z.object({ index: int, action: RefinementAction, summary: z.string(), skipped: z.boolean() });

export const ApproveResult = z.object({
  proposalId: z.string(),
  approved: z.array(int),
  applied: z.object({ version: int, applied: z.array(AppliedAction), diff: GraphDiff }).nullable().describe("the version this click created, when it completed the policy"),
  applyError: z.object({ code: z.string(), message: z.string() }).nullable().describe("a concurrent edit, veto or withdrawal made the apply moot: the approval was recorded but no longer completes the policy, and the action waits for decisions again (an apply that fails for any other reason answers 409 APPLY_FAILED and the approval is rolled back)"),
  actions: z.array(
    z.object({ index: int, approvals: int, required: int, status: z.string(), appliedIn: int.nullable(), waiting: z.boolean().describe("still waiting for approvals") }),
  ),
});

export const CommentView = z.object({ id: int, proposalId: z.string(), actionIndex: int.nullable(), author: z.string(), authorId: z.string().nullable(), body: z.string(), createdAt: timestamp });

export const TimelineEvent = z.object({
  at: timestamp,
  kind: z.enum(["run", "submit", "approve", "reject", "withdraw", "dismiss", "comment", "edit", "rereview", "apply", "revert"]),
  who: z.string(),
  actionIndex: int.nullable(),
  text: z.string(),
  version: int.optional(),
});
