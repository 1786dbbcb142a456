/**
 * `npm run bench:scale`: Refinery at millions of edges (not in CI; minutes per run). FB15k-237
 * train replicated with entity suffixes (`~k` per copy, relations shared): 1m = ×4 (1.09M
 * edges), 3m = ×11 (2.99M edges). For each database and size, in a child process of its own
 * (so one run's heap does not inflate the next one's RSS):
 *
 *   import   the TSV file into a fresh database (through the import worker), while a probe
 *            request (GET of the graph list over HTTP, every 50 ms) runs: triples/s, probe p95
 *   load     the first (cold) load of the current version into memory, probe p95 during it
 *   RSS      the process's resident memory after the load (after a full GC)
 *   query    200 question queries (seeds + BFS + ranked triples, cap 20), warm: p95
 *   apply    a 10-action changeset (5 inserts, 3 deletes, 2 renames) as a new version: p50
 *   after    the first request after each apply: load the new version + one query
 *
 *   npm run bench:scale -- --sizes 1m,3m --db sqlite,postgres
 *
 * Options: `--sizes` (1m, 3m, or `<n>x` for n copies; default 1m,3m), `--db` (sqlite,
 * postgres; default both), `--rounds` apply rounds (default 3). PostgreSQL uses
 * REFINERY_BENCH_PG_URL (or REFINERY_TEST_PG_URL) when set, else the script runs itself again
 * under scripts/with-postgres.sh (a throwaway server). Progress goes to stderr, the table of
 * figures to stdout. The replicated files are kept in the system temp folder for the next run.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { benchActions, benchQuestions, benchRoot, percentile, replicateFb15k, withProbe } from "./bench-helpers";

const self = fileURLToPath(import.meta.url);
const SIZES: Record<string, number> = { "1m": 4, "3m": 11 };

interface ScaleFigures {
  dialect: string;
  copies: number;
  nodes: number;
  edges: number;
  importS: number;
  importCpuS: number;
  importProbeP95: number;
  loadS: number;
  loadCpuS: number;
  loadProbeP95: number;
  rssMb: number;
  heapMb: number;
  queryP95: number;
  applyP50: number;
  afterApplyP50: number;
  afterApplyMax: number;
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
  const database = await useTestDatabase("scale");
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
    log(`${database.dialect} ×${copies}: import ${path.basename(file)}`);
    const imp = await withProbe(() => importGraphFromPath({ path: file, name, onProgress: say }));
    const edges = imp.result.graph.edges;
    log(`${database.dialect} ×${copies}: imported ${edges} edges in ${(imp.ms / 1000).toFixed(1)} s; cold load`);
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
      loadS: load.ms / 1000,
      loadCpuS: load.cpuS,
      loadProbeP95: p95(load.probes),
      rssMb: memory.rss / 1e6,
      heapMb: memory.heapUsed / 1e6,
      queryP95: p95(querySamples),
      applyP50: median(applySamples),
      afterApplyP50: median(afterSamples),
      afterApplyMax: Math.max(...afterSamples),
    };
    process.stdout.write(`${JSON.stringify(figures)}\n`);
  } finally {
    await database.cleanup();
  }
}

function runChild(dialect: string, file: string, copies: number, pgUrl: string | undefined): Promise<ScaleFigures> {
  const env: NodeJS.ProcessEnv = { ...process.env, REFINERY_TEST_DATABASE: dialect };
  if (pgUrl) env.REFINERY_TEST_PG_URL = pgUrl;
  const args = ["--expose-gc", "--max-old-space-size=12288", "--import", "tsx", self, "--child", file, String(copies), "--rounds", option("rounds", "3")];
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, args, { cwd: benchRoot, env, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    proc.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    proc.on("error", reject);
    proc.on("close", (code) => {
      const line = out.trim().split("\n").at(-1);
      if (code !== 0 || !line) return reject(new Error(`${dialect} ×${copies} failed (exit ${code})`));
      resolve(JSON.parse(line) as ScaleFigures);
    });
  });
}

// CPU seconds beside wall time: on a shared machine the wall time also measures the others.
const TABLE_HEAD = [
  "| database | edges | import (CPU) | triples/s | probe p95 (import) | load (CPU) | probe p95 (load) | RSS after load | query p95 | apply 10 (p50) | first request after apply (p50 / max) |",
  "|---|---|---|---|---|---|---|---|---|---|---|",
];

function tableRow(r: ScaleFigures): string {
  const f = (n: number, d = 1) => n.toFixed(d);
  return (
    `| ${r.dialect} | ${r.edges.toLocaleString("en")} | ${f(r.importS)} s (${f(r.importCpuS)} s) | ${Math.round(r.edges / r.importS).toLocaleString("en")} | ${f(r.importProbeP95)} ms | ` +
    `${f(r.loadS, 2)} s (${f(r.loadCpuS, 2)} s) | ${f(r.loadProbeP95)} ms | ${f(r.rssMb, 0)} MB | ${f(r.queryP95)} ms | ${f(r.applyP50, 0)} ms | ${f(r.afterApplyP50, 0)} / ${f(r.afterApplyMax, 0)} ms |`
  );
}

async function main(): Promise<void> {
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
  }
  console.log(`load average at the end ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
