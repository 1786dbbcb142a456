/**
 * Obsolete actions: after every committed version, a pending action that the version made moot
 * (lib/changes/find-moot-reason.ts: a copy of it from another run was applied, the edge it
 * inserts now exists, the edge it deletes is gone) leaves the queue as "obsolete", naming the
 * version; an obsolete action whose reason a later version undid (the apply was reverted) comes
 * back as pending. Only moot-by-a-version counts: an action that was already moot on its own
 * base is left to the review (it says "no change") and apply (it skips it).
 *
 * Runs after the commit, outside its transaction (like the stale-approval hook): each action
 * changes status with a conditional update, so a person deciding meanwhile wins.
 */
import type { Changeset } from "../../changes/changeset";
import { findMootReason, findTouchedNames, isConcernedBy } from "../../changes/find-moot-reason";
import type { KnowledgeGraph } from "../../graph/model";
import { SYSTEM_ACTOR } from "../../auth/permissions";
import { formatAction } from "../../loop/parse-output";
import type { RefinementAction } from "../../loop/types";
import { createNameResolver } from "../../review/resolve-action";
import { recordAudit } from "../audit";
import { getDb } from "../db/db";
import type { Prisma } from "../db/generated/prisma/client";
import { loadGraph } from "../graphs";
import type { SqlGraphSource } from "../graphs";
import { settleOnSql } from "../graphs";

export interface ObsoleteOutcome {
  /** `${proposalId}#${index}` of actions marked obsolete by this version. */
  obsoleted: string[];
  /** Actions back to pending because this version undid what made them moot. */
  restored: string[];
}

/** The rule of lib/server/approvals/approvals-veto.ts refreshProposalStatus, with obsolete counted as done without a change (like skipped). */
async function refreshProposalStatus(tx: Prisma.TransactionClient, proposalId: string): Promise<void> {
  const rows = await tx.proposalAction.findMany({ where: { proposalId }, select: { status: true } });
  const pending = rows.filter((r) => r.status === "pending").length;
  const done = rows.filter((r) => r.status === "applied" || r.status === "skipped" || r.status === "obsolete").length;
  const status = pending > 0 ? (done > 0 ? "partially_applied" : "pending") : done > 0 ? (done === rows.length ? "applied" : "partially_applied") : "rejected";
  await tx.proposal.update({ where: { id: proposalId }, data: { status } });
}

/** Two stored versions retrieved through SQL (graphs over REFINERY_SQL_RETRIEVAL_EDGES): the check reads partial graphs of them. */
export interface SqlVersionPair {
  before: SqlGraphSource;
  after: SqlGraphSource;
}

export async function markObsoleteActions(options: { graph: string; version: number; changeset: Changeset; before: KnowledgeGraph; sql?: SqlVersionPair }): Promise<ObsoleteOutcome> {
  const db = getDb();
  const outcome: ObsoleteOutcome = { obsoleted: [], restored: [] };
  const record = await db.graph.findUnique({ where: { name: options.graph }, select: { id: true } });
  if (!record) return outcome;
  const rows = await db.proposalAction.findMany({
    where: { proposal: { graphId: record.id }, OR: [{ status: "pending" }, { status: "obsolete", obsoleteIn: { not: null } }] },
    select: { id: true, proposalId: true, index: true, action: true, status: true, obsoleteIn: true },
  });
  // `before` holds every node the changeset touches (on SQL, the commit's partial graph holds them).
  const touched = findTouchedNames({ changeset: options.changeset, before: options.before });
  const concerned = rows.map((row) => ({ row, action: JSON.parse(row.action) as RefinementAction })).filter((c) => isConcernedBy(c.action, touched));
  // Loaded only now: a big graph is not cached after its commit, and most commits concern no other action.
  if (concerned.length === 0) return outcome;
  const reasonsOn = (graph: KnowledgeGraph, actions: RefinementAction[]) => {
    const resolve = createNameResolver({ graph });
    return actions.map((action) => findMootReason({ graph, action, resolve }));
  };
  // Over SQL each version is a partial graph holding what the actions' names and edges read.
  const reasons = async (which: "before" | "after", actions: RefinementAction[]): Promise<(string | null)[]> => {
    if (actions.length === 0) return [];
    if (options.sql) {
      return (await settleOnSql(options.sql[which], (graph) => reasonsOn(graph, actions))).result;
    }
    return reasonsOn(which === "before" ? options.before : (await loadGraph(options.graph, options.version)).graph, actions);
  };
  const nowReasons = await reasons("after", concerned.map((c) => c.action));
  // The version before is read only for pending actions moot now: was it moot already?
  const asked = concerned.flatMap((c, i) => (c.row.status === "pending" && nowReasons[i] !== null ? [i] : []));
  const beforeReasons = new Map<number, string | null>();
  const answered = await reasons("before", asked.map((i) => (concerned[i] as (typeof concerned)[number]).action));
  asked.forEach((i, j) => beforeReasons.set(i, answered[j] ?? null));
  for (const [i, { row, action }] of concerned.entries()) {
    const now = nowReasons[i] ?? null;
    const target = `${row.proposalId}#${row.index}`;
    if (row.status === "pending") {
      if (now === null || beforeReasons.get(i) !== null) continue;
      const reason = `${now} since version ${options.version}`;
      const marked = await db.$transaction(async (tx) => {
        const { count } = await tx.proposalAction.updateMany({ where: { id: row.id, status: "pending" }, data: { status: "obsolete", obsoleteIn: options.version, obsoleteReason: reason } });
        if (count !== 1) return false;
        await refreshProposalStatus(tx, row.proposalId);
        await recordAudit(
          SYSTEM_ACTOR,
          { action: "action.obsolete", summary: `marked ${formatAction(action)} on ${options.graph} obsolete: ${reason}`, graphName: options.graph, targetType: "action", targetId: target, details: { version: options.version, reason } },
          tx,
        );
        return true;
      });
      if (marked) outcome.obsoleted.push(target);
    } else if (now === null) {
      const restored = await db.$transaction(async (tx) => {
        const { count } = await tx.proposalAction.updateMany({ where: { id: row.id, status: "obsolete" }, data: { status: "pending", obsoleteIn: null, obsoleteReason: null } });
        if (count !== 1) return false;
        await refreshProposalStatus(tx, row.proposalId);
        await recordAudit(
          SYSTEM_ACTOR,
          {
            action: "action.restore",
            summary: `put ${formatAction(action)} on ${options.graph} back in the queue: version ${options.version} undid what made it obsolete in version ${row.obsoleteIn}`,
            graphName: options.graph,
            targetType: "action",
            targetId: target,
            details: { version: options.version, obsoleteIn: row.obsoleteIn },
          },
          tx,
        );
        return true;
      });
      if (restored) outcome.restored.push(target);
    }
  }
  return outcome;
}

/**
 * Up to this many edges commitChangeset keeps the new version in memory, so the check is quick
 * and the request waits for it; above, loading the new version costs seconds (7 s at 128k edges),
 * so the check runs after the response and copies turn obsolete a moment later.
 */
const AWAIT_MAX_EDGES = 50_000;

/** The hook commitChangeset calls: the version is committed already, so a failure here is only logged. */
export async function markObsoleteActionsAfterCommit(options: { graph: string; version: number; changeset: Changeset; before: KnowledgeGraph; sql?: SqlVersionPair }): Promise<void> {
  const check = markObsoleteActions(options).catch((error: unknown) => {
    console.error("marking obsolete actions after a commit failed (they stay pending; apply skips what is already done)", error);
  });
  // Over SQL the check reads a few rows, not a version: the request waits for it as on a small graph.
  if (options.sql || options.before.edges.size <= AWAIT_MAX_EDGES) await check;
}
