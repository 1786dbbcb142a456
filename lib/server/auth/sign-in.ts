/**
 * Sign in with a username and password: rate-limited (a per-name backoff that a browser which
 * signed in as this account before skips, and a per-address limit), every attempt recorded
 * (LoginAttempt for the limit, AuditEvent for people), the same answer and about the same time
 * for an unknown name, a wrong password and a disabled account.
 */
import { SYSTEM_ACTOR } from "../../auth/permissions";
import type { Actor } from "../../auth/permissions";
import { AppError } from "../../errors";
import { recordAudit } from "../audit";
import { getDb } from "../db/db";
import { roleSchema } from "./account-fields";
import { checkLoginRateLimit } from "./check-login-rate-limit";
import { createSession } from "./create-session";
import { deleteExpiredSessions } from "./delete-session";
import { createDeviceToken, isKnownDevice } from "./device-cookie";
import { getDummyHash, verifyPassword } from "./passwords";
import type { SessionCookieValues } from "./session-cookies";

export interface SignInOptions {
  username: string;
  password: string;
  ip: string;
  userAgent?: string | null;
  /** The browser's device cookie (device-cookie.ts), if it sent one. */
  deviceToken?: string | null;
}

export interface SignedIn {
  actor: Extract<Actor, { kind: "user" }>;
  cookies: SessionCookieValues;
  /** A fresh device cookie for this browser. */
  deviceToken: string;
}

export async function signIn(options: SignInOptions): Promise<SignedIn> {
  const username = options.username.trim().toLowerCase().slice(0, 100);
  const db = getDb();
  // Counted as a failure until the password proves right, so parallel guesses see each other.
  const attempt = await db.loginAttempt.create({ data: { username, ip: options.ip, ok: false }, select: { id: true } });
  const owner = await db.user.findUnique({ where: { username }, select: { id: true } });
  const knownDevice = owner ? await isKnownDevice(options.deviceToken ?? null, owner.id) : false;
  try {
    await checkLoginRateLimit({ username, ip: options.ip, attemptId: attempt.id, knownDevice });
  } catch (error) {
    await db.loginAttempt.deleteMany({ where: { id: attempt.id } });
    throw error;
  }
  const user = await db.user.findUnique({ where: { username }, select: { id: true, username: true, displayName: true, role: true, passwordHash: true, disabledAt: true } });
  const isPasswordRight = await verifyPassword(options.password, user?.passwordHash ?? (await getDummyHash()));
  if (!user || !isPasswordRight || user.disabledAt) {
    const why = !user ? "no such account" : !isPasswordRight ? "wrong password" : "account disabled";
    await recordAudit(SYSTEM_ACTOR, {
      action: "auth.login_failed",
      summary: `failed sign-in as ${JSON.stringify(options.username.slice(0, 100))}: ${why}`,
      targetType: "user",
      targetId: user?.id ?? null,
      details: { username: options.username.slice(0, 100), reason: why },
      ip: options.ip,
    });
    throw new AppError("UNAUTHENTICATED", "wrong username or password");
  }
  await deleteExpiredSessions();
  // The session, the attempt's success and the audit event exist together or not at all.
  const { actor, session } = await db.$transaction(async (tx) => {
    await tx.loginAttempt.update({ where: { id: attempt.id }, data: { ok: true } });
    const session = await createSession({ userId: user.id, ip: options.ip, userAgent: options.userAgent, tx });
    const actor = { kind: "user" as const, userId: user.id, username: user.username, displayName: user.displayName, role: roleSchema.parse(user.role), sessionId: session.sessionId };
    await recordAudit(actor, { action: "auth.login", summary: knownDevice ? "signed in (known browser)" : "signed in", targetType: "session", ip: options.ip }, tx);
    return { actor, session };
  });
  return { actor, cookies: session, deviceToken: await createDeviceToken(user.id) };
}
