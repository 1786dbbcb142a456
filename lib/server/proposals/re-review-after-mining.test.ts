/**
 * A proposal reviewed before its version's graph rules were mined is reviewed again once they
 * are (re-review-after-mining.ts), on countries_S1 (real data): the held-out `locatedIn` edge and
 * a made-up one, reviewed with no time to wait for the rules, then again with them. On SQLite and
 * PostgreSQL (REFINERY_TEST_DATABASE=postgres).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { RefinementAction } from "../../loop/types";
import { madeWithoutRules, reviewActions } from "../../review/review-actions";
import { createNameResolver } from "../../review/resolve-action";
import { dataPath } from "../../test/data";
import { findProposalTimeline } from "../approvals";
import { createTestUser } from "../auth/test-support";
import { getDb } from "../db/db";
import type { TestDatabase } from "../db/test-database";
import { useTestDatabase } from "../db/test-database";
import { getGraphSummary, importGraphFromPath } from "../graphs";
import { clearGraphRulesCache, whenGraphRulesReady } from "./graph-rules-cache";
import { createProposal, getProposal, reviewForGraph } from "./proposals";
import { reReviewFailure, reReviewWithoutRules, runningReReview, scheduleReReview } from "./re-review-after-mining";
import { loadGraph } from "../graphs";

let db: TestDatabase;
let version: number;
let graphId: string;
let reviewer: { id: string; username: string };

// test.txt holds it, graph.txt lacks it (ghana is in western_africa there); the made-up one is another region.
const TRUE_EDGE: RefinementAction = { type: "insert_edge", subject: "ghana", relation: "locatedIn", object: "africa" };
const MADE_UP: RefinementAction = { type: "insert_edge", subject: "ghana", relation: "locatedIn", object: "europe" };

const withoutRules = madeWithoutRules;

/**
 * A proposal whose reviews were made while the rules were being mined (what a big graph's
 * request gets after 2 s): the pure review with `rules: null`, as reviewForGraph passes it then.
 * Made directly, with no rules in the cache, so that no mining job, and none of the re-reviews
 * it starts (createProposal's), runs meanwhile: each test starts them itself.
 */
async function proposeBeforeMining(actions: RefinementAction[]): Promise<string> {
  clearGraphRulesCache();
  const { graph } = await loadGraph("countries", version);
  const reviews = reviewActions({ graph, actions, documents: new Map(), resolve: createNameResolver({ graph }), rules: null });
  expect(reviews.every(withoutRules)).toBe(true);
  return createProposal({ graph: "countries", baseVersion: version, source: "api", actions, reviews });
}

beforeAll(async () => {
  db = await useTestDatabase("re-review-after-mining");
  const report = await importGraphFromPath({ path: dataPath("countries_S1", "graph.txt"), name: "countries" });
  graphId = report.graph.id;
  version = (await getGraphSummary("countries")).version;
  reviewer = await createTestUser({ username: "rita", role: "reviewer" });
}, 120_000);

afterAll(async () => {
  clearGraphRulesCache();
  await db.cleanup();
});

describe("reviews made before the graph rules were mined are made again once they are", () => {
  it("replaces the partial reviews with the rules' evidence, audits each, and shows it on the timeline", async () => {
    const id = await proposeBeforeMining([TRUE_EDGE, MADE_UP]);
    const before = await getProposal(id);
    expect(before.actions.map((a) => a.confidence)).toEqual(["LOW", "LOW"]);
    // What the page shows and polls on: no rules asked for in this process yet, so the read's job mines them.
    expect(before.rulesMining).toEqual({ state: "mining", progress: 0 });

    // The read above started the job already; this joins it (one more pass), so the totals hold both.
    const result = await scheduleReReview({ graphId, version, review: reviewForGraph });
    expect(result).toMatchObject({ reviewed: 2, relabelled: 1, skipped: 0 });
    const after = await getProposal(id);
    expect(after.rulesMining).toBeNull();
    const [t, m] = after.actions;
    expect(withoutRules(t?.review)).toBe(false);
    expect(withoutRules(m?.review)).toBe(false);
    // The held-out edge: a mined path rule predicts it. The made-up one stays LOW, now with the rules' reasons.
    expect(t?.confidence).toBe("HIGH");
    expect(t?.review.signals?.some((s) => s.kind === "rule" && s.positive)).toBe(true);
    expect(m?.confidence).toBe("LOW");
    expect(m?.review.signals?.some((s) => s.kind === "functional" || s.kind === "rule")).toBe(true);

    const audits = await getDb().auditEvent.findMany({ where: { action: "action.rereview" }, orderBy: { id: "asc" } });
    expect(audits.map((a) => a.summary)).toEqual([
      `reviewed action 1 of a proposal on countries again once the graph rules of version ${version} were mined: insert_edge("ghana", "locatedIn", "africa") LOW → HIGH`,
      `reviewed action 2 of a proposal on countries again once the graph rules of version ${version} were mined: insert_edge("ghana", "locatedIn", "europe") stays LOW`,
    ]);
    const timeline = await findProposalTimeline({ proposalId: id });
    expect(timeline.filter((e) => e.kind === "rereview").map((e) => [e.who, e.actionIndex, e.text])).toEqual([
      ["system", 0, 'reviewed action 1 insert_edge("ghana", "locatedIn", "africa") again once the graph rules were mined: LOW → HIGH'],
      ["system", 1, 'reviewed action 2 insert_edge("ghana", "locatedIn", "europe") again once the graph rules were mined: stays LOW'],
    ]);

    // Nothing left to do: a second pass finds no review made without the rules.
    expect(await reReviewWithoutRules({ graphId, version, review: reviewForGraph })).toMatchObject({ reviewed: 0, skipped: 0 });
  });

  it("an approval given on the old label is dismissed when the label changes, with the reason", async () => {
    const id = await proposeBeforeMining([TRUE_EDGE]);
    const row = await getDb().proposalAction.findFirstOrThrow({ where: { proposalId: id, index: 0 } });
    await getDb().approval.create({ data: { actionId: row.id, proposalId: id, userId: reviewer.id, kind: "approve", graphVersion: version } });
    const result = await reReviewWithoutRules({ graphId, version, review: reviewForGraph });
    expect(result).toMatchObject({ reviewed: 1, relabelled: 1, dismissedApprovals: 1 });
    const approval = await getDb().approval.findFirstOrThrow({ where: { actionId: row.id } });
    expect(approval.dismissedReason).toBe("the review was made again once the graph rules were mined: LOW → HIGH");
  });

  it("leaves alone what someone changed meanwhile, and decided actions and proposals", async () => {
    const id = await proposeBeforeMining([TRUE_EDGE, MADE_UP]);
    const decided = await proposeBeforeMining([TRUE_EDGE]);
    await getDb().proposalAction.updateMany({ where: { proposalId: decided }, data: { status: "rejected" } });
    await getDb().proposal.update({ where: { id: decided }, data: { status: "rejected" } });
    const stored = await getDb().proposalAction.findMany({ where: { proposalId: id }, orderBy: { index: "asc" } });
    // Rules mined first, so the job reaches its write; an edit lands between its read and its write.
    await whenGraphRulesReady({ graphId, version, graph: (await loadGraph("countries", version)).graph });
    let edited = false;
    const result = await reReviewWithoutRules({
      graphId,
      version,
      review: async (options) => {
        const reviews = await reviewForGraph(options);
        if (!edited) {
          edited = true;
          await getDb().proposalAction.update({ where: { id: stored[1]?.id }, data: { review: `${stored[1]?.review} ` } });
        }
        return reviews;
      },
    });
    expect(result).toMatchObject({ reviewed: 1, skipped: 1 });
    const now = await getProposal(id);
    expect(withoutRules(now.actions[0]?.review)).toBe(false);
    expect(withoutRules(now.actions[1]?.review)).toBe(true);
    expect(withoutRules((await getProposal(decided)).actions[0]?.review)).toBe(true);
    // Those reads started a pass for the edited action: let it end before the next test.
    await scheduleReReview({ graphId, version, review: reviewForGraph });
  });

  it("a partially applied proposal's pending action is reviewed again, its applied one is not", async () => {
    const id = await proposeBeforeMining([MADE_UP, TRUE_EDGE]);
    await getDb().proposalAction.updateMany({ where: { proposalId: id, index: 0 }, data: { status: "applied", appliedIn: version + 1 } });
    await getDb().proposal.update({ where: { id }, data: { status: "partially_applied" } });
    expect(await reReviewWithoutRules({ graphId, version, review: reviewForGraph })).toMatchObject({ reviewed: 1, relabelled: 1 });
    const now = await getProposal(id);
    expect(withoutRules(now.actions[0]?.review)).toBe(true);
    expect(now.actions[1]?.confidence).toBe("HIGH");
    expect(now.rulesMining).toBeNull();
  });

  it("reading a proposal that holds such a review starts the job (after a restart nothing else would)", async () => {
    const id = await proposeBeforeMining([MADE_UP]);
    clearGraphRulesCache();
    expect(runningReReview({ graphId, version })).toBeNull();
    await getProposal(id);
    const started = runningReReview({ graphId, version });
    expect(started).not.toBeNull();
    expect(await started).toMatchObject({ reviewed: 1 });
    expect(withoutRules((await getProposal(id)).actions[0]?.review)).toBe(false);
    expect(runningReReview({ graphId, version })).toBeNull();
  });

  it("a proposal reviewed without the rules (the request's wait ran out) is reviewed again when mining ends, with no read", async () => {
    clearGraphRulesCache();
    const reviews = await reviewForGraph({ graph: "countries", version, actions: [TRUE_EDGE], rulesWaitMs: 0 });
    expect(withoutRules(reviews[0])).toBe(true);
    const id = await createProposal({ graph: "countries", baseVersion: version, source: "api", actions: [TRUE_EDGE], reviews });
    await vi.waitFor(
      async () => {
        const row = await getDb().proposalAction.findFirstOrThrow({ where: { proposalId: id, index: 0 } });
        expect(row.confidence).toBe("HIGH");
      },
      { timeout: 30_000, interval: 100 },
    );
    await runningReReview({ graphId, version });
  });

  it("a failing job is not restarted by every read: it waits 2 s, then 4 s, …, and the proposal says why", async () => {
    const id = await proposeBeforeMining([MADE_UP]);
    await whenGraphRulesReady({ graphId, version, graph: (await loadGraph("countries", version)).graph });
    // The job's clock runs ahead of the reads' (real) clock, so no read here reaches a retry by itself.
    const t0 = Date.now() + 60_000;
    // The job logs each failure; said here, not printed into the test output.
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    let calls = 0;
    const failing = async (): Promise<never> => {
      calls++;
      throw new Error("database is locked");
    };
    expect(await scheduleReReview({ graphId, version, review: failing, now: () => t0 })).toBeNull();
    expect(calls).toBe(1);
    expect(reReviewFailure({ graphId, version })).toMatchObject({ failures: 1, retryAt: t0 + 2_000, error: "database is locked" });
    // Within the wait nothing starts: neither a call nor a read of the proposal.
    expect(await scheduleReReview({ graphId, version, review: failing, now: () => t0 + 1_999 })).toBeNull();
    const read = await getProposal(id);
    expect(runningReReview({ graphId, version })).toBeNull();
    expect(calls).toBe(1);
    expect(read.rulesMining?.state).toBe("reviewing");
    expect(read.rulesMining?.error).toMatch(/^reviewing them again failed once \(database is locked\); trying again in \d+ s$/);
    // After it, one more try; it fails again and the wait doubles.
    await scheduleReReview({ graphId, version, review: failing, now: () => t0 + 2_000 });
    expect(calls).toBe(2);
    expect(reReviewFailure({ graphId, version })).toMatchObject({ failures: 2, retryAt: t0 + 6_000 });
    expect((await getProposal(id)).rulesMining?.error).toMatch(/^reviewing them again failed 2 times in a row \(database is locked\); trying again in \d+ s$/);
    await scheduleReReview({ graphId, version, review: failing, now: () => t0 + 5_999 });
    expect(calls).toBe(2);
    // Once the cause is gone the next try succeeds and clears the failure.
    expect(await scheduleReReview({ graphId, version, review: reviewForGraph, now: () => t0 + 6_000 })).toMatchObject({ reviewed: 1 });
    expect(reReviewFailure({ graphId, version })).toBeNull();
    expect((await getProposal(id)).rulesMining).toBeNull();
    expect(logged.mock.calls.map((c) => String(c[0]))).toEqual([
      expect.stringMatching(/failed \(1 in a row; next try in 2 s\)$/),
      expect.stringMatching(/failed \(2 in a row; next try in 4 s\)$/),
    ]);
    logged.mockRestore();
  });
});
