/**
 * Login rate limit, kept in the database (LoginAttempt) so every app instance sees the same
 * count. Two limits:
 *
 * - per name, an exponential backoff: the first FREE_FAILURES failures in the window cost
 *   nothing, each one after that doubles the wait before the next try (1 s, 2 s, 4 s … capped
 *   at MAX_BACKOFF_MS), counted from the latest failure. A browser that signed in as this
 *   account before (device-cookie.ts) skips it, so someone guessing the password never locks
 *   the owner out of their own browser.
 * - per address, MAX_FAILURES_PER_IP failures in the window refuse further tries from it
 *   (also skipped by a known device). An unknown address (no peer seen, see request-info.ts)
 *   is not a key: requests without one must not all share one lockout.
 */
import { AppError } from "../../errors";
import { getDb } from "../db/db";

export const LOGIN_WINDOW_MS = 60 * 60 * 1000;
export const FREE_FAILURES = 5;
export const BASE_BACKOFF_MS = 1000;
export const MAX_BACKOFF_MS = 15 * 60 * 1000;
export const MAX_FAILURES_PER_IP = 20;
export const IP_WINDOW_MS = 15 * 60 * 1000;

/** The wait after `failures` failures in the window: 0 up to FREE_FAILURES, then doubling from BASE_BACKOFF_MS, capped. */
export function backoffMs(failures: number): number {
  if (failures < FREE_FAILURES) return 0;
  return Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** Math.min(30, failures - FREE_FAILURES));
}

function refuse(retryAfterMs: number, what: string): never {
  const retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  const when = retryAfterSeconds < 90 ? `${retryAfterSeconds} second(s)` : `${Math.ceil(retryAfterSeconds / 60)} minute(s)`;
  throw new AppError("RATE_LIMITED", `too many failed sign-ins ${what}; try again in ${when}`, { retryAfterSeconds });
}

/**
 * `attemptId`: this attempt's own row, recorded (as a failure) before the check and left out of
 * the count. Recording first is what makes the limit hold against parallel guesses: each one
 * sees every guess that started before it. `knownDevice`: the browser showed a valid device
 * cookie of this account.
 */
export async function checkLoginRateLimit(options: { username: string; ip: string; now?: Date; attemptId?: number; knownDevice?: boolean }): Promise<void> {
  if (options.knownDevice) return;
  const now = options.now ?? new Date();
  const db = getDb();
  const notThis = options.attemptId === undefined ? {} : { id: { not: options.attemptId } };
  const byName = await db.loginAttempt.findMany({
    where: { username: options.username, ok: false, createdAt: { gt: new Date(now.getTime() - LOGIN_WINDOW_MS) }, ...notThis },
    orderBy: { createdAt: "desc" },
    take: 40,
    select: { createdAt: true },
  });
  const latest = byName[0];
  const wait = backoffMs(byName.length);
  if (latest && wait > 0) {
    const retryAfterMs = latest.createdAt.getTime() + wait - now.getTime();
    if (retryAfterMs > 0) refuse(retryAfterMs, `for ${JSON.stringify(options.username)}`);
  }
  if (options.ip === "unknown") return;
  const byIp = await db.loginAttempt.findMany({
    where: { ip: options.ip, ok: false, createdAt: { gt: new Date(now.getTime() - IP_WINDOW_MS) }, ...notThis },
    orderBy: { createdAt: "desc" },
    take: MAX_FAILURES_PER_IP,
    select: { createdAt: true },
  });
  const oldest = byIp[MAX_FAILURES_PER_IP - 1];
  if (oldest) refuse(oldest.createdAt.getTime() + IP_WINDOW_MS - now.getTime(), "from your address");
}
