/**
 * `npx tsx --expose-gc scripts/bench-versions.ts`: what a version costs in memory (issue #17
 * item 1). FB15k-237 train (272k edges; `--copies 4` replicates it to 1.09M with entity
 * suffixes) imported into a fresh database and loaded; then 5 rounds of a 10-action apply
 * (5 inserts, 3 deletes, 2 renames) through the product path, each followed by
 *
 *   first    the first request after the apply: load the current version + one question query
 *   older    a request on the version before it (a reader still on it): load + one query
 *
 * and at the end the process's RSS and heap after a full GC, with the version cache's counters
 * (whole loads, in-memory advances, rewinds). Not a test: nothing here asserts a time.
 * PostgreSQL: REFINERY_BENCH_PG_URL, or `scripts/with-postgres.sh sh -c
 * 'REFINERY_BENCH_PG_URL=$REFINERY_TEST_PG_URL npx tsx --expose-gc scripts/bench-versions.ts'`.
 */
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { benchActions, benchOption, benchQuestions, replicateFb15k, summarize } from "./bench-helpers";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const data = path.resolve(root, "..", "shared", "data");

const option = benchOption;

async function main(): Promise<void> {
  if (process.env.REFINERY_BENCH_PG_URL) {
    process.env.REFINERY_TEST_DATABASE = "postgres";
    process.env.REFINERY_TEST_PG_URL = process.env.REFINERY_BENCH_PG_URL;
  }
  const copies = Number(option("copies", "1"));
  const rounds = Number(option("rounds", "5"));
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
  const { useTestDatabase } = await import("../lib/server/db/test-database");
  const database = await useTestDatabase("bench-versions");
  try {
    const store = await import("../lib/server/graphs/graph-store");
    const { importGraphFromPath } = await import("../lib/server/graphs/import-graph");
    const { queryGraph } = await import("../lib/retrieve/query-graph");
    const { applyProposal, createProposal, reviewForGraph } = await import("../lib/server/proposals/proposals");
    const file = copies === 1 ? path.join(data, "fb15k237", "train.tsv.gz") : await replicateFb15k(copies, os.tmpdir());
    const name = "fb15k237";
    const imported = await importGraphFromPath({ path: file, name });
    console.log(`versions bench — ${database.dialect}, ${imported.graph.edges} edges, ${os.cpus().length} cores, Node ${process.version}`);
    store.evictGraphs();
    const t = performance.now();
    const { graph } = await store.loadGraph(name);
    console.log(`cold load: ${((performance.now() - t) / 1000).toFixed(2)} s`);
    const questions = benchQuestions(graph);
    for (let i = 0; i < 20; i++) queryGraph({ graph, question: questions[i % questions.length] as string, limit: 20 });
    gc();
    const loadedMb = process.memoryUsage().rss / 1e6;
    const apply: number[] = [];
    const first: number[] = [];
    const older: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const current = await store.loadGraph(name);
      const actions = benchActions(current.graph, round);
      const reviews = await reviewForGraph({ graph: name, actions });
      const proposalId = await createProposal({ graph: name, baseVersion: current.version, source: "api", actions, reviews });
      const t0 = performance.now();
      await applyProposal({ proposalId, allowLowConfidence: true, actor: "bench" });
      apply.push(performance.now() - t0);
      const t1 = performance.now();
      const next = await store.loadGraph(name);
      queryGraph({ graph: next.graph, question: questions[round] as string, limit: 20 });
      first.push(performance.now() - t1);
      const t2 = performance.now();
      const before = await store.loadGraph(name, next.version - 1);
      queryGraph({ graph: before.graph, question: questions[round + 1] as string, limit: 20 });
      older.push(performance.now() - t2);
    }
    gc();
    const memory = process.memoryUsage();
    console.log(`apply (10 actions, product path): ${summarize(apply)}`);
    console.log(`first request after an apply (load + query): ${summarize(first)}  (target ≤ 200 ms at 1M edges)`);
    console.log(`request on the previous version (load + query): ${summarize(older)}`);
    console.log(`memory after ${rounds} applies: RSS ${(memory.rss / 1e6).toFixed(0)} MB (after the load ${loadedMb.toFixed(0)} MB), heap ${(memory.heapUsed / 1e6).toFixed(0)} MB`);
    const stats = (store as { getVersionCacheStats?: () => unknown }).getVersionCacheStats;
    if (stats) console.log(`version cache: ${JSON.stringify(stats())}`);
  } finally {
    await database.cleanup();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
