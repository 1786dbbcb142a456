/**
 * What the signed-in person may do with one action, in the browser's words: whether to show
 * approve/reject at all, how to label the approve button, and why it is refused. The same pure
 * predicates the server enforces (lib/auth/approval-policy.ts); the server remains the check.
 */
import type { ApprovalPolicy, Confidence } from "@/lib/auth/approval-policy";
import { approveButtonLabel, canApprove, canDecide } from "@/lib/auth/approval-policy";
import type { Actor } from "@/lib/auth/permissions";

/** The signed-in person as the page hands it to the browser: no session id in the HTML. */
export type Decider = Extract<Actor, { kind: "user" }>;

export function toDecider(actor: Decider): Decider {
  return { kind: "user", userId: actor.userId, username: actor.username, displayName: actor.displayName, role: actor.role, sessionId: "" };
}

export interface DecisionSubject {
  confidence: Confidence;
  status: string;
  startedById: string | null;
  submittedById: string | null;
  approvals: number;
  required: number;
  vetoed: boolean;
  approverIds: string[];
  editedByIds?: string[];
}

export interface DecisionView {
  /** Show approve / reject controls at all (viewers and signed-out visitors see none). */
  canDecide: boolean;
  /** Why this person cannot approve this action (shown beside a disabled button), or null. */
  refusal: string | null;
  approveLabel: string;
  /** Approving this action needs the LOW confirmation with a reason. */
  isLow: boolean;
}

export function decisionFor(actor: Actor | null, subject: DecisionSubject, policy: ApprovalPolicy): DecisionView {
  const isLow = subject.confidence === "LOW";
  const label = approveButtonLabel(subject);
  const approveLabel = isLow ? `${label}…` : label;
  if (!actor || !canDecide(actor, policy).allowed) {
    const role = actor ? canDecide(actor, policy) : null;
    // Reviewers under an admins-only policy still see why; viewers see nothing to click.
    if (role && !role.allowed && role.code === "NEEDS_ADMIN") return { canDecide: false, refusal: "needs an admin: this graph's policy lets only admins approve", approveLabel, isLow };
    return { canDecide: false, refusal: null, approveLabel, isLow };
  }
  const me = actor.kind === "user" ? actor.userId : null;
  const verdict = canApprove(
    actor,
    { confidence: subject.confidence, status: subject.status, startedById: subject.startedById, submittedById: subject.submittedById, vetoed: subject.vetoed, approvedByActor: me !== null && subject.approverIds.includes(me), editedByIds: subject.editedByIds },
    policy,
  );
  if (verdict.allowed) return { canDecide: true, refusal: null, approveLabel, isLow };
  const plain: Partial<Record<typeof verdict.code, string>> = {
    OWN_RUN: "your own run: someone else must approve it",
    OWN_PROPOSAL: "your own proposal: someone else must approve it",
    OWN_EDIT: "you edited it: someone else must approve it",
    ALREADY_APPROVED: `you approved it (${subject.approvals} of ${subject.required}); waiting for another reviewer`,
    VETOED: "vetoed: the reject must be withdrawn first",
  };
  const refusal = plain[verdict.code] ?? verdict.reason;
  // A refused button says what it is, not what the next person's click would do.
  return { canDecide: true, refusal, approveLabel: verdict.code === "ALREADY_APPROVED" ? "Approved by you" : "Approve", isLow };
}
