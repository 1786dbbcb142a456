/**
 * Approval policy: who must agree before a proposed action changes a graph. Pure: the server
 * (lib/server/approvals/approvals.ts) enforces it on every request, and the browser uses the same
 * predicates only to label buttons and explain refusals — the server is the check.
 *
 * - Each action needs `required{High,Medium,Low}` approvals from distinct people.
 * - A reject is a veto: while any reject of an action is active (not withdrawn), it cannot be
 *   approved or applied.
 * - An approval stops counting when it is withdrawn, or dismissed because something the action
 *   touches changed after it was given ("changed since approved").
 * - Separation of duties: whoever started the run or submitted the proposal cannot approve it,
 *   nor can whoever edited the action under review (they wrote what would be applied).
 * - API tokens, the CLI and the server itself never approve: approval needs a signed-in person.
 * - Solo mode: while fewer than two people may approve on a graph, nobody else could ever give
 *   the second pair of eyes, so the one approver may approve their own runs and one approval
 *   applies (as a repository's only owner merges their own pull request). LOW still needs the
 *   written reason — it is then the only record of why. A second approver switches the graph to
 *   the stored (team) rules at once; `effectivePolicy` is what every check uses.
 */
import { z } from "zod";
import type { Actor } from "./permissions";
import { can } from "./permissions";

export type Confidence = "HIGH" | "MEDIUM" | "LOW";

export const APPROVER_ROLES = ["reviewer", "admin"] as const;
export type ApproverRole = (typeof APPROVER_ROLES)[number];

export const approvalPolicySchema = z.object({
  requiredHigh: z.number().int().min(1).max(10),
  requiredMedium: z.number().int().min(1).max(10),
  requiredLow: z.number().int().min(1).max(10),
  /** LOW approvals must carry a written reason. */
  lowNeedsReason: z.boolean(),
  /** reviewer: reviewers and admins approve; admin: only admins. */
  approverRole: z.enum(APPROVER_ROLES),
  /** Several HIGH actions may be approved in one request. */
  bulkHigh: z.boolean(),
  /** Whoever started the run or submitted the proposal cannot approve it. */
  separateDuties: z.boolean(),
});

export type ApprovalPolicy = z.infer<typeof approvalPolicySchema>;

export const DEFAULT_APPROVAL_POLICY: ApprovalPolicy = {
  requiredHigh: 1,
  requiredMedium: 1,
  requiredLow: 2,
  lowNeedsReason: true,
  approverRole: "reviewer",
  bulkHigh: true,
  separateDuties: true,
};

/** solo: fewer than two people may approve (see the module header); team: the stored policy applies. */
export type ApprovalMode = "solo" | "team";

/** Can an account with this role (enabled) approve under this policy? */
export function isApproverRole(role: string, policy: Pick<ApprovalPolicy, "approverRole">): boolean {
  return policy.approverRole === "admin" ? role === "admin" : role === "admin" || role === "reviewer";
}

/** How many of these accounts may approve under this policy (enabled, with an approving role). */
export function countApprovers(policy: Pick<ApprovalPolicy, "approverRole">, people: readonly { role: string; disabled: boolean }[]): number {
  return people.filter((p) => !p.disabled && isApproverRole(p.role, policy)).length;
}

/** Solo while fewer than two of these accounts may approve under this policy; team otherwise. */
export function approvalMode(policy: Pick<ApprovalPolicy, "approverRole">, people: readonly { role: string; disabled: boolean }[]): ApprovalMode {
  return countApprovers(policy, people) < 2 ? "solo" : "team";
}

/**
 * The rules that apply in this mode. Team: the stored policy as it is. Solo: one approval
 * applies and separation of duties is off (there is nobody else), but LOW keeps its written reason.
 */
export function effectivePolicy(policy: ApprovalPolicy, mode: ApprovalMode): ApprovalPolicy {
  if (mode === "team") return policy;
  return { ...policy, requiredHigh: 1, requiredMedium: 1, requiredLow: 1, lowNeedsReason: true, separateDuties: false };
}

/** A written reason must have at least this many non-blank characters. */
export const MIN_REASON_LENGTH = 3;

export function requiredApprovals(policy: ApprovalPolicy, confidence: Confidence): number {
  return confidence === "HIGH" ? policy.requiredHigh : confidence === "MEDIUM" ? policy.requiredMedium : policy.requiredLow;
}

/** Why a person may not approve (or veto) an action. Codes are stable; messages are for people. */
export type RefusalCode =
  | "NOT_A_PERSON"
  | "NO_PERMISSION"
  | "NEEDS_ADMIN"
  | "OWN_RUN"
  | "OWN_PROPOSAL"
  | "OWN_EDIT"
  | "NOT_PENDING"
  | "VETOED"
  | "ALREADY_APPROVED";

export type Verdict = { allowed: true } | { allowed: false; code: RefusalCode; reason: string };

/** What a decision needs to know about the action and where it came from. */
export interface ApprovalTarget {
  confidence: Confidence;
  /** pending | applied | rejected | skipped | reverted */
  status: string;
  /** The account that started the run behind the proposal (null: CLI, server, or no run). */
  startedById: string | null;
  /** The account that submitted the proposal (null: a run's own proposal, CLI). */
  submittedById: string | null;
  /** Is any reject of this action active? */
  vetoed?: boolean;
  /** Has this actor an active approval of this action already? */
  approvedByActor?: boolean;
  /** Accounts that edited the action under review: they wrote what is approved, like a submitter. */
  editedByIds?: readonly string[];
}

const ALLOWED: Verdict = { allowed: true };

function refuse(code: RefusalCode, reason: string): Verdict {
  return { allowed: false, code, reason };
}

/** May this actor decide (approve or veto) at all under this policy? Role rules only. */
export function canDecide(actor: Actor, policy: ApprovalPolicy): Verdict {
  if (actor.kind === "token") return refuse("NOT_A_PERSON", "API tokens cannot approve or reject: a person must decide in the browser");
  if (actor.kind !== "user") return refuse("NOT_A_PERSON", "approvals need a signed-in person");
  if (!can(actor, "decide")) return refuse("NO_PERMISSION", `a ${actor.role} cannot approve or reject`);
  if (policy.approverRole === "admin" && actor.role !== "admin") return refuse("NEEDS_ADMIN", "this graph's policy lets only admins approve or reject");
  return ALLOWED;
}

/** May this actor approve this action? Checks role, separation of duties and the action's state. */
export function canApprove(actor: Actor, target: ApprovalTarget, policy: ApprovalPolicy): Verdict {
  const role = canDecide(actor, policy);
  if (!role.allowed) return role;
  const me = actor.kind === "user" ? actor.userId : null;
  if (policy.separateDuties && me !== null) {
    if (target.startedById === me) return refuse("OWN_RUN", "you started the run that proposed this: someone else must approve it");
    if (target.submittedById === me) return refuse("OWN_PROPOSAL", "you submitted this proposal: someone else must approve it");
    if (target.editedByIds?.includes(me)) return refuse("OWN_EDIT", "you edited this action: someone else must approve it");
  }
  if (target.vetoed) return refuse("VETOED", "this action is vetoed: the reject must be withdrawn before anyone can approve it");
  if (target.status !== "pending") return refuse("NOT_PENDING", `this action is already ${target.status}`);
  if (target.approvedByActor) return refuse("ALREADY_APPROVED", "you have already approved this action");
  return ALLOWED;
}

/** May this actor veto this action? Same roles as approving; proposers may veto their own. */
export function canReject(actor: Actor, target: ApprovalTarget, policy: ApprovalPolicy): Verdict {
  const role = canDecide(actor, policy);
  if (!role.allowed) return role;
  if (target.status !== "pending" && !(target.status === "rejected" && target.vetoed)) return refuse("NOT_PENDING", `this action is already ${target.status}`);
  return ALLOWED;
}

/** Several actions in one approval request: only HIGH ones, and only when the policy allows it. */
export function canApproveTogether(confidences: Confidence[], policy: ApprovalPolicy): { allowed: true } | { allowed: false; reason: string } {
  if (confidences.length <= 1) return { allowed: true };
  if (!policy.bulkHigh) return { allowed: false, reason: "this graph's policy asks for one action per approval" };
  if (confidences.some((c) => c !== "HIGH")) return { allowed: false, reason: "only HIGH actions may be approved together; approve MEDIUM and LOW actions one at a time" };
  return { allowed: true };
}

/** One person's decision on one action, as stored. */
export interface Decision {
  userId: string;
  userName: string;
  kind: "approve" | "reject";
  reason: string | null;
  graphVersion: number;
  createdAt: string;
  withdrawnAt: string | null;
  dismissedAt: string | null;
  dismissedReason: string | null;
  /**
   * Set when the person can no longer approve under the current policy (account disabled, role
   * changed, policy now asks for admins): their approval stops counting until they approve
   * again with the right to do so.
   */
  ineligible?: string | null;
}

export interface ActionEvaluation {
  /** Distinct people whose approval counts now. */
  approvals: number;
  required: number;
  satisfied: boolean;
  /** Active rejects: any one blocks the action. */
  vetoed: boolean;
  approvers: string[];
  /** Account ids of the people whose approval counts (to tell "you approved"). */
  approverIds: string[];
  vetoers: { userName: string; reason: string | null }[];
  /** Approvals that no longer count because what the action touches changed. */
  dismissed: { userName: string; reason: string }[];
  /** Whether an approval of this action must carry a written reason. */
  needsReason: boolean;
}

/**
 * Where an action stands under the policy. `isStale` is asked about every approval that is not
 * already dismissed, so a stale approval never counts even if the dismissal was missed.
 */
export function evaluateAction(
  policy: ApprovalPolicy,
  action: { confidence: Confidence },
  decisions: readonly Decision[],
  isStale: (decision: Decision) => string | null = () => null,
): ActionEvaluation {
  const required = requiredApprovals(policy, action.confidence);
  const approvers = new Map<string, string>();
  const vetoers: ActionEvaluation["vetoers"] = [];
  const dismissed: ActionEvaluation["dismissed"] = [];
  for (const d of decisions) {
    if (d.withdrawnAt !== null) continue;
    if (d.kind === "reject") {
      vetoers.push({ userName: d.userName, reason: d.reason });
      continue;
    }
    const stale = d.dismissedAt !== null ? (d.dismissedReason ?? "dismissed") : (d.ineligible ?? isStale(d));
    if (stale !== null) {
      dismissed.push({ userName: d.userName, reason: stale });
      continue;
    }
    approvers.set(d.userId, d.userName);
  }
  const vetoed = vetoers.length > 0;
  return {
    approvals: approvers.size,
    required,
    satisfied: !vetoed && approvers.size >= required,
    vetoed,
    approvers: [...approvers.values()],
    approverIds: [...approvers.keys()],
    vetoers,
    dismissed,
    needsReason: action.confidence === "LOW" && policy.lowNeedsReason,
  };
}

/** "Approve and apply" when this click completes the policy, otherwise "Approve (1 of 2)". */
export function approveButtonLabel(evaluation: Pick<ActionEvaluation, "approvals" | "required">): string {
  const after = evaluation.approvals + 1;
  return after >= evaluation.required ? "Approve and apply" : `Approve (${after} of ${evaluation.required})`;
}

/** Why a person's approval no longer counts under the current policy, or null if it does. */
export function approverIneligibility(person: { role: string; disabled: boolean }, policy: ApprovalPolicy): string | null {
  if (person.disabled) return "no longer counts: the account was disabled";
  if (person.role !== "admin" && person.role !== "reviewer") return `no longer counts: a ${person.role} cannot approve`;
  if (policy.approverRole === "admin" && person.role !== "admin") return "no longer counts: this graph's policy now needs an admin's approval";
  return null;
}
