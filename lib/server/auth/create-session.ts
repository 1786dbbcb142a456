import { getDb } from "../db/db";
import type { Prisma } from "../db/generated/prisma/client";
import { randomSecret, sha256Hex } from "./secrets";
import { SESSION_TTL_MS } from "./session-cookies";
import type { SessionCookieValues } from "./session-cookies";

export interface CreateSessionOptions {
  userId: string;
  ip?: string | null;
  userAgent?: string | null;
  now?: Date;
  /** The transaction the session is part of (sign-in writes its audit event with it). */
  tx?: Prisma.TransactionClient;
}

/** A new browser session: the secret goes into the cookie, only its SHA-256 into the database. */
export async function createSession(options: CreateSessionOptions): Promise<SessionCookieValues & { sessionId: string }> {
  const now = options.now ?? new Date();
  const secret = randomSecret(32);
  const csrfToken = randomSecret(32);
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  const sessionId = sha256Hex(secret);
  await (options.tx ?? getDb()).session.create({
    data: { id: sessionId, userId: options.userId, csrfToken, createdAt: now, lastSeenAt: now, expiresAt, ip: options.ip ?? null, userAgent: options.userAgent ?? null },
  });
  return { secret, csrfToken, expiresAt, sessionId };
}
