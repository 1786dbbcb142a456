/**
 * Stale approvals: an approval stops counting once any node or edge its action touches changed
 * after it was given. `dismissStaleApprovals` runs after every committed changeset (apply or
 * revert) and marks them dismissed with the reason; `findStaleReason` answers the same question
 * at evaluation time, so a stale approval never counts even if that hook missed it.
 *
 * What an action touches is its own plan on the proposal's base version (the plan apply will
 * commit), so it is computed once per action and cached by the action row's update time.
 */
import { actorLabel } from "../../auth/permissions";
import type { Actor } from "../../auth/permissions";
import { SYSTEM_ACTOR } from "../../auth/permissions";
import type { Changeset } from "../../changes/changeset";
import { parseChangeset } from "../../changes/changeset";
import { planActions } from "../../changes/plan-actions";
import type { TouchedItems } from "../../changes/touched-items";
import { findTouchedItems, findTouchingChange } from "../../changes/touched-items";
import { formatAction } from "../../loop/parse-output";
import type { RefinementAction } from "../../loop/types";
import { recordAudit } from "../audit";
import { getDb } from "../db/db";
import { loadGraph } from "../graphs";

const globalCache = globalThis as unknown as { refineryTouchedCache?: Map<string, TouchedItems | null> };
const touchedCache = (globalCache.refineryTouchedCache ??= new Map<string, TouchedItems | null>());
const changesetCache = new Map<string, Changeset>();

interface ActionRef {
  id: number;
  graph: string;
  baseVersion: number;
  action: string;
  updatedAt: Date;
}

/** The items an action touches, or null when it cannot be planned (then apply refuses it anyway). */
async function touchedBy(ref: ActionRef): Promise<TouchedItems | null> {
  const key = `${ref.id}:${ref.updatedAt.getTime()}`;
  if (touchedCache.has(key)) return touchedCache.get(key) ?? null;
  let touched: TouchedItems | null = null;
  try {
    const base = await loadGraph(ref.graph, ref.baseVersion);
    const plan = planActions({ graph: base.graph, actions: [JSON.parse(ref.action) as RefinementAction], edgeKeyPrefix: "stale." });
    touched = findTouchedItems(plan.changeset);
  } catch {
    touched = null;
  }
  if (touchedCache.size > 5000) touchedCache.clear();
  touchedCache.set(key, touched);
  return touched;
}

async function changesetsAfter(graphId: string, version: number): Promise<{ version: number; changeset: Changeset }[]> {
  const rows = await getDb().changeset.findMany({ where: { graphId, version: { gt: version } }, orderBy: { version: "asc" }, select: { id: true, version: true, ops: true } });
  return rows.map((r) => {
    const key = `${graphId}:${r.id}`;
    let changeset = changesetCache.get(key);
    if (!changeset) {
      changeset = parseChangeset(r.ops);
      if (changesetCache.size > 500) changesetCache.clear();
      changesetCache.set(key, changeset);
    }
    return { version: r.version, changeset };
  });
}

/** Why an approval given at `graphVersion` no longer holds ("changed since approved: …"), or null. */
export async function findStaleReason(options: { graphId: string; action: ActionRef; graphVersion: number }): Promise<string | null> {
  const later = await changesetsAfter(options.graphId, options.graphVersion);
  if (later.length === 0) return null;
  const touched = await touchedBy(options.action);
  if (!touched) return null;
  for (const c of later) {
    const change = findTouchingChange(touched, c.changeset);
    if (change) return `changed since approved: ${change} in version ${c.version}`;
  }
  return null;
}

/**
 * Dismiss every active approval on a pending action of this graph that a later change made
 * stale; audited one event per dismissal. Returns how many were dismissed.
 */
export async function dismissStaleApprovals(options: { graph: string; actor?: Actor }): Promise<number> {
  const db = getDb();
  const graph = await db.graph.findUnique({ where: { name: options.graph }, select: { id: true, name: true, currentVersion: true } });
  if (!graph) return 0;
  const approvals = await db.approval.findMany({
    where: {
      kind: "approve",
      withdrawnAt: null,
      dismissedAt: null,
      graphVersion: { lt: graph.currentVersion },
      action: { status: "pending", proposal: { graphId: graph.id } },
    },
    include: { action: { select: { id: true, index: true, action: true, updatedAt: true, proposal: { select: { id: true, baseVersion: true } } } }, user: { select: { username: true } } },
  });
  let dismissed = 0;
  for (const a of approvals) {
    const reason = await findStaleReason({
      graphId: graph.id,
      graphVersion: a.graphVersion,
      action: { id: a.action.id, graph: graph.name, baseVersion: a.action.proposal.baseVersion, action: a.action.action, updatedAt: a.action.updatedAt },
    });
    if (!reason) continue;
    await db.$transaction(async (tx) => {
      const { count } = await tx.approval.updateMany({ where: { id: a.id, dismissedAt: null }, data: { dismissedAt: new Date(), dismissedReason: reason } });
      if (count !== 1) return;
      dismissed++;
      await recordAudit(
        options.actor ?? SYSTEM_ACTOR,
        {
          action: "approval.dismiss",
          summary: `dismissed ${a.user.username}'s approval of ${formatAction(JSON.parse(a.action.action) as RefinementAction)}: ${reason}`,
          graphName: graph.name,
          targetType: "action",
          targetId: `${a.action.proposal.id}#${a.action.index}`,
          details: { approvalId: a.id, reason, by: options.actor ? actorLabel(options.actor) : "system" },
        },
        tx,
      );
    });
  }
  return dismissed;
}

/** The hook commitChangeset calls: the version is committed already, so a failure here is only logged. */
export async function dismissStaleApprovalsAfterCommit(options: { graph: string }): Promise<void> {
  try {
    await dismissStaleApprovals(options);
  } catch (error) {
    console.error("dismissing stale approvals after a commit failed (evaluation re-checks them)", error);
  }
}
