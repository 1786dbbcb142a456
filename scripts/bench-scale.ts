/**
 * `npm run bench:scale`: Refinery at millions of edges (not in CI; minutes per run). FB15k-237
 * train replicated with entity suffixes (`~k` per copy, relations shared): 1m = ×4 (1.09M
 * edges), 3m = ×11 (2.99M edges). For each database and size, in a child process of its own
 * (so one run's heap does not inflate the next one's RSS):
 *
 *   import   the TSV file into a fresh database (through the import worker), while a probe
 *            request (GET of the graph list over HTTP, every 50 ms) runs: triples/s, probe p95
 *   load     the first (cold) load of the current version into memory, probe p95 during it
 *   RSS      the process's resident memory after the load (after a full GC); also a fresh
 *            process that only loads the graph (a restarted server: the import's leftovers not counted)
 *   query    200 question queries (seeds + BFS + ranked triples, cap 20), warm: p95
 *   apply    a 10-action changeset (5 inserts, 3 deletes, 2 renames) as a new version: p50
 *   after    the first request after each apply: load the new version + one query
 *
 *   npm run bench:scale -- --sizes 1m,3m --db sqlite,postgres
 *
 * On PostgreSQL the same questions also go through SQL retrieval (sql-retrieval.ts, no whole
 * graph in memory), compared with the in-memory answers; `--sql-only` skips the whole load
 * (`npm run bench:scale -- --sizes 10m --db postgres --sql-only`: 10.07M edges).
 *
 * Options: `--sizes` (1m, 3m, 10m, or `<n>x` for n copies; default 1m,3m), `--db` (sqlite,
 * postgres; default both), `--rounds` apply rounds (default 3), `--sql-only`, `--keep-db <url>`
 * (with --sql-only: use and keep that PostgreSQL database, reusing a graph already imported
 * there, e.g. a 10M build across runs), `--sql-copy` (with --sql-only, past 512 MiB: import ×1 and
 * copy it to the size in SQL, the quick way to a 10M graph; without it the file is imported
 * through the product's streamed import), `--import-only` (import, then a fresh process's load
 * if memory allows; no queries or applies: `--sizes 10m --db postgres --import-only`, with
 * `--keep-db <url>` to leave the graph for `--sql-only` runs). Files past 512 MiB are deleted
 * after their runs. The import's peak RSS (this process, the import worker included) is
 * sampled every 250 ms. PostgreSQL uses
 * REFINERY_BENCH_PG_URL (or REFINERY_TEST_PG_URL) when set, else the script runs itself again
 * under scripts/with-postgres.sh (a throwaway server). Progress goes to stderr, the table of
 * figures to stdout. The replicated files are kept in the system temp folder for the next run.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { benchActions, benchQuestions, benchRoot, percentile, replicateFb15k, runJsonChild, withProbe } from "./bench-helpers";
import type { SqlRetrievalFigures } from "./bench-sql-retrieval";
import { measureSqlRetrieval, replicateStoredGraph, sqlBenchQuestions } from "./bench-sql-retrieval";
import { MAX_INPUT_BYTES } from "../lib/server/graphs/read-input";

const self = fileURLToPath(import.meta.url);
const SIZES: Record<string, number> = { "1m": 4, "3m": 11, "10m": 37 };

interface ScaleFigures {
  dialect: string;
  copies: number;
  nodes: number;
  edges: number;
  importS: number;
  importCpuS: number;
  importProbeP95: number;
  /** Peak RSS of the importing process (its import worker included) during the import. */
  importPeakRssMb?: number;
  loadS: number;
  loadCpuS: number;
  loadProbeP95: number;
  rssMb: number;
  /** RSS of a fresh process that only loads the graph (as a restarted server would): the import's leftovers not counted. */
  freshRssMb: number;
  freshLoadS: number;
  heapMb: number;
  queryP95: number;
  applyP50: number;
  afterApplyP50: number;
  afterApplyMax: number;
  /** PostgreSQL: the same questions through SQL retrieval (scripts/bench-sql-retrieval.ts). */
  sql?: SqlRetrievalFigures;
}

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? process.argv[i + 1] : undefined;
  return value ?? fallback;
}

function copiesOf(size: string): number {
  const known = SIZES[size];
  if (known !== undefined) return known;
  const m = /^(\d+)x$/.exec(size);
  if (m) return Number(m[1]);
  throw new Error(`--sizes takes 1m, 3m or <n>x (copies of FB15k-237), not ${JSON.stringify(size)}`);
}

/** `--sql-only` (PostgreSQL): import, then SQL retrieval only; no whole load (sizes beyond memory, e.g. 10m). */
const SQL_ONLY = process.argv.includes("--sql-only");
/** `--sql-copy`: past the import limit, build the graph by copying ×1 in SQL instead of importing it. */
const SQL_COPY = process.argv.includes("--sql-copy");
/** `--import-only`: import (streamed, through the product), then a fresh process's load; nothing else. */
const IMPORT_ONLY = process.argv.includes("--import-only");

/** Peak RSS of this process (worker threads included) while `work` runs, sampled every 250 ms. */
async function withPeakRss<T>(work: () => Promise<T>): Promise<{ result: T; peakRssMb: number }> {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 250);
  try {
    const result = await work();
    return { result, peakRssMb: Math.max(peak, process.memoryUsage.rss()) / 1e6 };
  } finally {
    clearInterval(timer);
  }
}

const log = (message: string): void => void process.stderr.write(`[bench:scale ${new Date().toISOString().slice(11, 19)}] ${message}\n`);

function median(samples: number[]): number {
  return percentile([...samples].sort((a, b) => a - b), 50);
}

function p95(samples: number[]): number {
  return percentile([...samples].sort((a, b) => a - b), 95);
}

/** Child mode: one database, one size; prints its figures as one JSON line on stdout. */
async function child(file: string, copies: number): Promise<void> {
  const rounds = Number(option("rounds", "3"));
  const { useTestDatabase } = await import("../lib/server/db/test-database");
  // `--keep-db <url>` (--sql-only): that database is used and kept, and a graph already in it is not imported again.
  const keptUrl = SQL_ONLY || IMPORT_ONLY ? option("keep-db", "") : "";
  if (keptUrl) process.env.DATABASE_URL = keptUrl;
  const database = keptUrl ? await keptDatabase(keptUrl) : await useTestDatabase("scale");
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
  try {
    const { importGraphFromPath } = await import("../lib/server/graphs/import-graph");
    const { loadGraph, evictGraphs } = await import("../lib/server/graphs/graph-store");
    const { queryGraph } = await import("../lib/retrieve/query-graph");
    const { applyProposal, createProposal, reviewForGraph } = await import("../lib/server/proposals/proposals");
    const name = `fb${copies}x`;
    let lastSaid = 0;
    const say = (m: string) => {
      if (performance.now() - lastSaid < 5_000) return;
      lastSaid = performance.now();
      log(`  ${database.dialect} ×${copies}: ${m}`);
    };
    if (keptUrl && !IMPORT_ONLY) {
      const { getDb } = await import("../lib/server/db/db");
      const row = await getDb().graph.findUnique({ where: { name } });
      if (row) {
        log(`${database.dialect} ×${copies}: ${name} is already in the kept database; SQL retrieval`);
        const sql = await measureSqlRetrieval(name, await sqlBenchQuestions(row.id, row.currentVersion));
        log(`${database.dialect} ×${copies}: SQL retrieval ${JSON.stringify(sql)}`);
        const none = Number.NaN;
        const version = await getDb().graphVersion.findFirst({ where: { graphId: row.id, version: row.currentVersion } });
        const figures: ScaleFigures = { dialect: database.dialect, copies, nodes: version?.nodeCount ?? none, edges: version?.edgeCount ?? none, importS: none, importCpuS: none, importProbeP95: none, loadS: none, loadCpuS: none, loadProbeP95: none, rssMb: process.memoryUsage().rss / 1e6, freshRssMb: none, freshLoadS: none, heapMb: none, queryP95: none, applyP50: none, afterApplyP50: none, afterApplyMax: none, sql };
        process.stdout.write(`${JSON.stringify(figures)}\n`);
        return;
      }
    }
    if (SQL_ONLY && SQL_COPY && database.dialect === "postgres" && fs.statSync(file).size > MAX_INPUT_BYTES) {
      // Past the import's limit: the ×1 import, copied in SQL to the size (bench-sql-retrieval.ts).
      const one = await replicateFb15k(1, path.dirname(file));
      const imp = await withProbe(() => importGraphFromPath({ path: one, name: "fb1x" }));
      log(`${database.dialect} ×1 imported in ${(imp.ms / 1000).toFixed(1)} s; copying ×${copies} in SQL`);
      const made = await withProbe(() => replicateStoredGraph("fb1x", copies, name));
      log(`${database.dialect} ×${copies}: ${made.result} edges written in SQL in ${(made.ms / 1000).toFixed(1)} s; SQL retrieval`);
      const { getDb } = await import("../lib/server/db/db");
      const row = await getDb().graph.findUniqueOrThrow({ where: { name } });
      const sql = await measureSqlRetrieval(name, await sqlBenchQuestions(row.id, row.currentVersion));
      log(`${database.dialect} ×${copies}: SQL retrieval ${JSON.stringify(sql)}`);
      const none = Number.NaN;
      const figures: ScaleFigures = { dialect: database.dialect, copies, nodes: none, edges: made.result, importS: none, importCpuS: none, importProbeP95: none, loadS: none, loadCpuS: none, loadProbeP95: none, rssMb: process.memoryUsage().rss / 1e6, freshRssMb: none, freshLoadS: none, heapMb: none, queryP95: none, applyP50: none, afterApplyP50: none, afterApplyMax: none, sql };
      process.stdout.write(`${JSON.stringify(figures)}\n`);
      return;
    }
    log(`${database.dialect} ×${copies}: import ${path.basename(file)}`);
    const peak = await withPeakRss(() => withProbe(() => importGraphFromPath({ path: file, name, onProgress: say })));
    const imp = peak.result;
    const edges = imp.result.graph.edges;
    log(
      `${database.dialect} ×${copies}: imported ${edges} edges, ${imp.result.graph.nodes} nodes in ${(imp.ms / 1000).toFixed(1)} s ` +
        `(CPU ${imp.cpuS.toFixed(1)} s in this process, ${Math.round(edges / (imp.ms / 1000)).toLocaleString("en")} edges/s), peak RSS ${peak.peakRssMb.toFixed(0)} MB; load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`,
    );
    if (IMPORT_ONLY) {
      // A fresh process's load (a restarted server), if memory allows; then nothing else.
      const fresh = await loadInFreshProcess(name).catch((error: unknown) => {
        log(`${database.dialect} ×${copies}: the fresh-process load failed (${String(error)})`);
        return { loadS: Number.NaN, rssMb: Number.NaN };
      });
      log(`${database.dialect} ×${copies}: a fresh process loads it in ${fresh.loadS.toFixed(1)} s, RSS ${fresh.rssMb.toFixed(0)} MB`);
      const none = Number.NaN;
      const figures: ScaleFigures = { dialect: database.dialect, copies, nodes: imp.result.graph.nodes, edges, importS: imp.ms / 1000, importCpuS: imp.cpuS, importProbeP95: p95(imp.probes), importPeakRssMb: peak.peakRssMb, loadS: none, loadCpuS: none, loadProbeP95: none, rssMb: none, freshRssMb: fresh.rssMb, freshLoadS: fresh.loadS, heapMb: none, queryP95: none, applyP50: none, afterApplyP50: none, afterApplyMax: none };
      process.stdout.write(`${JSON.stringify(figures)}\n`);
      return;
    }
    log(`${database.dialect} ×${copies}: cold load`);
    if (SQL_ONLY && database.dialect === "postgres") {
      // Beyond what memory holds: only SQL retrieval, no whole load.
      const { getDb } = await import("../lib/server/db/db");
      const row = await getDb().graph.findUniqueOrThrow({ where: { name } });
      const sql = await measureSqlRetrieval(name, await sqlBenchQuestions(row.id, row.currentVersion));
      log(`${database.dialect} ×${copies}: SQL retrieval ${JSON.stringify(sql)}`);
      const none = Number.NaN;
      const figures: ScaleFigures = { dialect: database.dialect, copies, nodes: imp.result.graph.nodes, edges, importS: imp.ms / 1000, importCpuS: imp.cpuS, importProbeP95: p95(imp.probes), loadS: none, loadCpuS: none, loadProbeP95: none, rssMb: process.memoryUsage().rss / 1e6, freshRssMb: none, freshLoadS: none, heapMb: none, queryP95: none, applyP50: none, afterApplyP50: none, afterApplyMax: none, sql };
      process.stdout.write(`${JSON.stringify(figures)}\n`);
      return;
    }
    const fresh = await loadInFreshProcess(name);
    log(`${database.dialect} ×${copies}: a fresh process loads it in ${fresh.loadS.toFixed(1)} s, RSS ${fresh.rssMb.toFixed(0)} MB`);
    evictGraphs();
    gc();
    const load = await withProbe(() => loadGraph(name));
    const { graph } = load.result;
    gc();
    const memory = process.memoryUsage();
    log(`${database.dialect} ×${copies}: loaded in ${(load.ms / 1000).toFixed(1)} s, RSS ${(memory.rss / 1e6).toFixed(0)} MB; queries`);
    const questions = benchQuestions(graph);
    for (let i = 0; i < 20; i++) queryGraph({ graph, question: questions[i % questions.length] as string, limit: 20 });
    const querySamples: number[] = [];
    for (const question of questions) {
      const t = performance.now();
      queryGraph({ graph, question, limit: 20 });
      querySamples.push(performance.now() - t);
    }
    const sql = database.dialect === "postgres" ? await measureSqlRetrieval(name, questions, graph) : undefined;
    const applySamples: number[] = [];
    const afterSamples: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const current = await loadGraph(name);
      const actions = benchActions(current.graph, round);
      const reviews = await reviewForGraph({ graph: name, actions });
      const proposalId = await createProposal({ graph: name, baseVersion: current.version, source: "api", actions, reviews });
      const t0 = performance.now();
      await applyProposal({ proposalId, allowLowConfidence: true, actor: "bench" });
      applySamples.push(performance.now() - t0);
      const t1 = performance.now();
      const next = await loadGraph(name);
      queryGraph({ graph: next.graph, question: questions[round] as string, limit: 20 });
      afterSamples.push(performance.now() - t1);
      log(`${database.dialect} ×${copies}: apply round ${round + 1}/${rounds}: apply ${applySamples.at(-1)?.toFixed(0)} ms, first request after it ${afterSamples.at(-1)?.toFixed(0)} ms`);
    }
    const figures: ScaleFigures = {
      dialect: database.dialect,
      copies,
      nodes: imp.result.graph.nodes,
      edges,
      importS: imp.ms / 1000,
      importCpuS: imp.cpuS,
      importProbeP95: p95(imp.probes),
      importPeakRssMb: peak.peakRssMb,
      loadS: load.ms / 1000,
      loadCpuS: load.cpuS,
      loadProbeP95: p95(load.probes),
      rssMb: memory.rss / 1e6,
      freshRssMb: fresh.rssMb,
      freshLoadS: fresh.loadS,
      heapMb: memory.heapUsed / 1e6,
      queryP95: p95(querySamples),
      applyP50: median(applySamples),
      afterApplyP50: median(afterSamples),
      afterApplyMax: Math.max(...afterSamples),
      sql,
    };
    process.stdout.write(`${JSON.stringify(figures)}\n`);
  } finally {
    await database.cleanup();
  }
}

/** `--keep-db <url>`: an existing PostgreSQL database (created if missing), never dropped. */
async function keptDatabase(url: string): Promise<{ dialect: "postgres"; cleanup(): Promise<void> }> {
  const target = new URL(url);
  const server = new URL(url);
  server.pathname = "/postgres";
  const pg = (await import("pg")).default;
  const client = new pg.Client({ connectionString: server.toString() });
  await client.connect();
  try {
    const name = decodeURIComponent(target.pathname.slice(1));
    const found = await client.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
  return {
    dialect: "postgres",
    async cleanup() {
      const { disconnectDb } = await import("../lib/server/db/close");
      await disconnectDb();
    },
  };
}

/** Load mode (`--load-only <graph>`, DATABASE_URL set): load the current version, full GC, print RSS. */
async function loadOnly(name: string): Promise<void> {
  const { loadGraph } = await import("../lib/server/graphs/graph-store");
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
  const t = performance.now();
  await loadGraph(name);
  const loadS = (performance.now() - t) / 1000;
  gc();
  process.stdout.write(`${JSON.stringify({ loadS, rssMb: process.memoryUsage().rss / 1e6 })}\n`);
  const { disconnectDb } = await import("../lib/server/db/close");
  await disconnectDb();
}

/** The graph loaded by a new process on the same database: what a restarted server holds. */
function loadInFreshProcess(name: string): Promise<{ loadS: number; rssMb: number }> {
  return runJsonChild(self, ["--load-only", name], `the fresh load of ${name}`);
}

function runChild(dialect: string, file: string, copies: number, pgUrl: string | undefined): Promise<ScaleFigures> {
  const env: NodeJS.ProcessEnv = { ...process.env, REFINERY_TEST_DATABASE: dialect };
  if (pgUrl) env.REFINERY_TEST_PG_URL = pgUrl;
  const args = ["--child", file, String(copies), "--rounds", option("rounds", "3"), ...(SQL_ONLY ? ["--sql-only"] : []), ...(SQL_COPY ? ["--sql-copy"] : []), ...(IMPORT_ONLY ? ["--import-only"] : []), ...(option("keep-db", "") ? ["--keep-db", option("keep-db", "")] : [])];
  return runJsonChild(self, args, `${dialect} ×${copies}`, env);
}

// CPU seconds beside wall time: on a shared machine the wall time also measures the others.
const TABLE_HEAD = [
  "| database | edges | import (CPU, peak RSS) | triples/s | probe p95 (import) | load (CPU) | probe p95 (load) | RSS after load | a fresh process: load, RSS | query p95 | apply 10 (p50) | first request after apply (p50 / max) | SQL retrieval: keys, first, query p50 / p95 (rounds, statements), differing |",
  "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
];

function sqlCell(s: SqlRetrievalFigures | undefined): string {
  if (!s) return "–";
  return `${s.keysS.toFixed(1)} s, ${s.firstMs.toFixed(0)} ms, ${s.p50.toFixed(0)} / ${s.p95.toFixed(0)} ms (${s.rounds.toFixed(1)}, ${s.statements.toFixed(0)}), ${s.differing ?? "–"}`;
}

function tableRow(r: ScaleFigures): string {
  // A figure not measured (`--sql-only`) comes back from JSON as null.
  const f = (n: number | null, d = 1) => (n === null || Number.isNaN(n) ? "–" : n.toFixed(d));
  return (
    `| ${r.dialect} | ${r.edges.toLocaleString("en")} | ${f(r.importS)} s (${f(r.importCpuS)} s${r.importPeakRssMb ? `, ${f(r.importPeakRssMb, 0)} MB` : ""}) | ${r.importS ? Math.round(r.edges / r.importS).toLocaleString("en") : "–"} | ${f(r.importProbeP95)} ms | ` +
    `${f(r.loadS, 2)} s (${f(r.loadCpuS, 2)} s) | ${f(r.loadProbeP95)} ms | ${f(r.rssMb, 0)} MB | ${f(r.freshLoadS, 2)} s, ${f(r.freshRssMb, 0)} MB | ${f(r.queryP95)} ms | ${f(r.applyP50, 0)} ms | ${f(r.afterApplyP50, 0)} / ${f(r.afterApplyMax, 0)} ms | ${sqlCell(r.sql)} |`
  );
}

async function main(): Promise<void> {
  const loadAt = process.argv.indexOf("--load-only");
  if (loadAt >= 0) {
    await loadOnly(process.argv[loadAt + 1] as string);
    return;
  }
  const childAt = process.argv.indexOf("--child");
  if (childAt >= 0) {
    await child(process.argv[childAt + 1] as string, Number(process.argv[childAt + 2]));
    // Background work the requests started (graph rules mining on a big graph) would keep it alive.
    process.exit(0);
  }
  const sizes = option("sizes", "1m,3m").split(",").map((s) => s.trim()).filter(Boolean);
  const dialects = option("db", "sqlite,postgres").split(",").map((s) => s.trim()).filter(Boolean);
  for (const d of dialects) if (d !== "sqlite" && d !== "postgres") throw new Error(`--db takes sqlite and/or postgres, not ${JSON.stringify(d)}`);
  const pgUrl = process.env.REFINERY_BENCH_PG_URL || process.env.REFINERY_TEST_PG_URL;
  if (dialects.includes("postgres") && !pgUrl) {
    // A throwaway server for the whole run; the script runs again inside it.
    log("no PostgreSQL URL: starting a throwaway server (scripts/with-postgres.sh)");
    const result = spawnSync(path.join(benchRoot, "scripts", "with-postgres.sh"), [process.execPath, "--import", "tsx", self, ...process.argv.slice(2)], {
      cwd: benchRoot,
      stdio: "inherit",
    });
    process.exit(result.status ?? 1);
  }
  const dir = path.join(os.tmpdir(), "refinery-bench-scale");
  fs.mkdirSync(dir, { recursive: true });
  console.log(
    `Refinery scale benchmark — ${dialects.join(", ")}, ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}, Node ${process.version}, ${new Date().toISOString()}`,
  );
  // Rows as they come: a 3M run takes many minutes, and one that is stopped keeps the rows before it.
  for (const line of TABLE_HEAD) console.log(line);
  for (const size of sizes) {
    const copies = copiesOf(size);
    log(`FB15k-237 ×${copies} → ${dir}`);
    const file = await replicateFb15k(copies, dir);
    for (const dialect of dialects) {
      // One failed run (e.g. out of memory at 3M) leaves the others' figures.
      const figures = await runChild(dialect, file, copies, pgUrl).catch((error: unknown) => {
        log(`${String(error)}; continuing`);
        return undefined;
      });
      if (figures) console.log(tableRow(figures));
    }
    // Past the import limit (the 10M file: ~830 MB): not kept for the next run.
    if (fs.statSync(file).size > MAX_INPUT_BYTES) {
      fs.rmSync(file, { force: true });
      log(`deleted ${file}`);
    }
  }
  console.log(`load average at the end ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
