/**
 * The audit log: who did what, when. Every run, approval, rejection, withdrawal, dismissal,
 * apply, revert, policy change, sign-in (and failed sign-in), account and token change is one
 * inserted row with a readable sentence. Pass the transaction that makes the change, so the
 * event exists exactly when the change does.
 */
import type { Actor } from "../../auth/permissions";
import { auditRow, recordAuditSql } from "./audit-sql";
import { getDb } from "../db/db";
import type { Prisma } from "../db/generated/prisma/client";
import type { SqlExecutor } from "../db/sql";
import type { AuditInput } from "./audit-actions";

export { AUDIT_ACTIONS } from "./audit-actions";
export type { AuditAction, AuditInput } from "./audit-actions";

/**
 * Insert one audit event; `tx` makes it part of the change's own transaction: a Prisma
 * transaction client, or sql.ts's executor inside `getSql().transaction` (raw-SQL writes).
 */
export async function recordAudit(actor: Actor, input: AuditInput, tx: Prisma.TransactionClient | SqlExecutor = getDb()): Promise<void> {

  // The raw path lives in audit-sql.ts, which an import worker loads without Prisma.
  if ("dialect" in tx) return recordAuditSql(tx, actor, input);
  await tx.auditEvent.create({ data: auditRow(actor, input) });
}
