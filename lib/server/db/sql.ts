/**
 * A small SQL interface for the paths that bypass Prisma for speed (bulk import, whole-version
 * reads, the commit transaction), with one implementation per dialect:
 *
 * - SQLite: the raw better-sqlite3 connection (sqlite.ts). Statements run synchronously, so
 *   `insertMany` is a tight prepared-statement loop, as fast as before this interface existed.
 * - PostgreSQL: a `pg` Pool (pg-pool.ts); `insertMany` sends 20k rows per statement as arrays.
 *
 * Write SQL once for both: `?` placeholders (turned into `$1, $2…` for PostgreSQL), every
 * table and column name double-quoted (PostgreSQL folds unquoted names to lower case), no
 * dialect-only syntax except `tx.forUpdate`. Values: pass `Date`s for timestamps (stored in
 * Prisma's format on each side); booleans work on both. Read timestamps with `new Date(v)`:
 * SQLite gives Prisma's text, PostgreSQL a Date. COUNT(*) is a number on both.
 */
import type Database from "better-sqlite3";
import type pg from "pg";
import type { Dialect } from "./database-url";
import { dialectOf, resolveDatabaseUrl } from "./database-url";
import { migratePostgres } from "./migrate-postgres";
import { closePgPools, getPgPool } from "./pg-pool";
import { closeSqlite, currentSqliteWriter, getSqlite, retryWhileBusy, withSqliteWriter } from "./sqlite";

export type SqlValue = string | number | boolean | null | Date;

export interface SqlExecutor {
  readonly dialect: Dialect;
  /** Appended to a SELECT inside a transaction to lock the rows it reads until commit (PostgreSQL); SQLite's write transactions are exclusive already. */
  readonly forUpdate: string;
  query<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /** Like `query`, each row an array of its values in column order: no object per row (whole-version reads). */
  queryRows(sql: string, params?: readonly SqlValue[]): Promise<unknown[][]>;
  get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  /** Runs a statement; resolves with the number of rows it changed. */
  execute(sql: string, params?: readonly SqlValue[]): Promise<number>;
  /**
   * Inserts many rows into one table, as fast as the dialect allows (the row arrays may be reused); `onRows` reports progress.
   * `constant`: columns that hold the same value in every row (e.g. the graphId of an import); SQLite writes that value
   * into the statement once instead of binding it per row, and throws if a row differs. PostgreSQL ignores the hint.
   */
  insertMany(table: string, columns: readonly string[], rows: Iterable<SqlValue[]>, onRows?: (count: number) => void, constant?: readonly string[]): Promise<void>;
}

export interface Sql extends SqlExecutor {
  /**
   * Runs `fn` in one transaction: all its statements commit together or not at all. SQLite:
   * BEGIN IMMEDIATE under the process's writer lock, shared with Prisma's writes (sqlite.ts),
   * so neither ever busy-waits on the event loop; a transaction opened inside one joins it.
   * PostgreSQL: READ COMMITTED on one pooled connection; use `forUpdate` to serialise writers
   * on a row. Write the change's audit event through `tx` too (`recordAudit` accepts it).
   */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
}

export function getSql(url = resolveDatabaseUrl()): Sql {
  return dialectOf(url) === "postgres" ? postgresSql(url) : sqliteSql(url);
}

export async function closeSql(): Promise<void> {
  closeSqlite();
  pgSqls.clear();
  await closePgPools();
}

/** Whether `error` is a unique-constraint violation of `table`(`column`) on either dialect. */
export function isUniqueViolation(error: unknown, table: string, column: string): boolean {
  const e = error as { code?: string; constraint?: string; message?: string };
  if (e.code === "23505") return e.constraint === `${table}_${column}_key`;
  return typeof e.code === "string" && e.code.startsWith("SQLITE_CONSTRAINT") && String(e.message).includes(`${table}.${column}`);
}

// ---------------------------------------------------------------------------------- SQLite

/** A value as an SQL literal (insertMany's constant columns): numbers as written, text quoted. */
function sqliteLiteral(v: string | number | null): string {
  if (v === null) return "NULL";
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw new Error(`insertMany: ${v} cannot be a constant column's value`);
    return String(v);
  }
  return `'${v.replace(/'/g, "''")}'`;
}

/** Timestamps in the text format Prisma's SQLite adapter writes and reads. */
function sqliteValue(v: SqlValue): string | number | null {
  if (v instanceof Date) return v.toISOString().replace("Z", "+00:00");
  if (typeof v === "boolean") return v ? 1 : 0;
  return v;
}

const globalForSqliteSql = globalThis as unknown as {
  refinerySqliteSql?: { db: Database.Database; sql: Sql };
};

function sqliteSql(url: string): Sql {
  const db = getSqlite(url);
  const cached = globalForSqliteSql.refinerySqliteSql;
  if (cached && cached.db === db) return cached.sql;
  const statements = new Map<string, Database.Statement>();
  const prepare = (text: string, raw = false): Database.Statement => {
    // Raw (array-row) statements are cached apart: raw mode is a setting of the statement.
    const key = raw ? `raw:${text}` : text;
    let stmt = statements.get(key);
    if (!stmt) {
      stmt = db.prepare(text);
      if (raw) stmt.raw(true);
      if (statements.size > 200) statements.clear();
      statements.set(key, stmt);
    }
    return stmt;
  };
  const executor: SqlExecutor = {
    dialect: "sqlite",
    forUpdate: "",
    query<T>(text: string, params: readonly SqlValue[] = []) {
      const stmt = prepare(text);
      const values = params.map(sqliteValue);
      if (!stmt.reader) {
        stmt.run(...values);
        return Promise.resolve([] as T[]);
      }
      return Promise.resolve(stmt.all(...values) as T[]);
    },
    queryRows(text: string, params: readonly SqlValue[] = []) {
      return Promise.resolve(prepare(text, true).all(...params.map(sqliteValue)) as unknown[][]);
    },
    get<T>(text: string, params: readonly SqlValue[] = []) {
      const stmt = prepare(text);
      const values = params.map(sqliteValue);
      if (!stmt.reader) {
        stmt.run(...values);
        return Promise.resolve(undefined);
      }
      return Promise.resolve(stmt.get(...values) as T | undefined);
    },
    execute(text: string, params: readonly SqlValue[] = []) {
      return Promise.resolve(prepare(text).run(...params.map(sqliteValue)).changes);
    },
    insertMany(table, columns, rows, onRows, constant = []) {
      // Rows go INSERT_BATCH_ROWS to a statement (one multi-row VALUES list bound as one flat
      // array): per statement, better-sqlite3 and SQLite pay a call, a bind and a reset, which
      // for one row each was a third of a bulk import's insert time (1M edges: 2.9 → 1.8 s CPU).
      // Constant columns are literals in the statement, read from the first row: binding the
      // same graphId and validFrom to every row was a quarter of the rest (1M edges: 1.9 → 1.4 s CPU).
      const iterator = rows[Symbol.iterator]();
      let next = iterator.next();
      if (next.done) {
        onRows?.(0);
        return Promise.resolve();
      }
      const fixed = constant.map((c) => columns.indexOf(c));
      if (fixed.some((i) => i < 0)) throw new Error(`insertMany: constant columns ${constant.join(", ")} must be among the columns`);
      const first: SqlValue[] = next.value;
      const fixedValues = fixed.map((i) => sqliteValue(first[i] ?? null));
      const bound = columns.map((_, i) => i).filter((i) => !fixed.includes(i));
      const head = `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES `;
      const tuple = `(${columns.map((_, i) => (fixed.includes(i) ? sqliteLiteral(fixedValues[fixed.indexOf(i)] ?? null) : "?")).join(", ")})`;
      const width = bound.length;
      const batchRows = Math.max(1, Math.min(INSERT_BATCH_ROWS, Math.floor(SQLITE_MAX_PARAMS / Math.max(1, width))));
      const many = prepare(head + Array.from({ length: batchRows }, () => tuple).join(", "));
      const one = prepare(head + tuple);
      const values = new Array<string | number | null>(batchRows * width).fill(null);
      let inBatch = 0;
      let n = 0;
      for (; !next.done; next = iterator.next()) {
        const row = next.value;
        for (let f = 0; f < fixed.length; f++) {
          if (sqliteValue(row[fixed[f] as number] ?? null) !== fixedValues[f]) throw new Error(`insertMany: column ${constant[f]} is not the same in every row`);
        }
        const at = inBatch * width;
        for (let i = 0; i < width; i++) values[at + i] = sqliteValue(row[bound[i] as number] ?? null);
        if (++inBatch === batchRows) {
          many.run(values);
          inBatch = 0;
        }
        if (++n % PROGRESS_EVERY === 0) onRows?.(PROGRESS_EVERY);
      }
      for (let r = 0; r < inBatch; r++) one.run(values.slice(r * width, (r + 1) * width));
      onRows?.(n % PROGRESS_EVERY);
      return Promise.resolve();
    },
  };
  const isInsideTransaction = () => currentSqliteWriter() === "raw" && db.inTransaction;
  // The connection never waits synchronously (sqlite.ts): one process-wide writer lock shared
  // with Prisma's writes orders writers here, and SQLITE_BUSY from another process is retried
  // after an async pause. Inside a transaction a statement runs as is (the lock is held).
  const autocommit = <T>(text: string, run: () => Promise<T>): Promise<T> => {
    if (isInsideTransaction()) return run();
    return prepare(text).readonly ? retryWhileBusy(run) : withSqliteWriter("raw", () => retryWhileBusy(run));
  };
  const transaction = <T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> => {
    // A transaction opened inside another joins it (SQLite has no nested BEGIN).
    if (isInsideTransaction()) return fn(executor);
    return withSqliteWriter("raw", async () => {
      await retryWhileBusy(() => db.exec("BEGIN IMMEDIATE"));
      try {
        const result = await fn(executor);
        db.exec("COMMIT");
        return result;
      } catch (error) {
        if (db.inTransaction) db.exec("ROLLBACK");
        throw error;
      }
    });
  };
  const sql: Sql = {
    dialect: "sqlite",
    forUpdate: "",
    query: (text, params) => autocommit(text, () => executor.query(text, params)),
    queryRows: (text, params) => autocommit(text, () => executor.queryRows(text, params)),
    get: (text, params) => autocommit(text, () => executor.get(text, params)),
    execute: (text, params) => autocommit(text, () => executor.execute(text, params)),
    insertMany: (table, columns, rows, onRows, constant) => transaction((tx) => tx.insertMany(table, columns, rows, onRows, constant)),
    transaction,
  };
  globalForSqliteSql.refinerySqliteSql = { db, sql };
  return sql;
}

const PROGRESS_EVERY = 20_000;

/** Rows per multi-row INSERT on SQLite (insertMany), within SQLite's 32,766 bound parameters. */
const INSERT_BATCH_ROWS = 200;
const SQLITE_MAX_PARAMS = 32_766;

// ------------------------------------------------------------------------------ PostgreSQL

const placeholderCache = new Map<string, string>();

/** `?` → `$1, $2…`, leaving quoted strings and identifiers alone. */
export function toPgPlaceholders(text: string): string {
  const cached = placeholderCache.get(text);
  if (cached !== undefined) return cached;
  let out = "";
  let n = 0;
  let quote: string | null = null;
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = null;
      out += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      out += ch;
    } else if (ch === "?") {
      out += `$${++n}`;
    } else {
      out += ch;
    }
  }
  if (placeholderCache.size > 500) placeholderCache.clear();
  placeholderCache.set(text, out);
  return out;
}

/** Dates as UTC text: Prisma's `timestamp(3)` columns have no zone and hold UTC. */
function pgValue(v: SqlValue): string | number | boolean | null {
  return v instanceof Date ? v.toISOString() : v;
}

/** Rows per INSERT … SELECT FROM unnest(…) statement: one array parameter per column. */
const ROWS_PER_BATCH = 20_000;

/** Column types by table (the schema is the same in every database of a process). */
const columnTypes = new Map<string, Map<string, string>>();

async function typesOf(run: PgRun, table: string): Promise<Map<string, string>> {
  let types = columnTypes.get(table);
  if (!types) {
    const result = await run(
      `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type FROM pg_attribute a
       WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped`,
      [`"${table}"`],
    );
    types = new Map((result.rows as { name: string; type: string }[]).map((r) => [r.name, r.type]));
    columnTypes.set(table, types);
  }
  return types;
}

type PgRun = (text: string, values: unknown[], rowMode?: "array") => Promise<pg.QueryResult>;

/** Rows per chunk written to a COPY stream (one string each: few writes, bounded memory). */
const COPY_CHUNK_ROWS = 2_000;

/** A value in COPY's text format: `\N` is null; backslash, tab, newline and CR are escaped. */
function copyText(v: SqlValue): string {
  if (v === null) return "\\N";
  if (typeof v === "string") return /[\\\t\n\r]/.test(v) ? v.replace(/[\\\t\n\r]/g, (c) => COPY_ESCAPES[c] as string) : v;
  if (typeof v === "boolean") return v ? "t" : "f";
  if (v instanceof Date) return v.toISOString();
  return String(v);
}

const COPY_ESCAPES: Record<string, string> = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" };

/**
 * `COPY … FROM STDIN` on one connection: rows stream to the server as they are produced (the
 * fastest bulk path PostgreSQL has; no statement size, no per-row parse). Runs inside the
 * caller's transaction, so a failure or a kill commits nothing.
 */
async function copyRows(client: pg.PoolClient, table: string, columns: readonly string[], rows: Iterable<SqlValue[]>, onRows?: (count: number) => void): Promise<void> {
  const { from: copyFrom } = await import("pg-copy-streams");
  const { Readable } = await import("node:stream");
  const { pipeline } = await import("node:stream/promises");
  const stream = client.query(copyFrom(`COPY "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) FROM STDIN`));
  function* chunks(): Generator<string> {
    let chunk = "";
    let count = 0;
    for (const row of rows) {
      for (let c = 0; c < columns.length; c++) chunk += (c === 0 ? "" : "\t") + copyText(row[c] ?? null);
      chunk += "\n";
      if (++count === COPY_CHUNK_ROWS) {
        yield chunk;
        onRows?.(count);
        chunk = "";
        count = 0;
      }
    }
    if (count > 0) {
      yield chunk;
      onRows?.(count);
    }
  }
  await pipeline(Readable.from(chunks(), { objectMode: false }), stream);
}

function pgExecutor(run: PgRun, client?: pg.PoolClient): SqlExecutor {
  return {
    dialect: "postgres",
    forUpdate: " FOR UPDATE",
    async query<T>(text: string, params: readonly SqlValue[] = []) {
      return (await run(toPgPlaceholders(text), params.map(pgValue))).rows as T[];
    },
    async queryRows(text: string, params: readonly SqlValue[] = []) {
      return (await run(toPgPlaceholders(text), params.map(pgValue), "array")).rows as unknown[][];
    },
    async get<T>(text: string, params: readonly SqlValue[] = []) {
      return (await run(toPgPlaceholders(text), params.map(pgValue))).rows[0] as T | undefined;
    },
    async execute(text: string, params: readonly SqlValue[] = []) {
      return (await run(toPgPlaceholders(text), params.map(pgValue))).rowCount ?? 0;
    },
    async insertMany(table, columns, rows, onRows) {
      if (client && process.env.REFINERY_PG_BULK !== "unnest") return copyRows(client, table, columns, rows, onRows);
      // Outside a transaction (no connection of our own): one array per column, unnested server-side: a statement of 20k rows is parsed once and
      // stays far below the 65,535-parameter limit of a multi-row VALUES list.
      const types = await typesOf(run, table);
      const casts = columns.map((c, i) => {
        const type = types.get(c);
        if (!type) throw new Error(`table ${table} has no column ${c}`);
        return `$${i + 1}::${type}[]`;
      });
      const text = `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) SELECT * FROM unnest(${casts.join(", ")})`;
      let arrays: unknown[][] = columns.map(() => []);
      let count = 0;
      const flush = async () => {
        if (count === 0) return;
        await run(text, arrays);
        onRows?.(count);
        arrays = columns.map(() => []);
        count = 0;
      };
      for (const row of rows) {
        for (let c = 0; c < columns.length; c++) (arrays[c] as unknown[]).push(pgValue(row[c] ?? null));
        if (++count === ROWS_PER_BATCH) await flush();
      }
      await flush();
    },
  };
}

const globalForPgSql = globalThis as unknown as { refineryPgSql?: Map<string, Sql> };
const pgSqls = (globalForPgSql.refineryPgSql ??= new Map<string, Sql>());

function postgresSql(url: string): Sql {
  const cached = pgSqls.get(url);
  if (cached) return cached;
  const pool = getPgPool(url);
  const executor = pgExecutor(async (text, values, rowMode) => {
    await migratePostgres(url);
    return rowMode ? pool.query({ text, values, rowMode }) : pool.query(text, values);
  });
  const sql: Sql = {
    ...executor,
    async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      await migratePostgres(url);
      const client = await pool.connect();
      let broken = false;
      try {
        await client.query("BEGIN");
        try {
          const result = await fn(pgExecutor((text, values, rowMode) => (rowMode ? client.query({ text, values, rowMode }) : client.query(text, values)), client));
          await client.query("COMMIT");
          return result;
        } catch (error) {
          await client.query("ROLLBACK").catch(() => {
            broken = true;
          });
          throw error;
        }
      } finally {
        // A connection that could not even roll back is dropped, not reused.
        client.release(broken);
      }
    },
  };
  pgSqls.set(url, sql);
  return sql;
}
