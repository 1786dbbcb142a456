/**
 * Approval policies per graph: read by anyone who can read the graph, changed only by admins.
 * A graph without a row uses DEFAULT_APPROVAL_POLICY. Every change is audited with the policy
 * before and after; turning separation of duties off (a one-person install) is named in the
 * summary so it stands out in the log.
 *
 * What applies is the policy in its mode (lib/auth/approval-policy.ts): solo while fewer than two
 * enabled accounts may approve, so a one-person install can approve its own runs; the stored
 * (team) rules from the moment a second approver exists. The mode is computed on every read,
 * never stored, so adding or disabling an account switches it without anyone saving a policy.
 */
import type { Actor } from "../../auth/permissions";
import { actorLabel, can } from "../../auth/permissions";
import type { ApprovalMode, ApprovalPolicy } from "../../auth/approval-policy";
import { DEFAULT_APPROVAL_POLICY, approvalMode, approvalPolicySchema, countApprovers, effectivePolicy } from "../../auth/approval-policy";
import { AppError } from "../../errors";
import { recordAudit } from "../audit";
import { getDb } from "../db/db";
import type { Prisma } from "../db/generated/prisma/client";
import { getGraphRecord } from "../graphs";

export interface GraphPolicy {
  graph: string;
  policy: ApprovalPolicy;
  /** False when the graph uses the defaults (no policy was ever saved). */
  isCustom: boolean;
  updatedAt: string | null;
  updatedBy: string | null;
  /** solo: fewer than two people may approve, so `effective` (not `policy`) applies. */
  mode: ApprovalMode;
  /** Enabled accounts that may approve under this policy. */
  approvers: number;
  /** The rules every approval is checked against now: `policy` in team mode. */
  effective: ApprovalPolicy;
}

/** The policy as it applies now, with the mode that made it so. */
export interface PolicyInEffect {
  /** What the checks use (lib/auth/approval-policy.ts effectivePolicy). */
  policy: ApprovalPolicy;
  stored: ApprovalPolicy;
  mode: ApprovalMode;
  approvers: number;
}

type PolicyRow = Prisma.ApprovalPolicyGetPayload<object>;

function toPolicy(row: PolicyRow | null): ApprovalPolicy {
  if (!row) return { ...DEFAULT_APPROVAL_POLICY };
  return approvalPolicySchema.parse({
    requiredHigh: row.requiredHigh,
    requiredMedium: row.requiredMedium,
    requiredLow: row.requiredLow,
    lowNeedsReason: row.lowNeedsReason,
    approverRole: row.approverRole,
    bulkHigh: row.bulkHigh,
    separateDuties: row.separateDuties,
  });
}

/** The policy of a graph by its id (defaults when none was saved); `tx` reads inside a transaction. */
export async function getPolicyForGraphId(graphId: string, tx: Prisma.TransactionClient = getDb()): Promise<ApprovalPolicy> {
  return toPolicy(await tx.approvalPolicy.findUnique({ where: { graphId } }));
}

function inEffect(stored: ApprovalPolicy, people: { role: string; disabledAt: Date | null }[]): PolicyInEffect {
  const accounts = people.map((p) => ({ role: p.role, disabled: p.disabledAt !== null }));
  const mode = approvalMode(stored, accounts);
  return { policy: effectivePolicy(stored, mode), stored, mode, approvers: countApprovers(stored, accounts) };
}

/** Accounts that might approve: viewers never count, so they are not even read. */
async function findPossibleApprovers(tx: Prisma.TransactionClient): Promise<{ role: string; disabledAt: Date | null }[]> {
  return tx.user.findMany({ where: { disabledAt: null, role: { in: ["admin", "reviewer"] } }, select: { role: true, disabledAt: true } });
}

/** The rules that apply to a graph's approvals now (its policy in solo or team mode). */
export async function getPolicyInEffect(graphId: string, tx: Prisma.TransactionClient = getDb()): Promise<PolicyInEffect> {
  const stored = await getPolicyForGraphId(graphId, tx);
  return inEffect(stored, await findPossibleApprovers(tx));
}

export async function getApprovalPolicy(options: { graph: string }): Promise<GraphPolicy> {
  const record = await getGraphRecord(options.graph);
  const [row, people] = await Promise.all([getDb().approvalPolicy.findUnique({ where: { graphId: record.id } }), findPossibleApprovers(getDb())]);
  const policy = toPolicy(row);
  const effect = inEffect(policy, people);
  return {
    graph: record.name,
    policy,
    isCustom: row !== null,
    updatedAt: row?.updatedAt.toISOString() ?? null,
    updatedBy: row?.updatedBy ?? null,
    mode: effect.mode,
    approvers: effect.approvers,
    effective: effect.policy,
  };
}

function describeChanges(before: ApprovalPolicy, after: ApprovalPolicy): string[] {
  const out: string[] = [];
  for (const key of Object.keys(after) as (keyof ApprovalPolicy)[]) {
    if (before[key] !== after[key]) out.push(`${key} ${String(before[key])} → ${String(after[key])}`);
  }
  return out;
}

export async function updateApprovalPolicy(options: { graph: string; actor: Actor; policy: ApprovalPolicy }): Promise<GraphPolicy> {
  if (options.actor.kind === "token" || !can(options.actor, "admin")) throw new AppError("FORBIDDEN", "only admins can change an approval policy");
  const policy = approvalPolicySchema.parse(options.policy);
  const record = await getGraphRecord(options.graph);
  const by = actorLabel(options.actor);
  await getDb().$transaction(async (tx) => {
    const before = await getPolicyForGraphId(record.id, tx);
    await tx.approvalPolicy.upsert({ where: { graphId: record.id }, create: { graphId: record.id, ...policy, updatedBy: by }, update: { ...policy, updatedBy: by } });
    const changes = describeChanges(before, policy);
    const dutiesOff = before.separateDuties && !policy.separateDuties;
    await recordAudit(
      options.actor,
      {
        action: "policy.update",
        summary: `${dutiesOff ? "turned separation of duties OFF and " : ""}changed the approval policy of ${record.name}: ${changes.length > 0 ? changes.join(", ") : "no change"}`,
        graphName: record.name,
        targetType: "policy",
        targetId: record.name,
        details: { before, after: policy },
      },
      tx,
    );
  });
  return getApprovalPolicy({ graph: record.name });
}
