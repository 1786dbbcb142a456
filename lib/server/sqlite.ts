/**
 * The raw better-sqlite3 connection behind the SQLite side of sql.ts (bulk import, whole-version
 * reads, commits). Use `getSql()` from sql.ts instead: code written against it runs on
 * PostgreSQL too. Both this connection and Prisma's use WAL, so readers never block the writer.
 */
import Database from "better-sqlite3";
import { resolveDatabaseUrl, sqliteFilePath } from "./database-url";
import { migrateSqlite } from "./migrate";

const globalForSqlite = globalThis as unknown as { refinerySqlite?: { url: string; db: Database.Database } };

export function getSqlite(url = resolveDatabaseUrl()): Database.Database {
  const cached = globalForSqlite.refinerySqlite;
  if (cached && cached.url === url) return cached.db;
  migrateSqlite(url);
  const db = new Database(sqliteFilePath(url));
  db.pragma("journal_mode = WAL");
  db.pragma("busy_timeout = 10000");
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
