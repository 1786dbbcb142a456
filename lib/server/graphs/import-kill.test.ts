/**
 * kill -9 during an import (SQLite, or PostgreSQL with REFINERY_TEST_DATABASE=postgres): a child
 * process imports FB15k-237 (272k triples, in its import worker) and is killed mid-write, early
 * and late — a triple file from a path is streamed (stream-triples.ts: read, parsed and written
 * in batches in one transaction), so "early" is mid-file, with most of it not yet read; afterwards there is either no graph and no `graph.import` event, or the graph with
 * its event — never one without the other — and the database still takes the same import.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataPath } from "../../test/data";
import { getDb } from "../db/db";
import { getSql } from "../db/sql";
import type { TestDatabase } from "../db/test-database";
import { useTestDatabase } from "../db/test-database";

let db: TestDatabase;
const FILE = dataPath("fb15k237", "train.tsv.gz");
const importGraph = pathToFileURL(path.join(import.meta.dirname, "import-graph.ts")).href;

/** Run the import in a child; kill it with SIGKILL once `killWhen` matches a progress line. */
function importInChild(name: string, killWhen: RegExp | null, linger = false): Promise<{ killed: boolean; lines: string[] }> {
  const code = `
    const { importGraphFromPath } = await import(${JSON.stringify(importGraph)});
    await importGraphFromPath({
      path: ${JSON.stringify(FILE)}, name: ${JSON.stringify(name)}, worker: true,
      actor: { kind: "cli", username: "kill-test", displayName: "kill-test" },
      onProgress: (m) => console.log(m),
    });
    console.log("finished");
    // What a caller does next (answer the request, print the report) may never happen.
    if (process.env.KILL_TEST_LINGER) await new Promise((r) => setTimeout(r, 60_000));
    process.exit(0);`;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], {
    env: { ...process.env, DATABASE_URL: db.url, ...(linger ? { KILL_TEST_LINGER: "1" } : {}) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines: string[] = [];
  return new Promise((resolve, reject) => {
    let buffer = "";
    child.stdout.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      let nl: number;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        lines.push(line);
        if (killWhen && killWhen.test(line)) child.kill("SIGKILL");
      }
    });
    child.on("error", reject);
    child.on("exit", (exitCode, signal) => {
      if (signal === "SIGKILL") resolve({ killed: true, lines });
      else if (exitCode === 0) resolve({ killed: false, lines });
      else reject(new Error(`import child exited with ${exitCode}: ${lines.join("\n")}`));
    });
  });
}

async function state(name: string): Promise<{ graphs: number; events: number; edges: number }> {
  const graphs = await getDb().graph.count({ where: { name } });
  const events = await getDb().auditEvent.count({ where: { action: "graph.import", graphName: name } });
  const edges = (await getSql().get<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "Edge" e JOIN "Graph" g ON g."id" = e."graphId" WHERE g."name" = ?`, [name]))?.n ?? 0;
  return { graphs, events, edges: Number(edges) };
}

beforeAll(async () => {
  db = await useTestDatabase("import-kill");
  await getSql().get(`SELECT 1 AS "one"`); // create and migrate before the children race to
});

afterAll(async () => {
  await db.cleanup();
});

describe("kill -9 mid-import", () => {
  it.each([
    ["early in the write", /^wrote .* of about .* \(([1-5]\d|\d)% of the file read/],
    ["late in the write", /^wrote (2[4-9]\d|28\d),\d{3} of /],
    ["building the indexes", /building index 4 of /],
    ["committing", /; committing$/],
  ])("leaves no graph and no event, or both (killed %s)", async (_when, killWhen) => {
    const name = `killed ${_when.split(" ")[0]}`;
    const run = await importInChild(name, killWhen);
    expect(run.killed).toBe(true);
    expect(run.lines.some((l) => killWhen.test(l))).toBe(true);
    const after = await state(name);
    expect(after.graphs).toBe(after.events);
    if (after.graphs === 0) expect(after.edges).toBe(0);
    else expect(after.edges).toBe(272_115);
    // The database still takes the whole import, indexes and all.
    const again = await importInChild(name.replace("killed", "again"), null);
    expect(again.killed).toBe(false);
    expect(await state(name.replace("killed", "again"))).toEqual({ graphs: 1, events: 1, edges: 272_115 });
    if (db.dialect === "sqlite") {
      const indexes = await getSql().query<{ name: string }>(`SELECT "name" FROM "sqlite_master" WHERE "type" = 'index' AND "tbl_name" = 'Edge' AND "sql" IS NOT NULL`);
      expect(indexes.map((i) => i.name).sort()).toEqual(["Edge_graphId_edgeKey_idx", "Edge_graphId_ord_idx", "Edge_source_graphId_idx", "Edge_target_graphId_idx"]);
    }
    // Empty tables again: the next case's import drops and rebuilds the indexes too (a bulk
    // import rebuilds them only when it brings more rows than the tables hold).
    await getSql().execute(`DELETE FROM "Graph" WHERE "name" IN (?, ?)`, [name, name.replace("killed", "again")]);
  }, 300_000);

  it("killed right after the import returns, the graph has its event already", async () => {
    const run = await importInChild("killed after", /^finished$/, true);
    expect(run.killed).toBe(true);
    expect(await state("killed after")).toEqual({ graphs: 1, events: 1, edges: 272_115 });
  }, 300_000);
});
