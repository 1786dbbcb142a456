/**
 * Imports in a worker thread (SQLite, or PostgreSQL with REFINERY_TEST_DATABASE=postgres), on
 * the real MetaQA knowledge base (4.9 MB, 134k triples: over WORKER_MIN_BYTES): the graph the
 * worker writes loads back equal to the file parsed in memory, the audit event is written with
 * the import (once, even if recordImport is called after), progress lines come back, errors
 * keep their codes, and concurrent first loads share one load.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/permissions";
import { isAppError } from "../../errors";
import { parseGraphifyJson } from "../../import/parse-graphify";
import { parseTriples } from "../../import/parse-triples";
import { dataPath } from "../../test/data";
import { getDb } from "../db/db";
import { getSql } from "../db/sql";
import { evictGraphs, loadGraph } from "./graph-store";
import type { ImportProgress } from "./import-graph";
import { importGraphFromPath, importGraphFromText, importsInProgress, WORKER_MIN_BYTES } from "./import-graph";
import { recordImport } from "./record-import";
import type { TestDatabase } from "../db/test-database";
import { useTestDatabase } from "../db/test-database";

let db: TestDatabase;
const ADA: Actor = { kind: "user", userId: "u-ada", username: "ada", displayName: "Ada", role: "admin", sessionId: "s1" };
const KB = dataPath("metaqa", "kb.txt");

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return isAppError(error) ? error.code : `not an AppError: ${String(error)}`;
  }
  return "no error";
}

beforeAll(async () => {
  db = await useTestDatabase("import-worker");
});

afterAll(async () => {
  await db.cleanup();
});

describe("import in a worker thread", () => {
  it("writes the graph and its audit event in one go, with progress", async () => {
    expect(fs.statSync(KB).size).toBeGreaterThan(WORKER_MIN_BYTES);
    const lines: string[] = [];
    const listed: ImportProgress[] = [];
    const report = await importGraphFromPath({
      path: KB,
      name: "metaqa",
      actor: ADA,
      onProgress: (m) => {
        lines.push(m);
        listed.push(...importsInProgress());
      },
    });
    // What GET /api/graphs/imports shows meanwhile; nothing once it is done.
    expect(listed.some((p) => p.name === "metaqa" && p.message.startsWith("wrote "))).toBe(true);
    expect(importsInProgress()).toEqual([]);
    const expected = parseTriples(fs.readFileSync(KB, "utf8"));
    expect(report.graph).toMatchObject({ name: "metaqa", format: "triples", version: 1, nodes: expected.nodes.size, edges: expected.edges.size });
    // A triple file from a path is streamed: written as it is read, progress by the bytes read.
    expect(lines.some((l) => l.startsWith("streaming "))).toBe(true);
    expect(lines.some((l) => /^wrote [\d,]+ of about [\d,]+ rows \(\d+% of the file read, [\d,]+ rows\/s\)$/.test(l))).toBe(true);
    // This bulk import into empty tables dropped the secondary indexes: all are back after it.
    const indexes = await getSql().query<{ name: string }>(
      getSql().dialect === "postgres"
        ? `SELECT "indexname" AS "name" FROM "pg_indexes" WHERE "tablename" = 'Edge' ORDER BY 1`
        : `SELECT "name" FROM "sqlite_master" WHERE "type" = 'index' AND "tbl_name" = 'Edge' AND "sql" IS NOT NULL ORDER BY 1`,
    );
    expect(indexes.map((i) => i.name)).toEqual(expect.arrayContaining(["Edge_graphId_edgeKey_idx", "Edge_graphId_ord_idx", "Edge_source_graphId_idx", "Edge_target_graphId_idx"]));
    await recordImport(ADA, report);
    const events = await getDb().auditEvent.findMany({ where: { action: "graph.import", graphName: "metaqa" } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorName: "Ada (ada)", actorId: "u-ada", targetType: "graph", targetId: "metaqa" });
    expect(events[0]?.summary).toContain(`${expected.edges.size} edges`);

    evictGraphs();
    const [a, b] = await Promise.all([loadGraph("metaqa"), loadGraph("metaqa")]);
    expect(a.graph).toBe(b.graph);
    const loaded = a.graph;
    expect([...loaded.nodes.keys()]).toEqual([...expected.nodes.keys()]);
    expect([...loaded.edges.values()].map((e) => [e.key, e.source, e.relation, e.target, e.ord])).toEqual(
      [...expected.edges.values()].map((e) => [e.key, e.source, e.relation, e.target, e.ord]),
    );
    const someone = [...expected.nodes.keys()][1234] as string;
    expect(loaded.outEdges(someone).map((e) => e.key)).toEqual(expected.outEdges(someone).map((e) => e.key));
  }, 180_000);

  it("an import without an actor is audited by recordImport afterwards, as before", async () => {
    const report = await importGraphFromPath({ path: dataPath("countries_S1", "graph.txt"), name: "countries", worker: true });
    expect(await getDb().auditEvent.count({ where: { action: "graph.import", graphName: "countries" } })).toBe(0);
    await recordImport(ADA, report);
    expect(await getDb().auditEvent.count({ where: { action: "graph.import", graphName: "countries" } })).toBe(1);
  }, 60_000);

  it("keeps error codes across the thread: a taken name, a bad line; nothing is left behind", async () => {
    expect(await codeOf(importGraphFromPath({ path: dataPath("countries_S1", "graph.txt"), name: "metaqa", worker: true }))).toBe("CONFLICT");
    const bad = path.join(db.dir, "bad.txt");
    fs.writeFileSync(bad, `${fs.readFileSync(dataPath("countries_S1", "graph.txt"), "utf8")}only\ttwo\n`);
    let message = "";
    try {
      await importGraphFromPath({ path: bad, name: "bad", worker: true, actor: ADA });
    } catch (error) {
      expect(isAppError(error) && error.code).toBe("PARSE_ERROR");
      message = (error as Error).message;
    }
    expect(message).toMatch(/line \d+: expected 3 tab-separated fields/);
    expect(await getDb().graph.count({ where: { name: "bad" } })).toBe(0);
    expect(await getDb().auditEvent.count({ where: { graphName: "bad" } })).toBe(0);
  }, 60_000);

  it("imports a graphify graph in the worker losslessly, with its source files (rsl-siege-manager, 2 MB)", async () => {
    const file = dataPath("graphify", "rsl-siege-manager", "graph.json");
    expect(fs.statSync(file).size).toBeGreaterThan(WORKER_MIN_BYTES);
    const report = await importGraphFromPath({ path: dataPath("graphify", "rsl-siege-manager"), name: "rsl", actor: ADA });
    const expected = parseGraphifyJson(fs.readFileSync(file, "utf8"));
    const { graph } = await loadGraph("rsl");
    expect(graph.meta).toEqual(expected.meta);
    expect([...graph.nodes.values()]).toEqual([...expected.nodes.values()]);
    expect([...graph.edges.values()]).toEqual([...expected.edges.values()]);
    expect(report.corpus.read + report.corpus.missing.length + report.corpus.skipped.length).toBeGreaterThan(0);
    expect(report.graph.documents).toBe(report.corpus.read);
  }, 120_000);

  it("imports uploaded text in the worker too", async () => {
    const text = fs.readFileSync(dataPath("countries_S1", "graph.txt"), "utf8");
    const report = await importGraphFromText({ name: "uploaded", fileName: "graph.txt", text, worker: true, actor: ADA });
    expect(report.graph.edges).toBe(parseTriples(text).edges.size);
    expect(await getDb().auditEvent.count({ where: { action: "graph.import", graphName: "uploaded" } })).toBe(1);
  }, 60_000);
});
