/**
 * A throwaway database for one test file. Every test that touches the database uses this, so
 * the same suite runs on SQLite (default) and on PostgreSQL (REFINERY_TEST_DATABASE=postgres).
 *
 *   const db = await useTestDatabase("apply");   // sets process.env.DATABASE_URL
 *   ...
 *   await db.cleanup();                           // disconnects and deletes it
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { disconnectDb } from "./db";
import { closeSqlite } from "./sqlite";

export interface TestDatabase {
  url: string;
  /** A scratch folder that lives as long as the database (files the test writes). */
  dir: string;
  cleanup(): Promise<void>;
}

export async function useTestDatabase(label: string): Promise<TestDatabase> {
  await Promise.resolve();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `refinery-${label}-`));
  const url = `file:${path.join(dir, `${label}.db`)}`;
  process.env.DATABASE_URL = url;
  return {
    url,
    dir,
    async cleanup() {
      await disconnectDb();
      closeSqlite();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
