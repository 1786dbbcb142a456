/**
 * Response bodies of the audit log endpoints, for the OpenAPI document (see openapi-schemas.ts
 * for the rules; find-audit-events.test.ts and openapi.test.ts check the shapes).
 */
import { z } from "zod";

export const AuditEvent = z.object({
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

export const AuditEventPage = z.object({
  events: z.array(AuditEvent),
  nextCursor: z.number().int().nullable().describe("pass as cursor for the next (older) page; null on the last page"),
});
