/**
 * Approving and reverting on a large PostgreSQL graph, over SQL vs with the graph in memory
 * (issue #17 item 4): FB15k-237 replicated (`--copies`, default 4: 1.09M edges) is imported
 * once, then one fresh process per mode — `REFINERY_SQL_RETRIEVAL_EDGES=1` (partial graphs over
 * SQL) and `=0` (the whole version loaded) — makes `--rounds` proposals of 10 actions on real
 * rows (5 inserts, 3 deletes, 2 renames), and times for each the apply check (findApplyBlocker),
 * the apply (plan, conflict check, commit, obsolete check) and, every other round, the revert
 * of the version; the first round is cold (the whole load, or the node keys). Prints the
 * process's RSS after a full GC and its peak. Over SQL it also times the first query on each new
 * version (after an apply or a revert: the version's whole-graph figures and degrees, derived
 * from the previous version's, sql-version-figures.ts) against a second query on it; mode
 * `sql-whole` is `sql` with the figures counted by a whole pass per version (as before #17 item 1).
 * Not in CI.
 *
 *   scripts/with-postgres.sh npx tsx scripts/bench-sql-commits.ts [--copies 4] [--rounds 8] [--modes sql,sql-whole,memory] [--analyze]
 */
import { fileURLToPath } from "node:url";
import type { RefinementAction } from "../lib/loop/types";
import { benchLog, benchOption, percentile, runBench, runJsonChild, withReplicatedPostgresGraph } from "./bench-helpers";

const self = fileURLToPath(import.meta.url);

const option = benchOption;

const log = benchLog("bench:sql-commits");

interface ModeFigures {
  mode: string;
  firstApplyS: number;
  rounds: number;
  checkP50: number;
  applyP50: number;
  applyMax: number;
  revertP50: number;
  /** The first query on each new version, and a second one on it (ms, p50; SQL modes only). */
  firstQueryP50: number | null;
  secondQueryP50: number | null;
  baseRssMb: number;
  rssMb: number;
  peakRssMb: number;
}

/** 10 actions on stored rows picked by position (the same in both modes): nothing loads the graph. */
async function roundActions(graphId: string, version: number, round: number): Promise<RefinementAction[]> {
  const { getSql } = await import("../lib/server/db/sql");
  const edges = await getSql().query<{ source: string; relation: string; target: string }>(
    `SELECT "source", "relation", "target" FROM "Edge" WHERE "graphId" = ? AND "validFrom" <= ? AND ("validTo" IS NULL OR "validTo" > ?) AND "ord" IN (${[0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map(() => "?").join(", ")}) ORDER BY "ord"`,
    [graphId, version, version, ...[0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => (round * 7919 + i * 104729) % 1_000_000)],
  );
  const at = (i: number) => edges[i % edges.length] as { source: string; relation: string; target: string };
  return [
    ...[0, 1, 2, 3, 4].map((i) => ({ type: "insert_edge" as const, subject: at(i).source, relation: `bench_related_${round}`, object: at(i + 5).target })),
    ...[5, 6, 7].map((i) => ({ type: "delete_edge" as const, subject: at(i).source, relation: at(i).relation, object: at(i).target })),
    ...[8, 9].map((i) => ({ type: "replace_node" as const, old: at(i).target, new: `Renamed entity ${round}.${i}` })),
  ];
}

type Mode = "sql" | "sql-whole" | "memory";

async function child(mode: Mode, name: string, rounds: number): Promise<void> {
  const sql = mode !== "memory";
  process.env.REFINERY_SQL_RETRIEVAL_EDGES = sql ? "1" : "0";
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 200);
  const { applyProposal, createProposal, getProposal } = await import("../lib/server/proposals/proposals");
  const { revertVersion } = await import("../lib/server/proposals/changesets");
  const { findApplyBlocker } = await import("../lib/server/approvals/approvals-apply");
  const { getGraphRecord } = await import("../lib/server/graphs/graph-store");
  const { disconnectDb } = await import("../lib/server/db/close");
  const { sqlCommitStats } = await import("../lib/server/graphs/partial-version");
  const { sqlQueryGraph } = await import("../lib/server/graphs/sql-retrieval");
  const { versionFigureStats } = await import("../lib/server/graphs/sql-version-figures");
  if (mode === "sql-whole") versionFigureStats.derive = false;
  const firstQuery: number[] = [];
  const secondQuery: number[] = [];
  /** The first query on the graph's current version, then another (its figures are then known). */
  const queryNewVersion = async (round: number) => {
    const record = await getGraphRecord(name);
    const source = { graphId: record.id, version: record.currentVersion, sourcePath: record.sourcePath, meta: record.meta };
    let t = performance.now();
    await sqlQueryGraph(source, { question: `what is the genre of film ${round}`, limit: 20 });
    const first = performance.now() - t;
    t = performance.now();
    await sqlQueryGraph(source, { question: `who directed film ${round}`, limit: 20 });
    return [first, performance.now() - t] as const;
  };
  if (sql) {
    const [cold] = await queryNewVersion(-1);
    log(`${mode}: first query on version ${(await getGraphRecord(name)).currentVersion} (cold: node keys, whole-graph figures) ${cold.toFixed(0)} ms`);
  }
  gc();
  const baseRssMb = process.memoryUsage().rss / 1e6;
  const check: number[] = [];
  const apply: number[] = [];
  const revert: number[] = [];
  let firstApplyS = 0;
  for (let round = 0; round < rounds; round++) {
    const record = await getGraphRecord(name);
    const actions = await roundActions(record.id, record.currentVersion, round + (sql ? 0 : 1000));
    // Reviews are not timed here (bench-sql-runs measures the review): a neutral one per action.
    const reviews = actions.map((_, index) => ({ index, text: "", confidence: "HIGH" as const, score: 1, reasons: [], warnings: [], resolved: {}, signals: [] }));
    const id = await createProposal({ graph: name, baseVersion: record.currentVersion, source: "api", actions, reviews: reviews as never });
    let t0 = performance.now();
    const proposal = await getProposal(id);
    const blocker = await findApplyBlocker(proposal, proposal.actions);
    const checked = performance.now() - t0;
    t0 = performance.now();
    const before = { ...sqlCommitStats };
    const result = await applyProposal({ proposalId: id, allowLowConfidence: true, actor: "bench" });
    const applied = performance.now() - t0;
    if (sql) {
      log(`apply ${applied.toFixed(0)} ms: ${sqlCommitStats.queries - before.queries} partial-graph statements, ${(sqlCommitStats.sqlMs - before.sqlMs).toFixed(0)} ms in them, ${sqlCommitStats.rounds - before.rounds} rounds`);
      const passes = { ...versionFigureStats };
      const [first, second] = await queryNewVersion(round);
      firstQuery.push(first);
      secondQuery.push(second);
      log(`first query on version ${result.version}: ${first.toFixed(0)} ms (a second one ${second.toFixed(0)} ms; ${versionFigureStats.wholePasses - passes.wholePasses} whole passes, ${versionFigureStats.derived - passes.derived} derived)`);
    }
    if (round === 0) {
      firstApplyS = (checked + applied) / 1000;
      log(`${mode}: first check + apply (cold) ${firstApplyS.toFixed(1)} s${blocker ? ` (blocker: ${blocker.message.slice(0, 80)})` : ""}`);
      continue;
    }
    check.push(checked);
    apply.push(applied);
    if (round % 2 === 0) {
      t0 = performance.now();
      await revertVersion({ graph: name, version: result.version, actor: "bench" });
      revert.push(performance.now() - t0);
      if (sql) firstQuery.push((await queryNewVersion(round + 500))[0]);
    }
  }
  gc();
  clearInterval(timer);
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  const figures: ModeFigures = {
    mode,
    firstApplyS,
    rounds: apply.length,
    checkP50: percentile(sorted(check), 50),
    applyP50: percentile(sorted(apply), 50),
    applyMax: Math.max(...apply),
    revertP50: percentile(sorted(revert), 50),
    firstQueryP50: sql ? percentile(sorted(firstQuery), 50) : null,
    secondQueryP50: sql ? percentile(sorted(secondQuery), 50) : null,
    baseRssMb,
    rssMb: process.memoryUsage().rss / 1e6,
    peakRssMb: peak / 1e6,
  };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
  await disconnectDb();
}

async function main(): Promise<void> {
  const copies = Number(option("copies", "4"));
  const rounds = Number(option("rounds", "8"));
  // The planner's statistics of the new rows (the import gathers them; --analyze again, as autovacuum would later).
  const analyze = async () => {
    if (!process.argv.includes("--analyze")) return;
    const { getSql } = await import("../lib/server/db/sql");
    const t1 = performance.now();
    await getSql().execute(`ANALYZE "Edge"`, []);
    await getSql().execute(`ANALYZE "Node"`, []);
    log(`analyzed in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
  };
  await withReplicatedPostgresGraph("sql_commits", copies, log, async ({ name, edges }) => {
    const rows: ModeFigures[] = [];
    for (const mode of option("modes", "sql,memory").split(",")) rows.push(await runJsonChild<ModeFigures>(self, ["--child", mode, name, String(rounds)], mode));
    // A figure with no samples (no revert in a 2-round run) comes back from JSON as null.
    const f = (n: number | null, d = 0) => (n === null || !Number.isFinite(n) ? "–" : n.toFixed(d));
    console.log(`\n${edges.toLocaleString("en")} edges, ${rounds - 1} warm rounds of 10 actions after one cold round\n`);
    console.log("| mode | first check + apply | check p50 | apply p50 / max | revert p50 | first query on a new version p50 | second query p50 | RSS before | RSS after GC | peak RSS |");
    console.log("|---|---|---|---|---|---|---|---|---|---|");
    for (const r of rows) {
      console.log(`| ${r.mode} | ${f(r.firstApplyS, 1)} s | ${f(r.checkP50)} ms | ${f(r.applyP50)} / ${f(r.applyMax)} ms | ${f(r.revertP50)} ms | ${f(r.firstQueryP50)} ms | ${f(r.secondQueryP50)} ms | ${f(r.baseRssMb)} MB | ${f(r.rssMb)} MB | ${f(r.peakRssMb)} MB |`);
    }
  }, analyze);
}

runBench(main, ([mode, name, count]) => child(mode as Mode, name as string, Number(count)));
