/**
 * `npm run bench -- --queue` (issue #17 item 5): the review queue and review at scale, on
 * FB15k-237 (MetaQA with --quick) in a fresh database.
 *
 *   stale    a 1-action change applied with 500 approvals outstanding on other pending actions
 *            (each approval re-checked for staleness after the commit); beside it, what the old
 *            check cost (planning every approved action on its loaded base version).
 *   queue    5,000 pending actions (500 proposals of 10): GET /api/proposals (first page of 50,
 *            a page of 200, a filtered page), and the queue page's server work before (every
 *            proposal turned into queue rows) and now (its first page of 100), with payload sizes.
 *   review   10 actions reviewed twice on a version the review has not seen (cold: the
 *            per-version indexes are built) and again (warm), through the server's review path.
 * Printed, never asserted.
 */
import path from "node:path";
import type { RefinementAction } from "../lib/loop/types";
import { benchData, summarize } from "./bench-helpers";

const quick = process.argv.includes("--quick");

const ms = (t0: number) => performance.now() - t0;
const fmt = (x: number) => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(1)} ms`);
const kb = (text: string) => `${(Buffer.byteLength(text) / 1024).toFixed(0)} KB`;

export async function benchQueue(): Promise<void> {
  const { useTestDatabase } = await import("../lib/server/db/test-database");
  const database = await useTestDatabase("bench-queue");
  try {
    await run(database.dialect);
  } finally {
    await database.cleanup();
  }
}

async function run(dialect: string): Promise<void> {
  const { importGraphFromPath } = await import("../lib/server/graphs/import-graph");
  const { loadGraph } = await import("../lib/server/graphs/graph-store");
  const { applyProposal, createProposal, findProposals, reviewForGraph } = await import("../lib/server/proposals/proposals");
  const { getDb } = await import("../lib/server/db/db");
  const { createTestUser } = await import("../lib/server/auth/test-support");
  const { planActions } = await import("../lib/changes/plan-actions");
  const { findTouchedItems } = await import("../lib/changes/touched-items");
  const { toQueueRows } = await import("../components/review/queue-rows");
  const { findProposalPage } = await import("../lib/server/proposals/find-proposal-page");
  const { whenGraphRulesReady } = await import("../lib/server/proposals/graph-rules-cache");

  const file = quick ? path.join(benchData, "metaqa", "kb.txt") : path.join(benchData, "fb15k237", "train.tsv.gz");
  const name = quick ? "metaqa" : "fb15k237";
  let t0 = performance.now();
  await importGraphFromPath({ path: file, name });
  const loaded = await loadGraph(name);
  console.log(`queue bench — ${dialect}, ${name} (${loaded.graph.edges.size} edges), import + load ${fmt(ms(t0))}`);

  const nodes = [...loaded.graph.nodes.values()];
  const pick = (i: number) => (nodes[(i * 7919 + 13) % nodes.length] as { id: string }).id;
  // Distinct inserts between existing nodes: proposal p, action a.
  const action = (p: number, a: number): RefinementAction => ({ type: "insert_edge", subject: pick(p * 10 + a), relation: `queue_bench_${a}`, object: pick(p * 10 + a + 1) });

  // Seed 500 proposals of 10 actions = 5,000 pending actions, reviewed on the current version.
  const PROPOSALS = 500;
  const all = Array.from({ length: PROPOSALS }, (_, p) => Array.from({ length: 10 }, (_, a) => action(p, a)));
  await whenGraphRulesReady({ graphId: loaded.graphId, version: loaded.version, graph: loaded.graph });
  t0 = performance.now();
  const reviews = await reviewForGraph({ graph: name, version: loaded.version, actions: all.flat() });
  const reviewMs = ms(t0);
  t0 = performance.now();
  const ids: string[] = [];
  for (let p = 0; p < PROPOSALS; p++) {
    ids.push(await createProposal({ graph: name, baseVersion: loaded.version, source: "api", actions: all[p] as RefinementAction[], reviews: reviews.slice(p * 10, p * 10 + 10) }));
  }
  console.log(`seed: 5,000 actions reviewed in one call ${fmt(reviewMs)}, stored as 500 proposals ${fmt(ms(t0))}`);

  // 500 approvals outstanding, on the first action of each proposal, given at this version.
  const reviewer = await createTestUser({ username: "bench-reviewer", role: "reviewer" });
  const db = getDb();
  const firstActions = await db.proposalAction.findMany({ where: { index: 0 }, select: { id: true, proposalId: true } });
  await db.approval.createMany({ data: firstActions.map((a) => ({ actionId: a.id, proposalId: a.proposalId, userId: reviewer.id, kind: "approve", graphVersion: loaded.version })) });

  // The old check, for comparison: plan every approved action on its loaded base version.
  t0 = performance.now();
  for (let p = 0; p < PROPOSALS; p++) findTouchedItems(planActions({ graph: loaded.graph, actions: [action(p, 0)], edgeKeyPrefix: "stale." }).changeset);
  const oldMs = ms(t0);

  // The change: one insert at the first approved action's subject, so exactly one approval goes stale.
  const change: RefinementAction[] = [{ type: "insert_edge", subject: pick(0), relation: "queue_bench_change", object: pick(1) }];
  const [changeReview] = await reviewForGraph({ graph: name, version: loaded.version, actions: change });
  const changeId = await createProposal({ graph: name, baseVersion: loaded.version, source: "api", actions: change, reviews: [changeReview!] });
  t0 = performance.now();
  await applyProposal({ proposalId: changeId, allowLowConfidence: true, actor: "bench" });
  const applyMs = ms(t0);
  const dismissed = await db.approval.count({ where: { dismissedAt: { not: null } } });
  // The stale check alone, cold (nothing cached about the approved actions).
  const { dismissStaleApprovals } = await import("../lib/server/policies/stale-approvals");
  (globalThis as { refineryTouchedCache?: Map<string, unknown> }).refineryTouchedCache?.clear();
  t0 = performance.now();
  await dismissStaleApprovals({ graph: name });
  const staleMs = ms(t0);
  console.log(
    `stale: apply a 1-action change with 500 approvals outstanding: ${fmt(applyMs)} (${dismissed} dismissed as stale; the stale check alone, cold: ${fmt(staleMs)}; ` +
      `the old per-approval plan on the loaded base version alone: ${fmt(oldMs)}; issue #17 measured 3.2 s before)`,
  );

  // GET /api/proposals at 5,000 pending actions: the handler's work (page, counts, JSON).
  const get = async (query: string) => {
    const started = performance.now();
    const q = new URLSearchParams(query);
    const page = await findProposalPage({ status: (q.get("status") as "pending" | null) ?? undefined, limit: q.has("limit") ? Number(q.get("limit")) : undefined });
    const text = JSON.stringify(page);
    return { ms: ms(started), text };
  };
  for (const query of ["", "?limit=200", "?status=pending&limit=50"]) {
    await get(query);
    const samples: number[] = [];
    let last = "";
    for (let i = 0; i < 5; i++) {
      const r = await get(query);
      samples.push(r.ms);
      last = r.text;
    }
    const summary = (JSON.parse(last) as { summary: { pendingActions: number } }).summary;
    console.log(`queue: GET /api/proposals${query} (${summary.pendingActions} pending actions): ${summarize(samples)}, ${kb(last)}`);
  }

  // The queue page's server work: every proposal as queue rows (app/review/page.tsx).
  const pageSamples: number[] = [];
  let rowsJson = "";
  for (let i = 0; i < 3; i++) {
    t0 = performance.now();
    const proposals = await findProposals({});
    rowsJson = JSON.stringify(toQueueRows(proposals));
    pageSamples.push(ms(t0));
  }
  console.log(`queue page, before: every proposal read and reduced to queue rows: ${summarize(pageSamples)}, rows ${kb(rowsJson)}`);
  // What app/review/page.tsx renders now: the newest 100 proposals; the client reads the rest in the background.
  const firstSamples: number[] = [];
  for (let i = 0; i < 3; i++) {
    t0 = performance.now();
    rowsJson = JSON.stringify(toQueueRows((await findProposalPage({ limit: 100 })).proposals));
    firstSamples.push(ms(t0));
  }
  console.log(`queue page, now: the first 100 proposals as queue rows: ${summarize(firstSamples)}, rows ${kb(rowsJson)}`);

  // Review 10 actions on a version no review has seen (after the apply above), twice.
  const current = await loadGraph(name);
  // Wait for this version's graph rules first (mined in the background after a commit), so
  // "cold" is the review's own per-version work, not the wait for the rules.
  t0 = performance.now();
  await whenGraphRulesReady({ graphId: current.graphId, version: current.version, graph: current.graph });
  console.log(`review: graph rules of the new version mined in the background: ${fmt(ms(t0))} after the bench asked`);
  const tenActions = Array.from({ length: 10 }, (_, i) => action(PROPOSALS + 7, i));
  for (const label of ["cold (first review on this version)", "warm"]) {
    t0 = performance.now();
    await reviewForGraph({ graph: name, version: current.version, actions: tenActions });
    console.log(`review: 10 actions at ${name} size, ${label}: ${fmt(ms(t0))}`);
  }
  void ids;
}
