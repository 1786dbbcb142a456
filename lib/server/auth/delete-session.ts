import type { Actor } from "../../auth/permissions";
import { recordAudit } from "../audit";
import { getDb } from "../db/db";

/**
 * Sign out: the session row goes, so the cookie is worthless even if a copy survives. With
 * `actor`, the `auth.logout` event is written in the same transaction.
 */
export async function deleteSession(options: { sessionId: string; actor?: Actor; ip?: string | null }): Promise<void> {
  await getDb().$transaction(async (tx) => {
    await tx.session.deleteMany({ where: { id: options.sessionId } });
    if (options.actor) await recordAudit(options.actor, { action: "auth.logout", summary: "signed out", targetType: "session", ip: options.ip }, tx);
  });
}

/** Housekeeping on sign-in: expired sessions and login attempts older than a day. */
export async function deleteExpiredSessions(now = new Date()): Promise<void> {
  const db = getDb();
  await db.session.deleteMany({ where: { expiresAt: { lte: now } } });
  await db.loginAttempt.deleteMany({ where: { createdAt: { lt: new Date(now.getTime() - 24 * 60 * 60 * 1000) } } });
}
