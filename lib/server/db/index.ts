/**
 * db/ — the database layer, the bottom of lib/server: which database (database-url.ts), the one
 * Prisma client of a process (db.ts), the row locks decisions take on proposal actions (action-row-locks.ts), the raw SQL executor for bulk and hot paths (sql.ts, with
 * sqlite.ts's single async writer and pg-pool.ts), migrations on first touch for both dialects
 * (migrate.ts, migrate-postgres.ts), and the per-test databases (test-database.ts). It imports no
 * domain; every domain may import its files directly.
 */
export * from "./database-url";
export * from "./db";
export * from "./sql";
