/**
 * The e2e database: a SQLite file by default; with E2E_DATABASE=postgres, the database
 * `refinery_e2e` on the server REFINERY_TEST_PG_URL names (scripts/with-postgres.sh starts one).
 * The web server, the seeding child processes and reset-db.mjs all use this one URL.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

export const E2E_SQLITE_FILE = path.join(here, ".tmp", "e2e.db");

export function isPostgresE2e(): boolean {
  return process.env.E2E_DATABASE === "postgres";
}

export function e2eDatabaseUrl(): string {
  if (!isPostgresE2e()) return `file:${E2E_SQLITE_FILE}`;
  const server = process.env.REFINERY_TEST_PG_URL;
  if (!server) throw new Error("E2E_DATABASE=postgres needs REFINERY_TEST_PG_URL (run under scripts/with-postgres.sh)");
  const url = new URL(server);
  url.pathname = "/refinery_e2e";
  return url.toString();
}
