/**
 * Stale approvals: an approval stops counting once any node or edge its action touches changed
 * after it was given. `dismissStaleApprovals` runs after every committed changeset (apply or
 * revert) and marks them dismissed with the reason; `findStaleReason` answers the same question
 * at evaluation time, so a stale approval never counts even if that hook missed it.
 *
 * Decided from stored data only, never by loading a version: what an action touches comes from
 * the names its review resolved on the proposal's base version plus a few indexed row look-ups
 * on that version (lib/changes/touched-items.ts findActionTouchedItems, held equal to planning
 * the action there), cached per action row and update time; what changed since comes from the
 * later changesets' ops, parsed once per changeset.
 */
import { actorLabel } from "../../auth/permissions";
import type { Actor } from "../../auth/permissions";
import { SYSTEM_ACTOR } from "../../auth/permissions";
import type { Changeset } from "../../changes/changeset";
import { parseChangeset } from "../../changes/changeset";
import type { BaseVersionRows, EdgeRef, TouchedItems } from "../../changes/touched-items";
import { findActionTouchedItems, findTouchingChange } from "../../changes/touched-items";
import { formatAction } from "../../loop/parse-output";
import type { RefinementAction } from "../../loop/types";
import type { ActionReview } from "../../review/types";
import { recordAudit } from "../audit";
import { getDb } from "../db/db";
import { getSql } from "../db/sql";

const globalCache = globalThis as unknown as { refineryTouchedCache?: Map<string, TouchedItems | null> };
const touchedCache = (globalCache.refineryTouchedCache ??= new Map<string, TouchedItems | null>());
const changesetCache = new Map<string, Changeset>();

interface ActionRef {
  id: number;
  graph: string;
  baseVersion: number;
  action: string;
  updatedAt: Date;
  /** The row's review JSON, when the caller has it (read otherwise). */
  review?: string;
}

/**
 * The base version's rows, read through the (graphId, nodeId / source / target) indexes. The
 * version filter is applied here, not in SQL: with it in the WHERE clause SQLite picked the
 * (graphId, validTo) index (dropped since) and scanned the live rows (500 approvals on MetaQA: 49 s
 * with it, 1.8 s without).
 */
function baseVersionRows(graphId: string, version: number): BaseVersionRows {
  const sql = getSql();
  type Versioned = { validFrom: number | string; validTo: number | string | null };
  const isLive = (r: Versioned) => Number(r.validFrom) <= version && (r.validTo === null || Number(r.validTo) > version);
  type EdgeRow = EdgeRef & Versioned & { ord: number | string; pk: number | string };
  const edges = async (where: string, params: string[]): Promise<EdgeRef[]> => {
    const rows = await sql.query<EdgeRow>(`SELECT "edgeKey" AS "key", "source", "target", "relation", "ord", "pk", "validFrom", "validTo" FROM "Edge" WHERE "graphId" = ? AND ${where}`, [graphId, ...params]);
    return rows
      .filter(isLive)
      .sort((a, b) => Number(a.ord) - Number(b.ord) || Number(a.pk) - Number(b.pk))
      .map((r) => ({ key: r.key, source: r.source, target: r.target, relation: r.relation }));
  };
  return {
    hasNode: async (id) => (await sql.query<Versioned>(`SELECT "validFrom", "validTo" FROM "Node" WHERE "graphId" = ? AND "nodeId" = ?`, [graphId, id])).some(isLive),
    edgesBetween: (source, target, relation) => edges(`"source" = ? AND "target" = ? AND "relation" = ?`, [source, target, relation]),
    incidentEdges: async (id) => {
      const [out, into] = await Promise.all([edges(`"source" = ?`, [id]), edges(`"target" = ?`, [id])]);
      return [...out, ...into.filter((e) => e.source !== id)];
    },
  };
}

/** An action row's touched items change only with the row (an edit re-reviews it). */
function touchedKey(graphId: string, ref: { id: number; updatedAt: Date }): string {
  return `${graphId}:${ref.id}:${ref.updatedAt.getTime()}`;
}

/** The items an action touches, or null when it cannot be planned (then apply refuses it anyway). */
async function touchedBy(graphId: string, ref: ActionRef): Promise<TouchedItems | null> {
  const key = touchedKey(graphId, ref);
  if (touchedCache.has(key)) return touchedCache.get(key) ?? null;
  let touched: TouchedItems | null = null;
  try {
    const review = ref.review ?? (await getDb().proposalAction.findUnique({ where: { id: ref.id }, select: { review: true } }))?.review;
    const resolved = review ? (JSON.parse(review) as Partial<ActionReview>).resolved : undefined;
    if (resolved) touched = await findActionTouchedItems({ action: JSON.parse(ref.action) as RefinementAction, resolved, rows: baseVersionRows(graphId, ref.baseVersion) });
  } catch {
    touched = null;
  }
  if (touchedCache.size > 5000) touchedCache.clear();
  touchedCache.set(key, touched);
  return touched;
}

interface LaterChange {
  version: number;
  changeset: Changeset;
}

/**
 * Each graph's changesets as (id, version), oldest first, kept up to the newest version read:
 * versions are only ever appended, so evaluating a page of approvals reads the list once, not
 * once per approval.
 */
const versionLists = new Map<string, { upTo: number; rows: { id: number; version: number }[] }>();

async function changesetVersions(graphId: string, version: number, currentVersion: number | undefined): Promise<{ id: number; version: number }[]> {
  const db = getDb();
  const known = versionLists.get(graphId);
  if (currentVersion === undefined || !known) {
    const rows = await db.changeset.findMany({ where: { graphId, version: { gt: version } }, orderBy: { version: "asc" }, select: { id: true, version: true } });
    return rows;
  }
  if (known.upTo < currentVersion) {
    const more = await db.changeset.findMany({ where: { graphId, version: { gt: known.upTo } }, orderBy: { version: "asc" }, select: { id: true, version: true } });
    known.rows.push(...more);
    known.upTo = Math.max(known.upTo, ...more.map((r) => r.version));
  }
  return known.rows.filter((r) => r.version > version && r.version <= currentVersion);
}

async function rememberVersions(graphId: string): Promise<void> {
  if (versionLists.has(graphId)) return;
  const rows = await getDb().changeset.findMany({ where: { graphId }, orderBy: { version: "asc" }, select: { id: true, version: true } });
  if (versionLists.size > 100) versionLists.clear();
  versionLists.set(graphId, { upTo: rows.at(-1)?.version ?? 0, rows });
}

/** The changesets after `version`, oldest first; ops are read and parsed once per changeset. */
async function changesetsAfter(graphId: string, version: number, currentVersion?: number): Promise<LaterChange[]> {
  const db = getDb();
  if (currentVersion !== undefined) await rememberVersions(graphId);
  const rows = await changesetVersions(graphId, version, currentVersion);
  if (changesetCache.size > 500) changesetCache.clear();
  const missing = rows.filter((r) => !changesetCache.has(`${graphId}:${r.id}`)).map((r) => r.id);
  if (missing.length > 0) {
    const loaded = await db.changeset.findMany({ where: { id: { in: missing } }, select: { id: true, ops: true } });
    for (const r of loaded) changesetCache.set(`${graphId}:${r.id}`, parseChangeset(r.ops));
  }
  return rows.flatMap((r) => {
    const changeset = changesetCache.get(`${graphId}:${r.id}`);
    return changeset ? [{ version: r.version, changeset }] : [];
  });
}

function staleReason(touched: TouchedItems, later: readonly LaterChange[], graphVersion: number): string | null {
  for (const c of later) {
    if (c.version <= graphVersion) continue;
    const change = findTouchingChange(touched, c.changeset);
    if (change) return `changed since approved: ${change} in version ${c.version}`;
  }
  return null;
}

/**
 * Why an approval given at `graphVersion` no longer holds ("changed since approved: …"), or null.
 * `currentVersion` (the graph's, as the caller read it) lets a page of evaluations share one
 * read of the graph's version list.
 */
export async function findStaleReason(options: { graphId: string; action: ActionRef; graphVersion: number; currentVersion?: number }): Promise<string | null> {
  if (options.currentVersion !== undefined && options.currentVersion <= options.graphVersion) return null;
  const later = await changesetsAfter(options.graphId, options.graphVersion, options.currentVersion);
  if (later.length === 0) return null;
  const touched = await touchedBy(options.graphId, options.action);
  return touched ? staleReason(touched, later, options.graphVersion) : null;
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
  if (approvals.length === 0) return 0;
  // One read of the later changesets for all of them, from the oldest approval's version on,
  // and one of the reviews of the actions not cached yet.
  const later = await changesetsAfter(graph.id, Math.min(...approvals.map((a) => a.graphVersion)));
  const uncached = [...new Set(approvals.filter((a) => !touchedCache.has(touchedKey(graph.id, a.action))).map((a) => a.action.id))];
  const reviews = new Map(
    uncached.length === 0 ? [] : (await db.proposalAction.findMany({ where: { id: { in: uncached } }, select: { id: true, review: true } })).map((r) => [r.id, r.review] as const),
  );
  let dismissed = 0;
  for (const a of approvals) {
    const ref = { id: a.action.id, graph: graph.name, baseVersion: a.action.proposal.baseVersion, action: a.action.action, updatedAt: a.action.updatedAt };
    const touched = await touchedBy(graph.id, { ...ref, review: reviews.get(a.action.id) });
    const reason = touched ? staleReason(touched, later, a.graphVersion) : null;
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
