/**
 * Hop-loop runs on a large PostgreSQL graph, retrieved through SQL vs loaded into memory (issue
 * #17 item 4): FB15k-237 replicated (`--copies`, default 4: 1.09M edges) is imported once, then
 * one fresh process per mode runs the same `--runs` questions (default 8) with the heuristic
 * provider — `REFINERY_SQL_RETRIEVAL_EDGES=1` (SQL) and `=0` (memory) — and prints the first
 * run (cold: the whole load, or the node keys and version figures), then per warm run the step
 * retrieval times, the judge time, the run's wall time, and the process's RSS after a full GC and
 * its peak. Not in CI.
 *
 *   scripts/with-postgres.sh npx tsx scripts/bench-sql-runs.ts [--copies 4] [--runs 8]
 */
import os from "node:os";
import { fileURLToPath } from "node:url";
import { benchLog, benchOption, percentile, runBench, runJsonChild, withReplicatedPostgresGraph } from "./bench-helpers";
import { sqlBenchQuestions } from "./bench-sql-retrieval";

const self = fileURLToPath(import.meta.url);

const option = benchOption;

const log = benchLog("bench:sql-runs");

interface ModeFigures {
  mode: string;
  firstRunS: number;
  runs: number;
  steps: number;
  retrievalP50: number;
  retrievalP95: number;
  judgeP50: number;
  runWallP50: number;
  reviewP50: number;
  /** RSS after a full GC before the first run (modules loaded, connected): the process without a graph. */
  baseRssMb: number;
  rssMb: number;
  peakRssMb: number;
  cpuS: number;
}

async function child(mode: "sql" | "memory", name: string, runs: number): Promise<void> {
  process.env.REFINERY_SQL_RETRIEVAL_EDGES = mode === "sql" ? "1" : "0";
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 200);
  const { startRun } = await import("../lib/server/runs/runs");
  const { createHeuristicProvider } = await import("../lib/providers/heuristic");
  const { getDb } = await import("../lib/server/db/db");
  const { disconnectDb } = await import("../lib/server/db/close");
  const row = await getDb().graph.findUniqueOrThrow({ where: { name } });
  const questions = await sqlBenchQuestions(row.id, row.currentVersion, runs + 1);
  const provider = createHeuristicProvider();
  gc();
  const baseRssMb = process.memoryUsage().rss / 1e6;
  const cpu0 = process.cpuUsage();
  const retrieval: number[] = [];
  const judge: number[] = [];
  const wall: number[] = [];
  const review: number[] = [];
  let firstRunS = 0;
  let steps = 0;
  for (const [i, question] of questions.entries()) {
    const t0 = performance.now();
    const run = await (await startRun({ graph: name, question, provider })).done;
    const ms = performance.now() - t0;
    if (run.status === "failed") throw new Error(`run failed: ${run.error}`);
    if (i === 0) {
      firstRunS = ms / 1000;
      log(`${mode}: first run (cold) ${firstRunS.toFixed(1)} s, ${run.stepRecords.length} steps, ${run.status}`);
      continue;
    }
    wall.push(ms);
    let inSteps = 0;
    for (const s of run.stepRecords) {
      retrieval.push(s.timings.retrievalMs);
      judge.push(s.timings.judgeMs);
      inSteps += s.timings.retrievalMs + s.timings.judgeMs;
      steps++;
    }
    review.push(ms - inSteps);
  }
  const cpu = process.cpuUsage(cpu0);
  gc();
  clearInterval(timer);
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  const figures: ModeFigures = {
    mode,
    firstRunS,
    runs: wall.length,
    steps,
    retrievalP50: percentile(sorted(retrieval), 50),
    retrievalP95: percentile(sorted(retrieval), 95),
    judgeP50: percentile(sorted(judge), 50),
    runWallP50: percentile(sorted(wall), 50),
    reviewP50: percentile(sorted(review), 50),
    baseRssMb,
    rssMb: process.memoryUsage().rss / 1e6,
    peakRssMb: peak / 1e6,
    cpuS: (cpu.user + cpu.system) / 1e6,
  };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
  await disconnectDb();
}

function runChild(mode: string, name: string, runs: number): Promise<ModeFigures> {
  return runJsonChild(self, ["--child", mode, name, String(runs)], mode);
}

async function main(): Promise<void> {
  const copies = Number(option("copies", "4"));
  const runs = Number(option("runs", "8"));
  await withReplicatedPostgresGraph("sql_runs", copies, log, async ({ name, edges }) => {
    const rows: ModeFigures[] = [];
    for (const mode of ["sql", "memory"]) {
      rows.push(await runChild(mode, name, runs));
      log(`${mode} done; load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
    }
    const f = (n: number, d = 0) => n.toFixed(d);
    console.log(`\n${edges.toLocaleString("en")} edges, ${runs} warm runs (heuristic provider) after one cold run\n`);
    console.log("| mode | first run | steps | retrieval p50 / p95 | judge p50 | run wall p50 | after the steps (review, writes) p50 | RSS before the first run | RSS after GC | peak RSS | CPU (all runs) |");
    console.log("|---|---|---|---|---|---|---|---|---|---|---|");
    for (const r of rows) {
      console.log(`| ${r.mode} | ${f(r.firstRunS, 1)} s | ${r.steps} | ${f(r.retrievalP50)} / ${f(r.retrievalP95)} ms | ${f(r.judgeP50)} ms | ${f(r.runWallP50)} ms | ${f(r.reviewP50)} ms | ${f(r.baseRssMb)} MB | ${f(r.rssMb)} MB | ${f(r.peakRssMb)} MB | ${f(r.cpuS, 1)} s |`);
    }
  });
}

runBench(main, ([mode, name, count]) => child(mode as "sql" | "memory", name as string, Number(count)));
