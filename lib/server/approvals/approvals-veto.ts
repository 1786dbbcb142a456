/**
 * Vetoes and withdrawals. A reject is a veto: the action shows as rejected and nobody can
 * approve or apply it while any reject is active. A veto also dismisses the approvals given so
 * far — once it is withdrawn, people approve what they discussed again, and that completing
 * click applies (nothing else applies an action).
 *
 * Withdrawing: everyone may withdraw their own approval or veto while the action is not applied.
 * Admins may also withdraw someone else's veto (a person who left, a decision overtaken by an
 * edit); the audit log names both people. Nobody withdraws someone else's approval.
 */
import { canReject } from "../../auth/approval-policy";
import type { Actor } from "../../auth/permissions";
import { actorLabel } from "../../auth/permissions";
import { AppError } from "../../errors";
import { formatAction } from "../../loop/parse-output";
import { approvalTarget, outcomesOf, refusalError } from "./approvals";
import { LOCKING_TRANSACTION, lockActionRows } from "../db/action-row-locks";
import type { ActionOutcome } from "./approvals";
import { recordAudit } from "../audit";
import { getDb } from "../db/db";
import type { Prisma } from "../db/generated/prisma/client";
import type { ProposalDetails } from "../proposals";
import { getProposal } from "../proposals";

export interface DecisionResult {
  proposal: ProposalDetails;
  actions: ActionOutcome[];
}

/** pending while anything waits; otherwise applied / partially_applied / rejected. */
async function refreshProposalStatus(tx: Prisma.TransactionClient, proposalId: string): Promise<void> {
  const rows = await tx.proposalAction.findMany({ where: { proposalId }, select: { status: true } });
  const pending = rows.filter((r) => r.status === "pending").length;
  const applied = rows.filter((r) => r.status === "applied" || r.status === "skipped" || r.status === "obsolete").length;
  const status = pending > 0 ? (applied > 0 ? "partially_applied" : "pending") : applied > 0 ? (applied === rows.length ? "applied" : "partially_applied") : "rejected";
  await tx.proposal.update({ where: { id: proposalId }, data: { status } });
}

export async function rejectActions(options: { proposalId: string; actionIndexes: number[]; actor: Actor; reason?: string | null }): Promise<DecisionResult> {
  const { actor } = options;
  if (actor.kind !== "user") throw refusalError({ allowed: false, code: "NOT_A_PERSON", reason: actor.kind === "token" ? "API tokens cannot reject: a person must decide in the browser" : "vetoes need a signed-in person" });
  const indexes = [...new Set(options.actionIndexes)];
  if (indexes.length === 0) throw new AppError("INVALID_INPUT", "name the action(s) to reject");
  const proposal = await getProposal(options.proposalId);
  const items = indexes.map((i) => {
    const item = proposal.actions.find((a) => a.index === i);
    if (!item) throw new AppError("INVALID_INPUT", `proposal ${proposal.id} has no action ${i + 1}`);
    const verdict = canReject(actor, approvalTarget(proposal, item, actor), proposal.policy);
    if (!verdict.allowed) throw refusalError({ ...verdict, reason: `action ${i + 1}: ${verdict.reason}` });
    return item;
  });
  const reason = options.reason?.trim() ? options.reason.trim().slice(0, 2000) : null;
  await getDb().$transaction(async (tx) => {
    // Locked first: an approval racing this veto either committed before (and is dismissed
    // below) or waits and then finds the action rejected.
    await lockActionRows(
      tx,
      proposal.id,
      items.map((i) => i.index),
    );
    const graph = await tx.graph.findUniqueOrThrow({ where: { name: proposal.graph }, select: { currentVersion: true } });
    for (const item of items) {
      const row = await tx.proposalAction.findUniqueOrThrow({ where: { proposalId_index: { proposalId: proposal.id, index: item.index } }, select: { id: true, status: true } });
      if (row.status !== "pending" && row.status !== "rejected") throw new AppError("CONFLICT", `action ${item.index + 1} is already ${row.status}`, { refusal: "NOT_PENDING" });
      await tx.approval.updateMany({
        where: { actionId: row.id, kind: "approve", withdrawnAt: null, dismissedAt: null },
        data: { dismissedAt: new Date(), dismissedReason: `vetoed by ${actorLabel(actor)}` },
      });
      await tx.approval.updateMany({ where: { actionId: row.id, kind: "reject", userId: actor.userId, withdrawnAt: null }, data: { withdrawnAt: new Date() } });
      await tx.approval.create({ data: { actionId: row.id, proposalId: proposal.id, userId: actor.userId, kind: "reject", reason, graphVersion: graph.currentVersion } });
      await tx.proposalAction.update({ where: { id: row.id }, data: { status: "rejected" } });
      await recordAudit(
        actor,
        {
          action: "action.reject",
          summary: `vetoed ${formatAction(item.action)} on ${proposal.graph}${reason ? `: ${reason}` : ""}`,
          graphName: proposal.graph,
          targetType: "action",
          targetId: `${proposal.id}#${item.index}`,
          details: { proposalId: proposal.id, index: item.index, reason },
        },
        tx,
      );
    }
    await refreshProposalStatus(tx, proposal.id);
  }, LOCKING_TRANSACTION);
  const after = await getProposal(proposal.id);
  return { proposal: after, actions: outcomesOf(after) };
}

export async function withdrawDecision(options: { proposalId: string; actionIndex: number; actor: Actor; decisionId?: number }): Promise<DecisionResult> {
  const { actor } = options;
  if (actor.kind !== "user") throw refusalError({ allowed: false, code: "NOT_A_PERSON", reason: "only the person who decided can withdraw a decision" });
  const proposal = await getProposal(options.proposalId);
  const item = proposal.actions.find((a) => a.index === options.actionIndex);
  if (!item) throw new AppError("INVALID_INPUT", `proposal ${proposal.id} has no action ${options.actionIndex + 1}`);
  if (item.status !== "pending" && item.status !== "rejected") throw new AppError("CONFLICT", `action ${item.index + 1} is already ${item.status}: its decisions stand`);
  const active = item.decisions.filter((d) => d.withdrawnAt === null && !(d.kind === "approve" && d.dismissedAt !== null));
  const decision =
    options.decisionId !== undefined ? active.find((d) => d.id === options.decisionId) : ([...active].reverse().find((d) => d.userId === actor.userId) ?? undefined);
  if (!decision) throw new AppError("NOT_FOUND", options.decisionId !== undefined ? `no active decision ${options.decisionId} on action ${item.index + 1}` : `you have no active approval or veto on action ${item.index + 1}`);
  if (decision.userId !== actor.userId && !(decision.kind === "reject" && actor.role === "admin")) {
    throw new AppError("FORBIDDEN", "you can withdraw only your own decisions (admins may also withdraw a veto)", { refusal: "NOT_YOURS" });
  }
  const what = decision.kind === "reject" ? "veto" : "approval";
  await getDb().$transaction(async (tx) => {
    await lockActionRows(tx, proposal.id, [item.index]);
    const row = await tx.proposalAction.findUniqueOrThrow({ where: { proposalId_index: { proposalId: proposal.id, index: item.index } }, select: { id: true, status: true } });
    // An apply that committed since the read above: its decisions stand.
    if (row.status !== "pending" && row.status !== "rejected") throw new AppError("CONFLICT", `action ${item.index + 1} is already ${row.status}: its decisions stand`, { refusal: "NOT_PENDING" });
    const { count } = await tx.approval.updateMany({ where: { id: decision.id, withdrawnAt: null }, data: { withdrawnAt: new Date() } });
    if (count !== 1) throw new AppError("CONFLICT", `that ${what} was withdrawn meanwhile`);
    if (decision.kind === "reject") {
      const vetoes = await tx.approval.count({ where: { actionId: row.id, kind: "reject", withdrawnAt: null } });
      if (vetoes === 0 && row.status === "rejected") {
        await tx.proposalAction.update({ where: { id: row.id }, data: { status: "pending" } });
        await refreshProposalStatus(tx, proposal.id);
      }
    }
    await recordAudit(
      actor,
      {
        action: "action.withdraw",
        summary: `withdrew ${decision.userId === actor.userId ? "their" : `${decision.userName}'s`} ${what} of ${formatAction(item.action)} on ${proposal.graph}`,
        graphName: proposal.graph,
        targetType: "action",
        targetId: `${proposal.id}#${item.index}`,
        details: { proposalId: proposal.id, index: item.index, decisionId: decision.id, kind: decision.kind, of: decision.userName },
      },
      tx,
    );
  }, LOCKING_TRANSACTION);
  const after = await getProposal(proposal.id);
  return { proposal: after, actions: outcomesOf(after) };
}
