/**
 * The cap on open live-progress streams: each holds a connection and a listener for as long as
 * a run lasts, so without a cap 100 streams made every other request wait. Per account (tokens
 * count with their owner, so minting tokens does not widen it) and in total; past either the
 * open is refused with RATE_LIMITED (429 + Retry-After) and the browser falls back to polling.
 *
 *   REFINERY_EVENT_STREAMS_PER_USER  default 10
 *   REFINERY_EVENT_STREAMS_MAX       default 200
 */
import type { Actor } from "../../auth/permissions";
import { AppError } from "../../errors";

export const DEFAULT_EVENT_STREAMS_PER_USER = 10;
export const DEFAULT_EVENT_STREAMS_MAX = 200;
/** What Retry-After says: streams end with their run, so slots free up within seconds to minutes. */
const RETRY_AFTER_SECONDS = 10;

export interface EventStreamLimits {
  perUser: number;
  total: number;
}

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new AppError("CONFIG", `${name} must be a whole number of at least 1, not ${JSON.stringify(raw)}`);
  return value;
}

/** Read at each open, so a changed environment (and a test) takes effect without a restart. */
export function eventStreamLimits(): EventStreamLimits {
  return { perUser: positiveInt("REFINERY_EVENT_STREAMS_PER_USER", DEFAULT_EVENT_STREAMS_PER_USER), total: positiveInt("REFINERY_EVENT_STREAMS_MAX", DEFAULT_EVENT_STREAMS_MAX) };
}

const globalForStreams = globalThis as unknown as { refineryEventStreams?: Map<string, number> };
const openByKey = (globalForStreams.refineryEventStreams ??= new Map<string, number>());

function keyOf(actor: Actor): string {
  return actor.kind === "user" || actor.kind === "token" ? `account:${actor.userId}` : actor.kind;
}

export function openEventStreamCount(): number {
  let total = 0;
  for (const n of openByKey.values()) total += n;
  return total;
}

/**
 * Take a stream slot for `actor` or throw RATE_LIMITED. The returned release is idempotent:
 * call it on every way a stream ends (done, client gone, error).
 */
export function acquireEventStreamSlot(actor: Actor): () => void {
  const limits = eventStreamLimits();
  const key = keyOf(actor);
  const mine = openByKey.get(key) ?? 0;
  if (mine >= limits.perUser) {
    throw new AppError("RATE_LIMITED", `too many live-progress streams open for this account (${mine} of ${limits.perUser}); close one or poll GET /api/runs/{id}`, { retryAfterSeconds: RETRY_AFTER_SECONDS, limit: limits.perUser, scope: "user" });
  }
  const total = openEventStreamCount();
  if (total >= limits.total) {
    throw new AppError("RATE_LIMITED", `the server has the most live-progress streams it allows open (${limits.total}); try again shortly or poll GET /api/runs/{id}`, { retryAfterSeconds: RETRY_AFTER_SECONDS, limit: limits.total, scope: "total" });
  }
  openByKey.set(key, mine + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (openByKey.get(key) ?? 1) - 1;
    if (left > 0) openByKey.set(key, left);
    else openByKey.delete(key);
  };
}
