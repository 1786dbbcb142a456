/**
 * Where each action of a proposal stands under its graph's approval policy: the decisions as
 * stored, turned into an evaluation that re-checks staleness (lib/server/policies/stale-approvals.ts),
 * so a stale approval never counts even if the dismissal after a commit was missed.
 */
import type { ActionEvaluation, ApprovalPolicy, Confidence, Decision } from "../../auth/approval-policy";
import { approverIneligibility, evaluateAction } from "../../auth/approval-policy";
import type { Prisma } from "../db/generated/prisma/client";
import { findStaleReason } from "./stale-approvals";

/** The Prisma include that brings an action's decisions with their people. */
export const decisionInclude = {
  approvals: { orderBy: { id: "asc" }, include: { user: { select: { username: true, displayName: true, role: true, disabledAt: true } } } },
} as const satisfies Prisma.ProposalActionInclude;

export type ActionWithDecisions = Prisma.ProposalActionGetPayload<{ include: typeof decisionInclude }>;

export interface DecisionView extends Decision {
  id: number;
}

/** Who may not approve this action under separation of duties (lib/auth/approval-policy.ts canApprove). */
export interface DutyConflicts {
  startedById: string | null;
  submittedById: string | null;
  editedByIds: readonly string[];
}

/**
 * Separation of duties, re-checked when counting: an approval given while the policy allowed it
 * (separateDuties off) stops counting once it is on again, like an approver who lost the role.
 */
function dutyConflict(userId: string, policy: ApprovalPolicy, conflicts: DutyConflicts | undefined): string | null {
  if (!policy.separateDuties || !conflicts) return null;
  if (conflicts.startedById === userId) return "no longer counts: they started the run that proposed this (separation of duties)";
  if (conflicts.submittedById === userId) return "no longer counts: they submitted this proposal (separation of duties)";
  if (conflicts.editedByIds.includes(userId)) return "no longer counts: they edited this action (separation of duties)";
  return null;
}

export function toDecisions(row: ActionWithDecisions, policy: ApprovalPolicy, conflicts?: DutyConflicts): DecisionView[] {
  return row.approvals.map((a) => ({
    id: a.id,
    userId: a.userId,
    userName: a.user.displayName || a.user.username,
    kind: a.kind === "reject" ? "reject" : "approve",
    reason: a.reason,
    graphVersion: a.graphVersion,
    createdAt: a.createdAt.toISOString(),
    withdrawnAt: a.withdrawnAt?.toISOString() ?? null,
    dismissedAt: a.dismissedAt?.toISOString() ?? null,
    dismissedReason: a.dismissedReason,
    ineligible:
      a.kind === "approve" ? (approverIneligibility({ role: a.user.role, disabled: a.user.disabledAt !== null }, policy) ?? dutyConflict(a.userId, policy, conflicts)) : null,
  }));
}

export interface EvaluatedAction {
  decisions: DecisionView[];
  evaluation: ActionEvaluation;
  /** Set when an approval of this pending action was dismissed because what it touches changed. */
  changedSinceApproved: string | null;
}

export async function evaluateActionRow(options: {
  policy: ApprovalPolicy;
  graph: { id: string; name: string; currentVersion: number };
  baseVersion: number;
  row: ActionWithDecisions;
  /** Separation of duties: these people's approvals do not count while the policy asks for it. */
  conflicts?: DutyConflicts;
}): Promise<EvaluatedAction> {
  const { row, graph } = options;
  const decisions = toDecisions(row, options.policy, options.conflicts);
  const stale = new Map<number, string>();
  for (const d of decisions) {
    if (d.kind !== "approve" || d.withdrawnAt !== null || d.dismissedAt !== null || d.graphVersion >= graph.currentVersion || row.status !== "pending") continue;
    const reason = await findStaleReason({
      graphId: graph.id,
      graphVersion: d.graphVersion,
      currentVersion: graph.currentVersion,
      action: { id: row.id, graph: graph.name, baseVersion: options.baseVersion, action: row.action, updatedAt: row.updatedAt, review: row.review },
    });
    if (reason) stale.set(d.id, reason);
  }
  const evaluation = evaluateAction(options.policy, { confidence: row.confidence as Confidence }, decisions, (d) => stale.get((d as DecisionView).id) ?? null);
  const changedSinceApproved = row.status === "pending" ? (evaluation.dismissed.find((x) => x.reason.startsWith("changed since approved"))?.reason ?? null) : null;
  return { decisions, evaluation, changedSinceApproved };
}
