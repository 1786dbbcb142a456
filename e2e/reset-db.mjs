// Start every e2e run from an empty Refinery: delete the SQLite file (and its WAL files), or
// with E2E_DATABASE=postgres drop and re-create the `refinery_e2e` database.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), ".tmp");
fs.rmSync(dir, { recursive: true, force: true });
fs.mkdirSync(dir, { recursive: true });

if (process.env.E2E_DATABASE === "postgres") {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: process.env.REFINERY_TEST_PG_URL });
  await client.connect();
  try {
    await client.query("DROP DATABASE IF EXISTS refinery_e2e WITH (FORCE)");
    await client.query("CREATE DATABASE refinery_e2e");
  } finally {
    await client.end();
  }
}
