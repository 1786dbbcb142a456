/**
 * Login rate limit, kept in the database (LoginAttempt) so every app instance sees the same
 * count: too many recent failures for one username, or from one address, refuse further tries
 * until the oldest counted failure leaves the window.
 */
import { AppError } from "../../errors";
import { getDb } from "../db";

export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILURES_PER_USERNAME = 5;
export const MAX_FAILURES_PER_IP = 20;

/**
 * `attemptId`: this attempt's own row, recorded (as a failure) before the check and left out of
 * the count. Recording first is what makes the limit hold against parallel guesses: each one
 * sees every guess that started before it, so at most the limit get to try a password.
 */
export async function checkLoginRateLimit(options: { username: string; ip: string; now?: Date; attemptId?: number }): Promise<void> {
  const now = options.now ?? new Date();
  const since = new Date(now.getTime() - LOGIN_WINDOW_MS);
  const db = getDb();
  const notThis = options.attemptId === undefined ? {} : { id: { not: options.attemptId } };
  const checks = [
    { where: { username: options.username, ok: false, createdAt: { gt: since }, ...notThis }, max: MAX_FAILURES_PER_USERNAME, what: `for ${JSON.stringify(options.username)}` },
    { where: { ip: options.ip, ok: false, createdAt: { gt: since }, ...notThis }, max: MAX_FAILURES_PER_IP, what: "from your address" },
  ];
  for (const check of checks) {
    const recent = await db.loginAttempt.findMany({ where: check.where, orderBy: { createdAt: "desc" }, take: check.max, select: { createdAt: true } });
    const oldest = recent[check.max - 1];
    if (oldest) {
      const retryAfterSeconds = Math.max(1, Math.ceil((oldest.createdAt.getTime() + LOGIN_WINDOW_MS - now.getTime()) / 1000));
      throw new AppError("RATE_LIMITED", `too many failed sign-ins ${check.what}; try again in ${Math.ceil(retryAfterSeconds / 60)} minute(s)`, { retryAfterSeconds });
    }
  }
}
