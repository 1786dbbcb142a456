/**
 * One page of the review queue for GET /api/proposals: at most `limit` proposals (default 50,
 * at most 200), newest first, an opaque `nextCursor` for the page after, and a summary of
 * everything the filters match (so a client can show totals without loading every page; the
 * unpaginated list was 5 MB on a busy install).
 *
 * - `summary.total`: proposals matching all filters;
 * - `summary.byStatus`: proposals per status matching the other filters (counts for status tabs);
 * - `summary.byLabel`: actions per label (HIGH / MEDIUM / LOW) in the proposals matching all filters;
 * - `summary.byOrigin`: proposals per origin (person, agent, cli, campaign) matching the other filters;
 * - `summary.pendingActions` / `pendingByLabel`: pending actions (the queue's work) per label, in
 *   the proposals matching every filter but status (a pending action's proposal may be partially applied).
 * Every count is a GROUP BY in the database: no row is read to count it.
 */
import { AppError } from "../../errors";
import { getDb } from "../db/db";
import { getGraphRecord } from "../graphs";
import type { ProposalDetails, ProposalOrigin, ProposalStatus } from "./proposals";
import { PROPOSAL_ORIGINS, findProposals } from "./proposals";

export const DEFAULT_PROPOSAL_PAGE = 50;
export const MAX_PROPOSAL_PAGE = 200;

const STATUSES: ProposalStatus[] = ["pending", "applied", "partially_applied", "rejected"];
const LABELS = ["HIGH", "MEDIUM", "LOW"] as const;

export interface ProposalPage {
  proposals: ProposalDetails[];
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
  limit: number;
  summary: {
    total: number;
    byStatus: Record<ProposalStatus, number>;
    byLabel: Record<(typeof LABELS)[number], number>;
    byOrigin: Record<ProposalOrigin, number>;
    pendingActions: number;
    pendingByLabel: Record<(typeof LABELS)[number], number>;
  };
}

export interface FindProposalPageOptions {
  graph?: string;
  status?: ProposalStatus;
  runId?: string;
  /** Only proposals from this origin (person, agent, cli, campaign). */
  origin?: ProposalOrigin;
  cursor?: string;
  limit?: number;
}

interface Cursor {
  createdAt: Date;
  id: string;
}

export function encodeProposalCursor(proposal: { createdAt: string; id: string }): string {
  return Buffer.from(JSON.stringify([proposal.createdAt, proposal.id])).toString("base64url");
}

function decodeCursor(cursor: string): Cursor {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown[];
    const createdAt = new Date(String(at));
    if (typeof at === "string" && typeof id === "string" && id.length > 0 && !Number.isNaN(createdAt.getTime())) return { createdAt, id };
  } catch {
    // fall through to the error below
  }
  throw new AppError("INVALID_INPUT", "cursor is not one this server gave out: pass the nextCursor of the previous page as it was");
}

/** `maxLimit`: the largest page this caller allows (the queue's compact rows allow more than full proposals). */
export async function findProposalPage(options: FindProposalPageOptions, maxLimit = MAX_PROPOSAL_PAGE): Promise<ProposalPage> {
  const limit = options.limit ?? DEFAULT_PROPOSAL_PAGE;
  if (!Number.isInteger(limit) || limit < 1 || limit > maxLimit) throw new AppError("INVALID_INPUT", `limit must be a whole number from 1 to ${maxLimit}`);
  const after = options.cursor ? decodeCursor(options.cursor) : undefined;
  const rows = await findProposals({ graph: options.graph, status: options.status, runId: options.runId, origin: options.origin, after, take: limit + 1 });
  const proposals = rows.slice(0, limit);
  const last = proposals.at(-1);
  const nextCursor = rows.length > limit && last ? encodeProposalCursor(last) : null;

  const graphId = options.graph ? (await getGraphRecord(options.graph)).id : undefined;
  const base = { ...(graphId ? { graphId } : {}), ...(options.runId ? { runId: options.runId } : {}) };
  const scope = { ...base, ...(options.origin ? { origin: options.origin } : {}) };
  const matching = { ...scope, ...(options.status ? { status: options.status } : {}) };
  const db = getDb();
  const [statusRows, labelRows, originRows, pendingRows] = await Promise.all([
    db.proposal.groupBy({ by: ["status"], where: scope, _count: { _all: true } }),
    db.proposalAction.groupBy({ by: ["confidence"], where: { proposal: matching }, _count: { _all: true } }),
    db.proposal.groupBy({ by: ["origin"], where: { ...base, ...(options.status ? { status: options.status } : {}) }, _count: { _all: true } }),
    db.proposalAction.groupBy({ by: ["confidence"], where: { status: "pending", proposal: scope }, _count: { _all: true } }),
  ]);
  const byStatus = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<ProposalStatus, number>;
  for (const row of statusRows) if ((STATUSES as string[]).includes(row.status)) byStatus[row.status as ProposalStatus] = row._count._all;
  const byLabel = { HIGH: 0, MEDIUM: 0, LOW: 0 };
  for (const row of labelRows) if ((LABELS as readonly string[]).includes(row.confidence)) byLabel[row.confidence as keyof typeof byLabel] = row._count._all;
  const byOrigin = Object.fromEntries(PROPOSAL_ORIGINS.map((o) => [o, 0])) as Record<ProposalOrigin, number>;
  for (const row of originRows) if ((PROPOSAL_ORIGINS as readonly string[]).includes(row.origin)) byOrigin[row.origin as ProposalOrigin] = row._count._all;
  const pendingByLabel = { HIGH: 0, MEDIUM: 0, LOW: 0 };
  for (const row of pendingRows) if ((LABELS as readonly string[]).includes(row.confidence)) pendingByLabel[row.confidence as keyof typeof pendingByLabel] = row._count._all;
  const pendingActions = pendingRows.reduce((sum, row) => sum + row._count._all, 0);
  const total = options.status ? byStatus[options.status] : STATUSES.reduce((sum, s) => sum + byStatus[s], 0);
  return { proposals, nextCursor, limit, summary: { total, byStatus, byLabel, byOrigin, pendingActions, pendingByLabel } };
}
