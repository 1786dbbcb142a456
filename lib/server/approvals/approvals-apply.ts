/**
 * The two ends of an approval that make sure no decision ends in a state nobody can leave
 * (issue 13 item 1):
 *
 * - before anything is recorded, `findApplyBlocker` plans each action as apply would (on the
 *   proposal's base version, checked against the current one) and refuses an action that cannot
 *   apply as written — an ambiguous name, a node or edge that is not there, a change already in
 *   the graph, a conflict with a later version — with the fix in the message;
 * - after it is recorded, `applySatisfiedActions` applies what the policy now allows; if that
 *   apply fails while the action stays pending and satisfied, the approvals this request made
 *   are rolled back (withdrawn, audited) and the request fails saying why, so an action is
 *   never left "satisfied but unapplied".
 *
 * Error codes (all `AppError`, `details.refusal` names the case):
 * - CONFLICT / CANNOT_APPLY, `details.cause`: AMBIGUOUS_NAME (edit the action to pick the node),
 *   NOT_APPLICABLE (edit it, or reject it), ALREADY_APPLIED (mark it obsolete / reject it),
 *   GRAPH_CHANGED (reject it / mark it obsolete and ask again on the current version);
 * - CONFLICT / APPLY_FAILED: the completing approval was rolled back (`details.rolledBack`).
 */
import type { Actor } from "../../auth/permissions";
import { actorLabel } from "../../auth/permissions";
import { findConflicts } from "../../changes/changeset";
import type { Plan } from "../../changes/plan-actions";
import { planActions } from "../../changes/plan-actions";
import type { KnowledgeGraph } from "../../graph/model";
import { AppError, isAppError } from "../../errors";
import { formatAction } from "../../loop/parse-output";
import { recordAudit } from "../audit";
import { getDb } from "../db/db";
import { getGraphRecord, runOnVersion } from "../graphs";
import type { ApplyProposalResult, ProposalActionItem, ProposalDetails } from "../proposals";
import { applyProposal, getProposal } from "../proposals";

export type ApplyBlockerCause = "AMBIGUOUS_NAME" | "NOT_APPLICABLE" | "ALREADY_APPLIED" | "GRAPH_CHANGED";

const FIX: Record<ApplyBlockerCause, string> = {
  AMBIGUOUS_NAME: "Edit the action to pick the node you mean (one of the qualified names above), or reject it.",
  NOT_APPLICABLE: "Edit the action so it names what is in the graph, or reject it.",
  ALREADY_APPLIED: "Nothing is left to approve: mark it obsolete (or reject it).",
  GRAPH_CHANGED: "Reject it or mark it obsolete, and use Ask again to get a proposal on the current version (an edit is still planned on the old one).",
};

function cannotApply(item: ProposalActionItem, cause: ApplyBlockerCause, why: string, currentVersion: number): AppError {
  return new AppError("CONFLICT", `Action ${item.index + 1} (${formatAction(item.action)}) cannot apply as written: ${why}. ${FIX[cause]} Nothing was recorded.`, {
    refusal: "CANNOT_APPLY",
    cause,
    index: item.index,
    currentVersion,
  });
}

/** planActions' refusal without its "action 1: " prefix (it numbers the one-action plan). */
function planMessage(error: AppError): string {
  return error.message.replace(/^action \d+: /, "");
}

/** Why applying these actions as written would fail, as the error to answer with; null when it would apply. */
export async function findApplyBlocker(proposal: ProposalDetails, items: readonly ProposalActionItem[]): Promise<AppError | null> {
  const record = await getGraphRecord(proposal.graph);
  const baseVersion = proposal.baseVersion;
  const currentVersion = record.currentVersion;
  // Each version is read once for all items: whole, or over SQL a partial graph of what the
  // plans read (graphs/on-version.ts). An item that did not parse is never planned.
  const planned = items.map((item) => ({ item, parsed: !item.review.warnings.some((w) => w.code === "UNPARSEABLE") }));
  const { result: onBase } = await runOnVersion(proposal.graph, baseVersion, (graph) => planned.map(({ item, parsed }) => (parsed ? planOutcome(graph, item) : null)));
  const plans = onBase.map((p) => (p && "plan" in p ? p.plan : null));
  const onCurrent =
    currentVersion === baseVersion
      ? null
      : (
          await runOnVersion(
            proposal.graph,
            currentVersion,
            (graph) =>
              planned.map(({ item }, i) => {
                const plan = plans[i];
                if (!plan) return null;
                return { conflicts: findConflicts(graph, plan.changeset), again: planOutcome(graph, item) };
              }),
            { changesets: plans.flatMap((p) => (p ? [p.changeset] : [])) },
          )
        ).result;
  for (const [i, item] of items.entries()) {
    // An entry that did not parse is stored as an empty placeholder (submit-proposal.ts): never planned.
    if (!planned[i]?.parsed) return cannotApply(item, "NOT_APPLICABLE", `it did not parse (${item.review.text})`, currentVersion);
    const outcome = onBase[i];
    if (outcome && "refused" in outcome) {
      if (outcome.refused.code !== "INVALID_INPUT") throw outcome.refused;
      const cause = /names several nodes/.test(outcome.refused.message) ? "AMBIGUOUS_NAME" : "NOT_APPLICABLE";
      return cannotApply(item, cause, planMessage(outcome.refused), currentVersion);
    }
    const plan = plans[i];
    const current = onCurrent?.[i];
    if (!plan || !current) continue;
    const { conflicts, again } = current;
    // Planned again on the current version: a no-op there (or its old node gone while the base
    // plan changes something) means another proposal already made this change.
    const onCurrentPlan = "plan" in again ? again.plan : null;
    const goneOnCurrent = "refused" in again && /^(no node named|there is no edge)/.test(planMessage(again.refused)) ? planMessage(again.refused) : null;
    const baseDoesSomething = plan.actions.some((a) => !a.skipped);
    if (baseDoesSomething && onCurrentPlan !== null && onCurrentPlan.actions.every((a) => a.skipped)) {
      return cannotApply(item, "ALREADY_APPLIED", `version ${currentVersion} already has this change`, currentVersion);
    }
    if (conflicts.length > 0 && goneOnCurrent) {
      return cannotApply(item, "ALREADY_APPLIED", `version ${currentVersion} no longer has what it removes or replaces (${goneOnCurrent})`, currentVersion);
    }
    if (conflicts.length > 0) {
      const first = conflicts
        .slice(0, 3)
        .map((c) => c.message)
        .join("; ");
      return cannotApply(item, "GRAPH_CHANGED", `the graph changed since version ${proposal.baseVersion} in what it touches (${first})`, currentVersion);
    }
  }
  return null;
}

/** One action planned alone, or the refusal of a plan that cannot be made (other errors are thrown). */
function planOutcome(graph: KnowledgeGraph, item: ProposalActionItem): { plan: Plan } | { refused: AppError } {
  try {
    return { plan: planActions({ graph, actions: [item.action], edgeKeyPrefix: "check." }) };
  } catch (error) {
    if (!isAppError(error)) throw error;
    return { refused: error };
  }
}

/** The approvals that count for an action now: the commit re-checks that each is still active. */
function countedApprovalIds(item: ProposalActionItem): number[] {
  return item.decisions
    .filter((d) => d.kind === "approve" && d.withdrawnAt === null && d.dismissedAt === null && d.ineligible === null && item.evaluation.approverIds.includes(d.userId))
    .map((d) => d.id);
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

export interface SatisfiedApplyResult {
  applied: ApplyProposalResult | null;
  /** Set when a concurrent decision (an edit, a veto, a withdrawal) made the apply moot: nothing is stuck. */
  applyError: { code: string; message: string } | null;
  after: ProposalDetails;
}

/**
 * Apply, as one changeset, every pending action of the proposal whose policy is satisfied.
 * `recorded` are the approvals this request just made: rolled back if the apply fails and would
 * otherwise leave an action satisfied but unapplied.
 */
export async function applySatisfiedActions(options: { proposalId: string; actor: Actor; recorded: number[] }): Promise<SatisfiedApplyResult> {
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
      // …and by whom: a withdrawal or dismissal landing before the commit refuses it too.
      expectedApprovals: ready.flatMap(countedApprovalIds),
      allowLowConfidence: ready.some((a) => a.confidence === "LOW"),
      lowConfidenceReason: lowReasonsOf(ready),
      actor: approvers.join(", ") || actorLabel(options.actor),
      auditActor: options.actor,
      approvedBy: approvers,
    });
    return { applied, applyError: null, after: await getProposal(proposal.id) };
  } catch (error) {
    const after = await getProposal(proposal.id);
    const stuck = ready.filter((r) => {
      const now = after.actions.find((a) => a.index === r.index);
      return now?.status === "pending" && now.evaluation.satisfied;
    });
    if (stuck.length === 0) {
      if (!isAppError(error) || error.code !== "CONFLICT") throw error;
      const stillPending = ready.filter((r) => after.actions.find((a) => a.index === r.index)?.status === "pending");
      // A concurrent completing approval applied them: that is success for this click too.
      if (stillPending.length === 0) return { applied: null, applyError: null, after };
      // An edit, veto or withdrawal won the race: the action waits for decisions again.
      return { applied: null, applyError: { code: error.code, message: error.message }, after };
    }
    const why = sentence(isAppError(error) ? error.message : "an internal error (see the server log)");
    if (!isAppError(error)) console.error("applying approved actions failed", error);
    const retryable = isAppError(error) && error.details.retryable === true;
    await rollBackApprovals({ proposal, ids: options.recorded, actor: options.actor, why });
    const what = stuck.map((s) => `action ${s.index + 1} (${formatAction(s.action)})`).join(", ");
    throw new AppError(
      "CONFLICT",
      `${options.recorded.length > 0 ? `Your approval was not kept: it completed the policy of ${what}` : `Nothing was applied: ${what} has the approvals it needs`}, but applying failed: ${why} ${
        retryable ? "Approve again in a moment." : "Edit the action, mark it obsolete or reject it: approving it as it is cannot succeed."
      }`,
      { refusal: "APPLY_FAILED", rolledBack: options.recorded.length > 0, retryable, cause: isAppError(error) ? error.code : "INTERNAL", indexes: stuck.map((s) => s.index) },
    );
  }
}

function sentence(text: string): string {
  const t = text.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

/** Withdraw the approvals a failed completing request made, each audited with the reason. */
async function rollBackApprovals(options: { proposal: ProposalDetails; ids: number[]; actor: Actor; why: string }): Promise<void> {
  if (options.ids.length === 0) return;
  await getDb().$transaction(async (tx) => {
    const rows = await tx.approval.findMany({ where: { id: { in: options.ids }, withdrawnAt: null }, select: { id: true, action: { select: { index: true, action: true } } } });
    for (const row of rows) {
      await tx.approval.update({ where: { id: row.id }, data: { withdrawnAt: new Date() } });
      await recordAudit(
        options.actor,
        {
          action: "action.withdraw",
          summary: `the approval of ${formatAction(JSON.parse(row.action.action) as ProposalActionItem["action"])} on ${options.proposal.graph} was rolled back because applying it failed: ${options.why}`,
          graphName: options.proposal.graph,
          targetType: "action",
          targetId: `${options.proposal.id}#${row.action.index}`,
          details: { proposalId: options.proposal.id, index: row.action.index, decisionId: row.id, kind: "approve", rolledBack: true, reason: options.why },
        },
        tx,
      );
    }
  });
}
