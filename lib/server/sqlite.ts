/**
 * A raw better-sqlite3 connection beside the Prisma client, for the two bulk paths where
 * Prisma's per-row overhead dominates: writing a whole imported graph (hundreds of thousands
 * of rows in one transaction) and reading a whole version back. Everything else goes through
 * Prisma. Both connections use WAL, so readers never block the writer.
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

/** Timestamps in the text format Prisma's SQLite adapter writes and reads. */
export function sqliteNow(): string {
  return new Date().toISOString().replace("Z", "+00:00");
}
