/**
 * Where the database lives: `DATABASE_URL` (e.g. `file:/data/refinery.db` for SQLite or
 * `postgresql://user@host:5432/refinery` for PostgreSQL), else `prisma/refinery.db` in the
 * checkout. Relative `file:` paths resolve against the current directory, like sqlite3 does.
 */
import path from "node:path";

export const DEFAULT_DATABASE_FILE = path.join("prisma", "refinery.db");

export function resolveDatabaseUrl(env: Record<string, string | undefined> = process.env): string {
  const url = env.DATABASE_URL?.trim();
  if (url) return url;
  return `file:${path.resolve(DEFAULT_DATABASE_FILE)}`;
}

/** The SQLite file path behind a `file:` URL. */
export function sqliteFilePath(url: string): string {
  if (!url.startsWith("file:")) throw new Error(`DATABASE_URL must be a SQLite "file:" URL here, got ${url.split(":")[0]}:`);
  const p = url.slice("file:".length).replace(/^\/\/(?=\/)/, "").split("?")[0] ?? "";
  if (!p) throw new Error("DATABASE_URL has an empty file path");
  return path.resolve(/*turbopackIgnore: true*/ p);
}

export type Dialect = "sqlite" | "postgres";

/** Which database a URL names: `file:` is SQLite, `postgres://` / `postgresql://` PostgreSQL. */
export function dialectOf(url: string): Dialect {
  if (url.startsWith("file:")) return "sqlite";
  if (/^postgres(ql)?:\/\//.test(url)) return "postgres";
  throw new Error(`DATABASE_URL must start with file: (SQLite) or postgresql:// (PostgreSQL), got ${url.split(":")[0]}:`);
}
