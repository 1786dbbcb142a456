/**
 * Migrate a PostgreSQL database on first touch, like migrate.ts does for SQLite: applies
 * `prisma/postgres/migrations/*\/migration.sql` in order and records them in Prisma's
 * `_prisma_migrations` table (so `prisma migrate status` agrees). Several app instances may
 * start at once: a session advisory lock lets one migrate while the others wait, then see the
 * rows and skip. Each migration runs in its own transaction (PostgreSQL has transactional DDL).
 */
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { findMigrationsDir } from "./migrate";
import { getPgPool } from "./pg-pool";

const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

/** Any fixed 64-bit number: every Refinery instance agrees on it. */
const MIGRATION_LOCK_KEY = 7_301_934_118_224_541;

const globalForMigrations = globalThis as unknown as { refineryPgMigrations?: Map<string, Promise<{ applied: string[] }>> };
const migrations = (globalForMigrations.refineryPgMigrations ??= new Map<string, Promise<{ applied: string[] }>>());

/** Apply pending migrations to the database behind `url` (once per process and URL). */
export function migratePostgres(url: string, migrationsDir = findMigrationsDir(process.cwd(), "postgres")): Promise<{ applied: string[] }> {
  let running = migrations.get(url);
  if (!running) {
    running = applyMigrations(url, migrationsDir);
    // A failure (server down) is retried on the next touch rather than remembered forever.
    running.catch(() => migrations.delete(url));
    migrations.set(url, running);
  }
  return running;
}

async function applyMigrations(url: string, migrationsDir: string): Promise<{ applied: string[] }> {
  const names = fs
    .readdirSync(migrationsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(migrationsDir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort();
  const client = await getPgPool(url).connect();
  const applied: string[] = [];
  try {
    await client.query(`SELECT pg_advisory_lock($1)`, [MIGRATION_LOCK_KEY]);
    try {
      await client.query(MIGRATIONS_TABLE);
      const done = await client.query<{ migration_name: string }>(
        `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
      );
      const finished = new Set(done.rows.map((r) => r.migration_name));
      for (const name of names) {
        if (finished.has(name)) continue;
        const sql = fs.readFileSync(path.join(migrationsDir, name, "migration.sql"), "utf8");
        const checksum = createHash("sha256").update(sql).digest("hex");
        await client.query("BEGIN");
        try {
          await client.query(sql);
          await client.query(
            `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count) VALUES ($1, $2, now(), $3, now(), 1)`,
            [randomUUID(), checksum, name],
          );
          await client.query("COMMIT");
        } catch (error) {
          await client.query("ROLLBACK");
          throw new Error(`PostgreSQL migration ${name} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
        }
        applied.push(name);
      }
    } finally {
      await client.query(`SELECT pg_advisory_unlock($1)`, [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
  return { applied };
}
