/**
 * Approving actions under the graph's approval policy — the only way the browser and the HTTP
 * API change a graph. An approval is recorded (with the graph version it was given at), and in
 * the same request every action of the proposal whose policy is now satisfied is applied as one
 * changeset: the click that completes the policy applies; nothing else does.
 *
 * Two completing approvals at once apply once: the commit re-checks that the actions are still
 * pending and the graph has not moved, so the second request finds them applied and reports
 * the version the first one made.
 */
import type { ApprovalPolicy } from "../auth/approval-policy";
import { MIN_REASON_LENGTH, canApprove, canApproveTogether, canDecide } from "../auth/approval-policy";
import type { Actor } from "../auth/permissions";
import { actorLabel } from "../auth/permissions";
import { AppError, isAppError } from "../errors";
import { formatAction } from "../loop/parse-output";
import type { RefinementAction } from "../loop/types";
import { recordAudit } from "./audit";
import { getDb } from "./db";
import type { ApplyProposalResult, ProposalActionItem, ProposalDetails } from "./proposals";
import { applyProposal, getProposal } from "./proposals";

export interface ApproveActionsOptions {
  proposalId: string;
  /** 0-based action indexes. More than one only for HIGH actions when the policy allows it. */
  actionIndexes: number[];
  actor: Actor;
  /** A written reason (required for LOW when the policy says so). */
  reason?: string | null;
  /** The explicit acceptance of a LOW action's risk. */
  lowConfidenceConfirmed?: boolean;
  /** The actions as the person saw them (same order as `actionIndexes`); a mismatch is refused. */
  seen?: RefinementAction[];
}

/** Where one action stands after the request. */
export interface ActionOutcome {
  index: number;
  approvals: number;
  required: number;
  status: string;
  /** The version that applied it, or null while it waits for more approvals. */
  appliedIn: number | null;
  waiting: boolean;
}

export interface ApproveActionsResult {
  proposalId: string;
  approved: number[];
  /** The changeset this click applied, if it completed the policy of any action. */
  applied: ApplyProposalResult | null;
  /** Set when the policy was satisfied but the apply was refused (e.g. the graph changed). */
  applyError: { code: string; message: string } | null;
  actions: ActionOutcome[];
}

/** The Verdict of lib/auth/approval-policy.ts turned into the error the API answers with. */
export function refusalError(verdict: { allowed: false; code: string; reason: string }): AppError {
  const code = verdict.code === "NOT_PENDING" || verdict.code === "VETOED" || verdict.code === "ALREADY_APPROVED" ? "CONFLICT" : "FORBIDDEN";
  return new AppError(code, verdict.reason, { refusal: verdict.code });
}

export function approvalTarget(proposal: ProposalDetails, item: ProposalActionItem, actor: Actor) {
  const me = actor.kind === "user" ? actor.userId : null;
  return {
    confidence: item.confidence,
    status: item.status,
    startedById: proposal.startedById,
    submittedById: proposal.submittedById,
    vetoed: item.evaluation.vetoed,
    approvedByActor: me !== null && item.evaluation.approverIds.includes(me),
    editedByIds: item.editedByIds,
  };
}

function findAction(proposal: ProposalDetails, index: number): ProposalActionItem {
  const item = proposal.actions.find((a) => a.index === index);
  if (!item) throw new AppError("INVALID_INPUT", `proposal ${proposal.id} has no action ${index + 1}`);
  return item;
}

export function outcomesOf(proposal: ProposalDetails): ActionOutcome[] {
  return proposal.actions.map((a) => ({
    index: a.index,
    approvals: a.evaluation.approvals,
    required: a.evaluation.required,
    status: a.status,
    appliedIn: a.appliedIn,
    waiting: a.status === "pending",
  }));
}

function checkLowConfirmation(items: ProposalActionItem[], policy: ApprovalPolicy, options: ApproveActionsOptions): void {
  const low = items.filter((i) => i.confidence === "LOW");
  if (low.length === 0) return;
  const which = low.map((l) => l.index + 1).join(", ");
  if (!options.lowConfidenceConfirmed) {
    throw new AppError("CONFIRMATION_REQUIRED", `action ${which} is LOW confidence: approving needs an explicit acceptance of the risk. Nothing was recorded.`, {
      low: low.map((l) => l.index),
    });
  }
  if (policy.lowNeedsReason && (options.reason ?? "").trim().length < MIN_REASON_LENGTH) {
    throw new AppError("CONFIRMATION_REQUIRED", `action ${which} is LOW confidence: this graph's policy asks for a written reason with the approval. Nothing was recorded.`, {
      low: low.map((l) => l.index),
      needsReason: true,
    });
  }
}

export async function approveActions(options: ApproveActionsOptions): Promise<ApproveActionsResult> {
  const { actor } = options;
  // Before anything is read: tokens, the CLI and viewers never approve, whatever the policy.
  if (actor.kind !== "user") throw refusalError({ allowed: false, code: "NOT_A_PERSON", reason: actor.kind === "token" ? "API tokens cannot approve: a person must decide in the browser" : "approvals need a signed-in person" });
  const indexes = [...new Set(options.actionIndexes)];
  if (indexes.length === 0) throw new AppError("INVALID_INPUT", "name the action(s) to approve");
  const proposal = await getProposal(options.proposalId);
  const policy = proposal.policy;
  const role = canDecide(actor, policy);
  if (!role.allowed) throw refusalError(role);
  const items = indexes.map((i) => findAction(proposal, i));
  if (options.seen) {
    if (options.seen.length !== options.actionIndexes.length) throw new AppError("INVALID_INPUT", "`seen` must list one action per index in `actions`");
    options.actionIndexes.forEach((index, i) => {
      const stored = findAction(proposal, index).action;
      const seen = options.seen?.[i];
      if (seen && formatAction(seen) !== formatAction(stored)) {
        throw new AppError("CONFLICT", `action ${index + 1} was edited since you opened it: it is now ${formatAction(stored)}. Read it again before approving.`, { refusal: "CHANGED" });
      }
    });
  }
  const together = canApproveTogether(
    items.map((i) => i.confidence),
    policy,
  );
  if (!together.allowed) throw new AppError("FORBIDDEN", together.reason, { refusal: "ONE_AT_A_TIME" });
  for (const item of items) {
    const verdict = canApprove(actor, approvalTarget(proposal, item, actor), policy);
    if (!verdict.allowed) throw refusalError({ ...verdict, reason: `action ${item.index + 1}: ${verdict.reason}` });
  }
  checkLowConfirmation(items, policy, options);
  const reason = options.reason?.trim() ? options.reason.trim().slice(0, 2000) : null;

  await getDb().$transaction(async (tx) => {
    const graph = await tx.graph.findUniqueOrThrow({ where: { name: proposal.graph }, select: { currentVersion: true } });
    for (const item of items) {
      // Re-checked inside the transaction: a veto or another approval of mine may have landed.
      const row = await tx.proposalAction.findUniqueOrThrow({
        where: { proposalId_index: { proposalId: proposal.id, index: item.index } },
        select: { id: true, status: true, action: true, approvals: { where: { withdrawnAt: null }, select: { userId: true, kind: true, dismissedAt: true } } },
      });
      if (row.status !== "pending") throw new AppError("CONFLICT", `action ${item.index + 1} is already ${row.status}`);
      // An edit that landed after the checks above: the approval was meant for the old text.
      if (JSON.stringify(JSON.parse(row.action)) !== JSON.stringify(item.action)) throw new AppError("CONFLICT", `action ${item.index + 1} was edited meanwhile: read it again before approving`, { refusal: "EDITED" });
      if (row.approvals.some((a) => a.kind === "reject")) throw new AppError("CONFLICT", `action ${item.index + 1} was vetoed meanwhile`, { refusal: "VETOED" });
      if (row.approvals.some((a) => a.kind === "approve" && a.userId === actor.userId && a.dismissedAt === null && item.evaluation.approverIds.includes(actor.userId))) {
        throw new AppError("CONFLICT", `you have already approved action ${item.index + 1}`, { refusal: "ALREADY_APPROVED" });
      }
      await tx.approval.create({ data: { actionId: row.id, proposalId: proposal.id, userId: actor.userId, kind: "approve", reason, graphVersion: graph.currentVersion } });
      const count = item.evaluation.approvals + 1;
      await recordAudit(
        actor,
        {
          action: "action.approve",
          summary: `approved ${formatAction(item.action)} on ${proposal.graph} (${count} of ${item.evaluation.required} approvals${item.confidence === "LOW" ? ", LOW confidence" : ""})${reason ? `: ${reason}` : ""}`,
          graphName: proposal.graph,
          targetType: "action",
          targetId: `${proposal.id}#${item.index}`,
          details: { proposalId: proposal.id, index: item.index, confidence: item.confidence, approvals: count, required: item.evaluation.required, reason, graphVersion: graph.currentVersion },
        },
        tx,
      );
    }
  });

  const { applied, applyError, after } = await applySatisfiedActions({ proposalId: proposal.id, actor });
  return { proposalId: proposal.id, approved: indexes, applied, applyError, actions: outcomesOf(after) };
}

function lowReasonsOf(actions: ProposalActionItem[]): string | undefined {
  const parts: string[] = [];
  for (const a of actions) {
    if (a.confidence !== "LOW") continue;
    for (const d of a.decisions) {
      if (d.kind === "approve" && d.withdrawnAt === null && d.dismissedAt === null && d.reason && a.evaluation.approverIds.includes(d.userId)) parts.push(`${d.userName}: ${d.reason}`);
    }
  }
  return parts.length > 0 ? parts.join("; ") : undefined;
}

/**
 * Apply, as one changeset, every pending action of the proposal whose policy is satisfied.
 * Only approveActions calls this, right after recording an approval.
 */
async function applySatisfiedActions(options: { proposalId: string; actor: Actor }): Promise<{
  applied: ApplyProposalResult | null;
  applyError: ApproveActionsResult["applyError"];
  after: ProposalDetails;
}> {
  const proposal = await getProposal(options.proposalId);
  const ready = proposal.actions.filter((a) => a.status === "pending" && a.evaluation.satisfied);
  if (ready.length === 0) return { applied: null, applyError: null, after: proposal };
  const approvers = [...new Set(ready.flatMap((a) => a.evaluation.approvers))];
  try {
    const applied = await applyProposal({
      proposalId: proposal.id,
      actionIndexes: ready.map((a) => a.index),
      // What the policy was found satisfied for: an edit landing before the commit refuses it.
      expectedActions: ready.map((a) => a.action),
      allowLowConfidence: ready.some((a) => a.confidence === "LOW"),
      lowConfidenceReason: lowReasonsOf(ready),
      actor: approvers.join(", ") || actorLabel(options.actor),
      auditActor: options.actor,
      approvedBy: approvers,
    });
    return { applied, applyError: null, after: await getProposal(proposal.id) };
  } catch (error) {
    if (!isAppError(error) || error.code !== "CONFLICT") throw error;
    const after = await getProposal(proposal.id);
    const stillPending = ready.filter((r) => after.actions.find((a) => a.index === r.index)?.status === "pending");
    // A concurrent completing approval applied them: that is success for this click too.
    if (stillPending.length === 0) return { applied: null, applyError: null, after };
    return { applied: null, applyError: { code: error.code, message: error.message }, after };
  }
}
