/**
 * The request contracts of the audit routes (the filters are the pure lib/audit/audit-query.ts,
 * shared with the /audit page) and their response schemas (find-audit-events.test.ts and
 * openapi.test.ts check the shapes).
 */
import { z } from "zod";
import { auditFilterQuery, auditPageQuery } from "../../audit/audit-query";
import type { RequestContract } from "../../api/contract";

export const auditContract = {
  findAuditEvents: { query: auditPageQuery },
  exportAuditEvents: { query: auditFilterQuery },
} satisfies Record<string, RequestContract>;

const AuditEvent = z.object({
  id: z.number().int(),
  at: z.string().describe("ISO 8601 date-time (UTC)"),
  actorKind: z.enum(["user", "token", "cli", "system"]).describe("a person in a browser, an API token, the command line, or the server itself"),
  actorId: z.string().nullable().describe("the account behind a user or token"),
  actorName: z.string(),
  action: z.string().describe("e.g. action.approve, changeset.apply, auth.login_failed"),
  graphName: z.string().nullable(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  summary: z.string().describe("one readable sentence"),
  details: z.record(z.string(), z.unknown()).nullable(),
  ip: z.string().nullable().optional().describe("administrators only"),
});

const AuditEventPage = z.object({
  events: z.array(AuditEvent),
  nextCursor: z.number().int().nullable().describe("pass as cursor for the next (older) page; null on the last page"),
});

/** Response schemas of the audit routes, registered as components of the OpenAPI document. */
export const auditResponses = { AuditEvent, AuditEventPage };
