/**
 * The audit log: who did what, when. Every run, approval, rejection, withdrawal, dismissal,
 * apply, revert, policy change, sign-in (and failed sign-in), account and token change is one
 * inserted row with a readable sentence. Pass the transaction that makes the change, so the
 * event exists exactly when the change does.
 */
import type { Actor } from "../auth/permissions";
import { auditRow, recordAuditSql } from "./audit-sql";
import { getDb } from "./db";
import type { Prisma } from "./generated/prisma/client";
import type { SqlExecutor } from "./sql";

/** Every action name written to the log, with what it means (also the filter list of /audit). */
export const AUDIT_ACTIONS = {
  "auth.setup": "created the first admin account",
  "auth.login": "signed in",
  "auth.login_failed": "failed to sign in",
  "auth.logout": "signed out",
  "user.create": "created an account",
  "user.update": "changed an account",
  "token.create": "created an API token",
  "token.revoke": "revoked an API token",
  "graph.import": "imported a graph",
  "graph.rename": "renamed a graph",
  "graph.delete": "deleted a graph",
  "question.add": "queued questions",
  "run.start": "started a run",
  "run.finish": "a run finished (or failed)",
  "ask.start": "asked a graph a question",
  "ask.finish": "an ask finished (or failed)",
  "proposal.create": "submitted a proposal",
  "action.approve": "approved an action",
  "action.reject": "rejected (vetoed) an action",
  "action.withdraw": "withdrew a decision",
  "action.edit": "edited an action",
  "approval.dismiss": "dismissed a stale approval",
  "action.obsolete": "marked an action obsolete (a version made it moot)",
  "action.restore": "put an obsolete action back in the queue (a version undid what made it moot)",
  "comment.add": "commented",
  "changeset.apply": "applied a changeset",
  "changeset.revert": "reverted a version",
  "policy.update": "changed an approval policy",
  "policy.thresholds": "re-fitted or reset a graph's review thresholds",
  "settings.update": "changed settings",
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

export interface AuditInput {
  action: AuditAction;
  /** One readable sentence, e.g. `approved insert_edge("Client", "inherits", "BaseClient") (1 of 2)`. */
  summary: string;
  graphName?: string | null;
  targetType?: "proposal" | "action" | "run" | "version" | "user" | "token" | "policy" | "settings" | "graph" | "session" | "question" | "ask";
  targetId?: string | number | null;
  details?: Record<string, unknown>;
  ip?: string | null;
}

/**
 * Insert one audit event; `tx` makes it part of the change's own transaction: a Prisma
 * transaction client, or sql.ts's executor inside `getSql().transaction` (raw-SQL writes).
 */
export async function recordAudit(actor: Actor, input: AuditInput, tx: Prisma.TransactionClient | SqlExecutor = getDb()): Promise<void> {

  // The raw path lives in audit-sql.ts, which an import worker loads without Prisma.
  if ("dialect" in tx) return recordAuditSql(tx, actor, input);
  await tx.auditEvent.create({ data: auditRow(actor, input) });
}
