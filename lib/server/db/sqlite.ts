/**
 * The raw better-sqlite3 connection behind the SQLite side of sql.ts (bulk import, whole-version
 * reads, commits), and the one write path it shares with Prisma's connection. Use `getSql()`
 * from sql.ts instead: code written against it runs on PostgreSQL too. Both connections use
 * WAL, so readers never block the writer.
 *
 * better-sqlite3 runs on the calling thread: a busy timeout makes it *sleep* there until the
 * other writer lets go, which on the server's event loop freezes every request (and, when the
 * other writer is a transaction of this same process waiting for that loop, deadlocks until
 * the timeout). So no connection here waits synchronously (busy_timeout = 0), and writers take
 * turns instead:
 * - within a process, through one async writer lock (`withSqliteWriter`) that raw transactions
 *   (sql.ts) and Prisma's writes and transactions (sqlite-prisma-adapter.ts) both take;
 * - across processes and worker threads (CLI, import workers), by retrying SQLITE_BUSY after an
 *   async pause (`retryWhileBusy`), so the event loop keeps serving while it waits.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import Database from "better-sqlite3";
import { AppError } from "../../errors";
import { resolveDatabaseUrl, sqliteFilePath } from "./database-url";
import { migrateSqlite } from "./migrate";

const globalForSqlite = globalThis as unknown as { refinerySqlite?: { url: string; db: Database.Database } };

export function getSqlite(url = resolveDatabaseUrl()): Database.Database {
  const cached = globalForSqlite.refinerySqlite;
  if (cached && cached.url === url) return cached.db;
  migrateSqlite(url);
  const db = new Database(sqliteFilePath(url), { timeout: 0 });
  db.pragma("journal_mode = WAL");
  db.pragma("busy_timeout = 0");
  db.pragma("foreign_keys = ON");
  globalForSqlite.refinerySqlite = { url, db };
  return db;
}

export function closeSqlite(): void {
  globalForSqlite.refinerySqlite?.db.close();
  globalForSqlite.refinerySqlite = undefined;
}

/** Timestamps in the text format Prisma's SQLite adapter writes and reads (sql.ts converts Dates itself). */
export function sqliteNow(): string {
  return new Date().toISOString().replace("Z", "+00:00");
}

// ------------------------------------------------------------------------- busy and retry

/** How long a write waits for another process's writer before it gives up (asynchronously). */
export const SQLITE_BUSY_DEADLINE_MS = 30_000;

/** SQLITE_BUSY from better-sqlite3, or as Prisma's adapter reports it (a "SocketTimeout" driver error). */
export function isSqliteBusy(error: unknown): boolean {
  const e = error as { code?: unknown; cause?: { kind?: unknown; originalCode?: unknown } } | null;
  if (!e || typeof e !== "object") return false;
  if (typeof e.code === "string" && (e.code === "SQLITE_BUSY" || e.code.startsWith("SQLITE_BUSY_"))) return true;
  return e.cause?.kind === "SocketTimeout" || e.cause?.originalCode === "SQLITE_BUSY";
}

function busyError(): AppError {
  return new AppError("CONFLICT", `the database stayed locked by another writer for ${SQLITE_BUSY_DEADLINE_MS / 1000} s; nothing was changed, try again`, { retryable: true });
}

/**
 * Run `fn` (a statement that either runs whole or not at all, e.g. BEGIN IMMEDIATE or one
 * autocommit write); while another connection holds the write lock, try again after a growing
 * pause (1 ms … 50 ms) that yields the event loop.
 */
export async function retryWhileBusy<T>(fn: () => T | Promise<T>, deadlineMs = SQLITE_BUSY_DEADLINE_MS): Promise<T> {
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (!isSqliteBusy(error)) throw error;
      if (Date.now() - started > deadlineMs) throw busyError();
      await new Promise((resolve) => setTimeout(resolve, Math.min(50, 2 ** attempt)));
    }
  }
}

// --------------------------------------------------------------------------- writer lock

export type WriterKind = "raw" | "prisma";

interface WriterHold {
  kind: WriterKind;
  /** Cleared on release: async work that outlives the transaction must not think it still holds the lock. */
  active: boolean;
}

const globalForWriter = globalThis as unknown as {
  refinerySqliteWriter?: { tail: Promise<void>; context: AsyncLocalStorage<WriterHold> };
};
const writer = (globalForWriter.refinerySqliteWriter ??= { tail: Promise.resolve(), context: new AsyncLocalStorage<WriterHold>() });

/** Which write path the current async context is inside, if any (sql.ts refuses to nest the other one). */
export function currentSqliteWriter(): WriterKind | null {
  const hold = writer.context.getStore();
  return hold?.active ? hold.kind : null;
}

/** A turn that waits longer than this is taken for a deadlock (a write nested in a path this file cannot see) and fails. */
export const SQLITE_WRITER_WAIT_MS = 120_000;

async function takeTurn(): Promise<() => void> {
  let release!: () => void;
  const turn = new Promise<void>((resolve) => (release = resolve));
  const previous = writer.tail;
  writer.tail = previous.then(() => turn);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), SQLITE_WRITER_WAIT_MS)));
  const outcome = await Promise.race([previous.then(() => "ok" as const), timedOut]);
  clearTimeout(timer);
  if (outcome === "timeout") {
    // Our turn still comes; give it straight back so the queue behind us is not stuck.
    void previous.then(release);
    throw busyError();
  }
  return release;
}

function checkNesting(kind: WriterKind): "held" | "free" {
  const held = currentSqliteWriter();
  if (held === kind) return "held";
  if (held !== null) {
    throw new AppError(
      "INTERNAL",
      `a ${kind === "prisma" ? "Prisma" : "raw SQL"} write inside a ${held === "raw" ? "raw SQL (getSql().transaction)" : "Prisma"} transaction would wait for itself; write through the transaction's own client`,
    );
  }
  return "free";
}

/**
 * Run `fn` holding this process's SQLite writer lock: one raw transaction or Prisma write at a
 * time, the others waiting asynchronously. Re-entrant for the same path. A Prisma write inside
 * a raw transaction (or the reverse) would wait for a lock its own caller holds: it fails at
 * once instead, naming the fix (write through the transaction you are in; `recordAudit`
 * accepts sql.ts's executor as well as Prisma's).
 */
export async function withSqliteWriter<T>(kind: WriterKind, fn: () => Promise<T>): Promise<T> {
  if (checkNesting(kind) === "held") return fn();
  const release = await takeTurn();
  const hold: WriterHold = { kind, active: true };
  try {
    return await writer.context.run(hold, fn);
  } finally {
    hold.active = false;
    release();
  }
}

/**
 * For a transaction that begins in one call and ends in another (Prisma's adapter): take the
 * lock unless this context holds it already; the result releases it (a no-op when re-entrant).
 */
export async function acquireSqliteWriter(kind: WriterKind): Promise<() => void> {
  if (checkNesting(kind) === "held") return () => undefined;
  const release = await takeTurn();
  let released = false;
  return () => {
    if (!released) {
      released = true;
      release();
    }
  };
}
