/**
 * Reading the audit log: filtered, newest first, in pages (keyset on (at, id), so a page is
 * stable while new events arrive). Filters: actor (a username covers that person's sessions and
 * tokens), action or action prefix (`action.`), graph, target, text in the sentence, time range.
 */
import type { AuditFilter } from "../../audit/audit-query";
import type { AuditActorKind, AuditEventPage, AuditEventView } from "../../audit/types";
import { AppError } from "../../errors";
import { getDb } from "../db/db";
import type { Prisma } from "../db/generated/prisma/client";

export const AUDIT_PAGE_MAX = 500;

export interface FindAuditEventsOptions extends AuditFilter {
  /** nextCursor of the previous page: only older events. */
  cursor?: number;
  /** 1 to 500; default 100. */
  limit?: number;
  /** IP addresses are personal data: only administrators see them. */
  includeIp?: boolean;
}

const AUDIT_SELECT = {
  id: true,
  at: true,
  actorKind: true,
  actorId: true,
  actorName: true,
  action: true,
  graphName: true,
  targetType: true,
  targetId: true,
  summary: true,
  details: true,
  ip: true,
} satisfies Prisma.AuditEventSelect;

type AuditRow = Prisma.AuditEventGetPayload<{ select: typeof AUDIT_SELECT }>;

const ACTOR_KINDS = new Set<string>(["user", "token", "cli", "system"]);

function parseDetails(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
  } catch {
    return { text };
  }
}

export function toAuditEventView(row: AuditRow, includeIp: boolean): AuditEventView {
  const view: AuditEventView = {
    id: row.id,
    at: row.at.toISOString(),
    actorKind: (ACTOR_KINDS.has(row.actorKind) ? row.actorKind : "system") as AuditActorKind,
    actorId: row.actorId,
    actorName: row.actorName,
    action: row.action,
    graphName: row.graphName,
    targetType: row.targetType,
    targetId: row.targetId,
    summary: row.summary,
    details: parseDetails(row.details),
  };
  if (includeIp) view.ip = row.ip;
  return view;
}

/**
 * `alice` means every event of the account alice (browser and tokens: matched by account id,
 * so a later change of display name does not hide older events); anything else is an exact
 * actor name, and `cli` / `system` the kind.
 */
async function actorCondition(actor: string): Promise<Prisma.AuditEventWhereInput> {
  const user = await getDb().user.findUnique({ where: { username: actor.toLowerCase() }, select: { id: true } });
  const or: Prisma.AuditEventWhereInput[] = [{ actorName: actor }];
  if (user) or.push({ actorId: user.id });
  if (actor === "cli" || actor === "system") or.push({ actorKind: actor });
  return { OR: or };
}

/** The filter as a Prisma condition (AND of whichever filters are set). */
export async function auditWhere(filter: AuditFilter): Promise<Prisma.AuditEventWhereInput> {
  const and: Prisma.AuditEventWhereInput[] = [];
  if (filter.actor) and.push(await actorCondition(filter.actor));
  if (filter.action) and.push(filter.action.endsWith(".") ? { action: { startsWith: filter.action } } : { action: filter.action });
  if (filter.graph) and.push({ graphName: filter.graph });
  if (filter.targetType) and.push({ targetType: filter.targetType });
  if (filter.targetId) and.push({ targetId: filter.targetId });
  // Case-insensitive for ASCII on SQLite (LIKE); PostgreSQL's LIKE is case-sensitive.
  if (filter.q) and.push({ summary: { contains: filter.q } });
  if (filter.from) and.push({ at: { gte: filter.from } });
  if (filter.to) and.push({ at: { lt: filter.to } });
  return { AND: and };
}

/** Events strictly older than the cursor event in (at desc, id desc) order. */
async function olderThan(cursor: number): Promise<Prisma.AuditEventWhereInput> {
  const row = await getDb().auditEvent.findUnique({ where: { id: cursor }, select: { at: true } });
  if (!row) throw new AppError("INVALID_INPUT", `cursor ${cursor} is not an audit event`);
  return { OR: [{ at: { lt: row.at } }, { at: row.at, id: { lt: cursor } }] };
}

/** One page of rows in (at desc, id desc) order after the keyset condition. */
export async function findAuditRows(where: Prisma.AuditEventWhereInput, limit: number): Promise<AuditRow[]> {
  return getDb().auditEvent.findMany({ where, orderBy: [{ at: "desc" }, { id: "desc" }], take: limit, select: AUDIT_SELECT });
}

/** A page of events, newest first, and the cursor of the next (older) page. */
export async function findAuditEvents(options: FindAuditEventsOptions = {}): Promise<AuditEventPage> {
  const limit = Math.min(Math.max(Math.trunc(options.limit ?? 100), 1), AUDIT_PAGE_MAX);
  const conditions = [await auditWhere(options)];
  if (options.cursor !== undefined) conditions.push(await olderThan(options.cursor));
  const rows = await findAuditRows({ AND: conditions }, limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    events: page.map((row) => toAuditEventView(row, options.includeIp === true)),
    nextCursor: rows.length > limit && last ? last.id : null,
  };
}
