import { getDb } from "../db";

/** Sign out: the session row goes, so the cookie is worthless even if a copy survives. */
export async function deleteSession(options: { sessionId: string }): Promise<void> {
  await getDb().session.deleteMany({ where: { id: options.sessionId } });
}

/** Housekeeping on sign-in: expired sessions and login attempts older than a day. */
export async function deleteExpiredSessions(now = new Date()): Promise<void> {
  const db = getDb();
  await db.session.deleteMany({ where: { expiresAt: { lte: now } } });
  await db.loginAttempt.deleteMany({ where: { createdAt: { lt: new Date(now.getTime() - 24 * 60 * 60 * 1000) } } });
}
