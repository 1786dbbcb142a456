/**
 * The signed-in person behind a session cookie, or null. Expired sessions are deleted when
 * met; sessions of a disabled account never authenticate.
 */
import type { Actor } from "../../auth/permissions";
import { getDb } from "../db/db";
import { roleSchema } from "./account-fields";
import { sha256Hex } from "./secrets";
import { touchLater } from "./touch-later";

export type SessionActor = Extract<Actor, { kind: "user" }> & { csrfToken: string; expiresAt: Date };

/** lastSeenAt is informational: write it at most once a minute, not on every request. */
const TOUCH_AFTER_MS = 60_000;

export async function getSessionActor(options: { secret: string; now?: Date }): Promise<SessionActor | null> {
  if (!options.secret || options.secret.length > 200) return null;
  const now = options.now ?? new Date();
  const db = getDb();
  const id = sha256Hex(options.secret);
  const session = await db.session.findUnique({
    where: { id },
    select: { id: true, csrfToken: true, expiresAt: true, lastSeenAt: true, user: { select: { id: true, username: true, displayName: true, role: true, disabledAt: true } } },
  });
  if (!session) return null;
  if (session.expiresAt.getTime() <= now.getTime()) {
    await db.session.deleteMany({ where: { id } });
    return null;
  }
  if (session.user.disabledAt) return null;
  // Not awaited (touch-later.ts): an import holding SQLite's write lock must not hold the request.
  if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_AFTER_MS) touchLater(`session ${id}`, () => db.session.updateMany({ where: { id }, data: { lastSeenAt: now } }));
  return {
    kind: "user",
    userId: session.user.id,
    username: session.user.username,
    displayName: session.user.displayName,
    role: roleSchema.parse(session.user.role),
    sessionId: session.id,
    csrfToken: session.csrfToken,
    expiresAt: session.expiresAt,
  };
}
