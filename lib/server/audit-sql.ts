/**
 * An audit event written through the raw SQL executor, for changes committed there (a new graph
 * version): the event is part of the change's own transaction, as recordAudit is for Prisma's.
 */
import type { Actor } from "../auth/permissions";
import { accountIdOf, actorLabel } from "../auth/permissions";
import type { AuditInput } from "./audit";
import type { SqlExecutor } from "./sql";

export async function recordAuditSql(db: SqlExecutor, actor: Actor, input: AuditInput): Promise<void> {
  await db.execute(
    `INSERT INTO "AuditEvent" ("at", "actorKind", "actorId", "actorName", "action", "graphName", "targetType", "targetId", "summary", "details", "ip") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      new Date(),
      actor.kind,
      accountIdOf(actor),
      actorLabel(actor),
      input.action,
      input.graphName ?? null,
      input.targetType ?? null,
      input.targetId === undefined || input.targetId === null ? null : String(input.targetId),
      input.summary,
      input.details ? JSON.stringify(input.details) : null,
      input.ip ?? null,
    ],
  );
}
