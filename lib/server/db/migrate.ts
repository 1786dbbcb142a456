/**
 * Create and migrate the SQLite database on first touch, by whichever command gets there
 * first (CLI, server, tests). Prisma's own `migrate deploy` needs its CLI at run time; this
 * applies the same `prisma/migrations/*\/migration.sql` files and records them in Prisma's
 * `_prisma_migrations` table, so `prisma migrate status` agrees with what was done here.
 */
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { sqliteFilePath } from "./database-url";

const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;

/** The migrations folder of a dialect: beside this file's project root, found from the working tree. */
export function findMigrationsDir(start = process.cwd(), dialect: "sqlite" | "postgres" = "sqlite"): string {
  const sub = dialect === "sqlite" ? ["prisma", "migrations"] : ["prisma", "postgres", "migrations"];
  const candidates = [
    dialect === "sqlite" ? process.env.REFINERY_MIGRATIONS_DIR : process.env.REFINERY_PG_MIGRATIONS_DIR,
    path.join(/*turbopackIgnore: true*/ start, ...sub),
    path.resolve(path.dirname(new URL(import.meta.url).pathname), "..", "..", "..", ...sub),
  ].filter((p): p is string => typeof p === "string");
  for (const dir of candidates) if (fs.existsSync(dir)) return dir;
  throw new Error(`cannot find ${sub.join("/")} (looked in ${candidates.join(", ")})`);
}

const migrated = new Set<string>();

/** Apply pending migrations to the SQLite file behind `url`; creates the file and folder. */
export function migrateSqlite(url: string, migrationsDir = findMigrationsDir()): { applied: string[] } {
  const file = sqliteFilePath(url);
  if (migrated.has(file)) return { applied: [] };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("busy_timeout = 10000");
    db.exec(MIGRATIONS_TABLE);
    const names = fs
      .readdirSync(/*turbopackIgnore: true*/ migrationsDir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && fs.existsSync(path.join(migrationsDir, d.name, "migration.sql")))
      .map((d) => d.name)
      .sort();
    const applied: string[] = [];
    // Read first, without a lock: a process starting while another one writes (an import in the
    // CLI) must not sleep on the write lock just to learn that nothing is pending. Only a
    // pending migration takes it (and may wait: getDb() is synchronous, and this runs once).
    const done = new Set(
      (db.prepare(`SELECT migration_name AS name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`).all() as { name: string }[]).map((r) => r.name),
    );
    for (const name of names) {
      if (done.has(name)) continue;
      const sql = fs.readFileSync(path.join(migrationsDir, name, "migration.sql"), "utf8");
      const checksum = createHash("sha256").update(sql).digest("hex");
      // IMMEDIATE takes the write lock first, so two processes starting at once do not both
      // apply the same migration: the second waits, then sees the row and skips.
      const apply = db.transaction(() => {
        const row = db
          .prepare(`SELECT id FROM "_prisma_migrations" WHERE migration_name = ? AND finished_at IS NOT NULL AND rolled_back_at IS NULL`)
          .get(name);
        if (row) return false;
        db.exec(sql);
        db.prepare(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
           VALUES (?, ?, ?, ?, ?, 1)`,
        ).run(randomUUID(), checksum, Date.now(), name, Date.now());
        return true;
      });
      if (apply.immediate()) applied.push(name);
    }
    migrated.add(file);
    return { applied };
  } finally {
    db.close();
  }
}
