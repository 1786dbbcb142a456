/**
 * An audit event written through the raw SQL executor, for changes committed there (a new graph
 * version, an import in its worker): the event is part of the change's own transaction.
 * `recordAudit` (audit.ts) takes either transaction and comes here for the raw one; this module
 * imports no Prisma, so an import worker can load it.
 */
import type { Actor } from "../../auth/permissions";
import { accountIdOf, actorLabel } from "../../auth/permissions";
import type { AuditInput } from "./audit-actions";
import type { SqlExecutor } from "../db/sql";

/** The row of an audit event (the Prisma and the raw path write the same). */
export function auditRow(actor: Actor, input: AuditInput) {
  return {
    actorKind: actor.kind,
    actorId: accountIdOf(actor),
    actorName: actorLabel(actor),
    action: input.action,
    graphName: input.graphName ?? null,
    targetType: input.targetType ?? null,
    targetId: input.targetId === undefined || input.targetId === null ? null : String(input.targetId),
    summary: input.summary,
    details: input.details ? JSON.stringify(input.details) : null,
    ip: input.ip ?? null,
  };
}

export async function recordAuditSql(db: SqlExecutor, actor: Actor, input: AuditInput): Promise<void> {
  const row = auditRow(actor, input);
  const columns = ["at", ...Object.keys(row)];
  await db.execute(`INSERT INTO "AuditEvent" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`, [new Date(), ...Object.values(row)]);
}
