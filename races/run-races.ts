/**
 * The race suite (issue 12 item 1): the real production server (`next start`, so `npm run
 * build` first) on a free port against a fresh database, requests fired in parallel over HTTP
 * by people with real sessions and CSRF tokens, and the rows counted in the database afterwards.
 *
 *   npx tsx races/run-races.ts sqlite
 *   scripts/with-postgres.sh npx tsx races/run-races.ts postgres     (needs REFINERY_TEST_PG_URL)
 *
 * `npm run test:races` runs both. Exit code 1 when any race broke an invariant.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { dataPath } from "../lib/test/data";
import { Client, expectStatus, PASSWORD, startServer } from "./http-client";
import type { Session } from "./http-client";
import { SCENARIOS } from "./scenarios";
import type { RaceContext } from "./scenarios";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

async function onPgServer(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A fresh, empty database for this run, and how to remove it. */
async function freshDatabase(dialect: "sqlite" | "postgres"): Promise<{ url: string; cleanup(): Promise<void> }> {
  if (dialect === "sqlite") {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "refinery-races-"));
    return { url: `file:${path.join(dir, "races.db")}`, cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const server = process.env.REFINERY_TEST_PG_URL;
  if (!server) throw new Error("the PostgreSQL races need REFINERY_TEST_PG_URL: run them through scripts/with-postgres.sh");
  const name = `refinery_races_${randomBytes(4).toString("hex")}`;
  await onPgServer(server, `CREATE DATABASE "${name}"`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return { url: url.toString(), cleanup: () => onPgServer(server, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

async function prepare(client: Client): Promise<RaceContext["people"]> {
  const ada = await client.setUp("ada");
  const people: Record<string, Session> = { ada };
  for (const username of ["rita", "remy", "mal"]) {
    expectStatus(await client.call(ada, "POST", "/api/users", { username, password: PASSWORD, role: "reviewer" }), 201, `creating ${username}`);
    people[username] = await client.signIn(username);
  }
  return people as RaceContext["people"];
}

async function main(): Promise<void> {
  const dialect = process.argv[2] === "postgres" ? "postgres" : process.argv[2] === "sqlite" || process.argv[2] === undefined ? "sqlite" : null;
  if (!dialect) throw new Error(`usage: races/run-races.ts [sqlite|postgres], not ${process.argv[2]}`);
  const only = process.argv[3];
  const database = await freshDatabase(dialect);
  process.env.DATABASE_URL = database.url;
  const server = await startServer({ root, databaseUrl: database.url });
  let failed = 0;
  try {
    const client = new Client(server.baseUrl);
    const people = await prepare(client);
    console.log(`race suite on ${dialect}, server ${server.baseUrl}`);
    for (const scenario of SCENARIOS) {
      if (only && scenario.name !== only) continue;
      const graph = `race-${scenario.name}`;
      expectStatus(await client.call(people.ada, "POST", "/api/graphs", { path: dataPath("graphify", "httpx"), name: graph }), 201, `importing ${graph}`);
      const started = Date.now();
      try {
        const summary = await scenario.run({ client, people, graph });
        console.log(`PASS ${scenario.name} (${Date.now() - started} ms): ${summary}`);
      } catch (error) {
        failed++;
        console.log(`FAIL ${scenario.name} (${Date.now() - started} ms): ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  } catch (error) {
    failed++;
    console.error(error);
    console.error(server.log().slice(-4000));
  } finally {
    const { disconnectDb } = await import("../lib/server/db/db");
    await disconnectDb();
    await server.stop();
    await database.cleanup();
  }
  if (failed > 0) {
    console.log(`${failed} race scenario(s) failed on ${dialect}`);
    process.exitCode = 1;
  } else {
    console.log(`all race scenarios held on ${dialect}`);
  }
}

await main();
