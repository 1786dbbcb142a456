/**
 * The audit log's filters as query parameters, shared by GET /api/audit, GET /api/audit/export,
 * the /audit page (which writes them into links) and the OpenAPI document.
 */
import { z } from "zod";

const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

const text = (max: number) => z.preprocess(blankToUndefined, z.string().trim().min(1).max(max).optional());

/** An ISO date-time with offset, or a date (midnight UTC). */
const instant = z.preprocess(
  blankToUndefined,
  z
    .union([z.iso.datetime({ offset: true }), z.iso.date()])
    .transform((value) => new Date(value.length === 10 ? `${value}T00:00:00Z` : value))
    .optional(),
);

/** `action.approve`, or a prefix ending in a dot: `action.` matches every decision. */
export const AUDIT_ACTION_PATTERN = /^[a-z_]+(\.[a-z_]*)?$/;

export const auditFilterQuery = z.object({
  actor: text(200).describe("a username (their API tokens included), or an actor name such as `command line` or `system`"),
  action: z
    .preprocess(blankToUndefined, z.string().max(100).regex(AUDIT_ACTION_PATTERN).optional())
    .describe("an action such as `action.approve`, or a prefix ending in a dot: `action.`"),
  graph: text(200).describe("graph name"),
  targetType: text(50).describe("what the event concerns: proposal, action, run, version, user, token, policy, …"),
  targetId: text(200).describe("the id of what it concerns (with targetType)"),
  q: text(200).describe("text in the event's sentence"),
  from: instant.describe("events at or after this ISO date-time (or date, UTC midnight)"),
  to: instant.describe("events before this ISO date-time (or date, UTC midnight); exclusive"),
});

export const auditPageQuery = auditFilterQuery.extend({
  cursor: z.coerce.number().int().min(1).optional().describe("nextCursor of the previous page"),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

/** Events per page on the /audit page (the API allows up to 500). */
export const AUDIT_PAGE_SIZE = 100;

export type AuditFilter = z.output<typeof auditFilterQuery>;
export type AuditPageQuery = z.output<typeof auditPageQuery>;

/** The filter as URL query parameters (dates as ISO strings), e.g. for the export link. */
export function auditFilterParams(filter: AuditFilter): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) {
    if (value instanceof Date) params.set(key, value.toISOString());
    else if (typeof value === "string" && value !== "") params.set(key, value);
  }
  return params;
}
