/**
 * Approving actions under the graph's approval policy — the only way the browser and the HTTP
 * API change a graph. An approval is recorded (with the graph version it was given at), and in
 * the same request every action of the proposal whose policy is now satisfied is applied as one
 * changeset: the click that completes the policy applies; nothing else does.
 *
 * Two completing approvals at once apply once: the commit re-checks that the actions are still
 * pending, with the text and the approvals that were counted, so the second request finds them
 * applied and reports the version the first one made. Approvals of other actions completing at
 * the same moment all apply: the commit retries a mere version move (lib/server/proposals/changesets.ts).
 * An action that cannot apply is refused before its approval is recorded, and a completing
 * approval whose apply fails is rolled back (lib/server/approvals/approvals-apply.ts): no action is left
 * satisfied but unapplied.
 */
import type { ApprovalPolicy } from "../../auth/approval-policy";
import { MIN_REASON_LENGTH, canApprove, canApproveTogether, canDecide } from "../../auth/approval-policy";
import type { Actor } from "../../auth/permissions";
import { AppError } from "../../errors";
import { formatAction } from "../../loop/parse-output";
import type { RefinementAction } from "../../loop/types";
import { applySatisfiedActions, findApplyBlocker } from "./approvals-apply";
import { LOCKING_TRANSACTION, lockActionRows } from "../db/action-row-locks";
import { recordAudit } from "../audit";
import { getDb } from "../db/db";
import { getPolicyInEffect } from "../policies";
import type { ApplyProposalResult, ProposalActionItem, ProposalDetails } from "../proposals";
import { getProposal } from "../proposals";

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
  /** Set when a concurrent edit, veto or withdrawal made the apply moot (the action waits for decisions again). */
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
  // Already satisfied but not applied (a crash between the two, or the policy lowered since):
  // approving again is how one gets it applied, so this click retries the apply.
  if (items.every((i) => i.status === "pending" && i.evaluation.satisfied)) {
    const { applied, applyError, after } = await applySatisfiedActions({ proposalId: proposal.id, actor, recorded: [] });
    return { proposalId: proposal.id, approved: [], applied, applyError, actions: outcomesOf(after) };
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
  // An action that cannot apply as written is refused before anything is recorded.
  const blocker = await findApplyBlocker(proposal, items);
  if (blocker) throw blocker;
  const reason = options.reason?.trim() ? options.reason.trim().slice(0, 2000) : null;
  const recorded = await recordApprovals({ proposal, items, actor, reason });
  const { applied, applyError, after } = await applySatisfiedActions({ proposalId: proposal.id, actor, recorded });
  return { proposalId: proposal.id, approved: indexes, applied, applyError, actions: outcomesOf(after) };
}

/**
 * One transaction, the action rows locked first: whatever landed since the checks above (an
 * edit, a veto, this person's approval from another tab) is seen here and refuses the approval.
 * Returns the new approvals' ids.
 */
async function recordApprovals(options: { proposal: ProposalDetails; items: ProposalActionItem[]; actor: Actor & { kind: "user" }; reason: string | null }): Promise<number[]> {
  const { proposal, items, actor, reason } = options;
  return getDb().$transaction(async (tx) => {
    await lockActionRows(
      tx,
      proposal.id,
      items.map((i) => i.index),
    );
    const graph = await tx.graph.findUniqueOrThrow({ where: { name: proposal.graph }, select: { id: true, currentVersion: true } });
    // The rules the checks above used, read again under the lock: a second approver account (solo
    // mode ends) or a policy saved meanwhile would have decided differently.
    const rulesNow = await getPolicyInEffect(graph.id, tx);
    if (!samePolicy(rulesNow.policy, proposal.policy)) {
      throw new AppError(
        "CONFLICT",
        `the approval rules of ${proposal.graph} changed meanwhile${rulesNow.mode !== proposal.approvalMode ? ` (now ${rulesNow.mode} mode: ${rulesNow.mode === "team" ? "a second person may approve" : "one person approves"})` : ""}: read the proposal again before approving. Nothing was recorded.`,
        { refusal: "POLICY_CHANGED" },
      );
    }
    const ids: number[] = [];
    for (const item of items) {
      const row = await tx.proposalAction.findUniqueOrThrow({
        where: { proposalId_index: { proposalId: proposal.id, index: item.index } },
        select: { id: true, status: true, action: true, approvals: { where: { withdrawnAt: null }, select: { id: true, userId: true, kind: true, dismissedAt: true } } },
      });
      if (row.status !== "pending") throw new AppError("CONFLICT", `action ${item.index + 1} is already ${row.status}`, { refusal: "NOT_PENDING" });
      // An edit that landed after the checks above: the approval was meant for the old text.
      if (JSON.stringify(JSON.parse(row.action)) !== JSON.stringify(item.action)) throw new AppError("CONFLICT", `action ${item.index + 1} was edited meanwhile: read it again before approving`, { refusal: "EDITED" });
      if (row.approvals.some((a) => a.kind === "reject")) throw new AppError("CONFLICT", `action ${item.index + 1} was vetoed meanwhile`, { refusal: "VETOED" });
      // My active approvals: one the evaluation above did not count (stale) is replaced; any
      // other (it counts, or another request of mine just made it) means I approved already.
      const notCounted = new Set(item.decisions.filter((d) => d.userId === actor.userId && !item.evaluation.approverIds.includes(d.userId)).map((d) => d.id));
      const mine = row.approvals.filter((a) => a.kind === "approve" && a.userId === actor.userId && a.dismissedAt === null);
      if (mine.some((a) => !notCounted.has(a.id))) throw new AppError("CONFLICT", `you have already approved action ${item.index + 1}`, { refusal: "ALREADY_APPROVED" });
      if (mine.length > 0) {
        await tx.approval.updateMany({ where: { id: { in: mine.map((a) => a.id) } }, data: { dismissedAt: new Date(), dismissedReason: "replaced by a new approval of the same person" } });
      }
      const created = await tx.approval.create({ data: { actionId: row.id, proposalId: proposal.id, userId: actor.userId, kind: "approve", reason, graphVersion: graph.currentVersion }, select: { id: true } });
      ids.push(created.id);
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
    return ids;
  }, LOCKING_TRANSACTION);
}

function samePolicy(a: ApprovalPolicy, b: ApprovalPolicy): boolean {
  return (Object.keys(a) as (keyof ApprovalPolicy)[]).every((key) => a[key] === b[key]) && Object.keys(a).length === Object.keys(b).length;
}
