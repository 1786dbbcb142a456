/**
 * A throwaway database for one test file. Every test that touches the database uses this, so
 * the same suite runs on SQLite (default) and on PostgreSQL (REFINERY_TEST_DATABASE=postgres,
 * with REFINERY_TEST_PG_URL naming a server where we may create databases; see
 * scripts/with-postgres.sh).
 *
 *   const db = await useTestDatabase("apply");   // sets process.env.DATABASE_URL
 *   ...
 *   await db.cleanup();                           // disconnects and deletes it
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { Dialect } from "./database-url";
import { disconnectDb } from "./db";
import { closeSql } from "./sql";

export interface TestDatabase {
  url: string;
  dialect: Dialect;
  /** A scratch folder that lives as long as the database (files the test writes). */
  dir: string;
  cleanup(): Promise<void>;
}

export function testDialect(env: Record<string, string | undefined> = process.env): Dialect {
  const wanted = env.REFINERY_TEST_DATABASE?.trim() || "sqlite";
  if (wanted === "postgres" || wanted === "sqlite") return wanted;
  throw new Error(`REFINERY_TEST_DATABASE must be sqlite or postgres, not ${wanted}`);
}

export async function useTestDatabase(label: string): Promise<TestDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `refinery-${label}-`));
  const dialect = testDialect();
  if (dialect === "sqlite") {
    const url = `file:${path.join(dir, `${label}.db`)}`;
    process.env.DATABASE_URL = url;
    return {
      url,
      dialect,
      dir,
      async cleanup() {
        await disconnectDb();
        await closeSql();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const server = process.env.REFINERY_TEST_PG_URL;
  if (!server) throw new Error("REFINERY_TEST_DATABASE=postgres needs REFINERY_TEST_PG_URL (run through scripts/with-postgres.sh)");
  const name = `refinery_test_${label.toLowerCase().replace(/[^a-z0-9]+/g, "_")}_${randomBytes(4).toString("hex")}`;
  await onServer(server, `CREATE DATABASE "${name}"`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
  return {
    url: url.toString(),
    dialect,
    dir,
    async cleanup() {
      await disconnectDb();
      await closeSql();
      await onServer(server, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function onServer(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
