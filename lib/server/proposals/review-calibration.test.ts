/**
 * Decision statistics and the threshold re-fit, from decisions made through the real approval,
 * veto, withdrawal and revert functions on real graphs (graphify httpx, countries_S1).
 */
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import type { Actor } from "../../auth/permissions";
import { isAppError } from "../../errors";
import type { RefinementAction } from "../../loop/types";
import type { ActionReview } from "../../review/types";
import { dataPath, readData } from "../../test/data";
import { approveActions } from "../approvals";
import { rejectActions, withdrawDecision } from "../approvals";
import { createTestUser } from "../auth/test-support";
import { revertVersion } from "./changesets";
import { getDb } from "../db/db";
import { getGraphRecord, getGraphSummary } from "../graphs";
import { importGraphFromPath } from "../graphs";
import type { calibrationResponses as calibrationSchemas } from "./contract";
import { createProposal, reviewForGraph } from "./proposals";
import type { GraphCalibration, LabelDecisionStats } from "./review-calibration";
import { applyThresholdRefit, findDecisionStats, findLabelThresholds, getCalibration, resetThresholds } from "./review-calibration";
import type { TestDatabase } from "../db/test-database";
import { useTestDatabase } from "../db/test-database";

let db: TestDatabase;
const people: Record<string, Actor> = {};

function actor(name: string): Actor {
  const a = people[name];
  if (!a) throw new Error(`no user ${name}`);
  return a;
}

async function propose(graph: string, actions: RefinementAction[], adjust?: (review: ActionReview, i: number) => ActionReview): Promise<{ id: string; reviews: ActionReview[] }> {
  const summary = await getGraphSummary(graph);
  const reviewed = await reviewForGraph({ graph, version: summary.version, actions });
  const reviews = adjust ? reviewed.map(adjust) : reviewed;
  const id = await createProposal({ graph, baseVersion: summary.version, source: "api", actions, reviews });
  return { id, reviews };
}

/** Approve as many people as the label needs (LOW: confirmed, with a reason). */
async function approveFully(id: string, index: number, label: string): Promise<void> {
  const approvers = label === "LOW" ? ["rita", "remy"] : ["rita"];
  for (const name of approvers) {
    await approveActions({ proposalId: id, actionIndexes: [index], actor: actor(name), lowConfidenceConfirmed: true, reason: "checked against the source file" });
  }
}

function entry(stats: LabelDecisionStats[], kind: string, label: string): LabelDecisionStats | undefined {
  return stats.find((s) => s.kind === kind && s.label === label);
}

beforeAll(async () => {
  db = await useTestDatabase("review-calibration");
  await importGraphFromPath({ path: dataPath("graphify", "httpx"), name: "httpx" });
  await importGraphFromPath({ path: dataPath("countries_S1", "graph.txt"), name: "countries", format: "triples" });
  for (const [username, role] of [
    ["ada", "admin"],
    ["rita", "reviewer"],
    ["remy", "reviewer"],
  ] as const) {
    const u = await createTestUser({ username, role });
    people[username] = { kind: "user", userId: u.id, username, displayName: username, role, sessionId: "test" };
  }
});

afterAll(async () => {
  await db.cleanup();
});

describe("decision statistics", () => {
  it("are empty before anyone decided, with every kind × label present", async () => {
    const [stats] = await findDecisionStats({ graphs: ["httpx"] });
    expect(stats?.decided).toBe(0);
    expect(stats?.stats).toHaveLength(9);
    expect(stats?.stats.every((s) => s.decided === 0)).toBe(true);
  });

  it("count approvals, vetoes and reverts per kind and label; pending and withdrawn vetoes do not count", async () => {
    const insert: RefinementAction = { type: "insert_edge", subject: "Client", relation: "calls", object: "_build_request" };
    const made: RefinementAction = { type: "insert_edge", subject: "main", relation: "calls", object: "unknown" };
    const del: RefinementAction = { type: "delete_edge", subject: "Timeout", relation: "uses", object: "Request" };
    const waiting: RefinementAction = { type: "insert_edge", subject: "Client", relation: "inherits", object: "BaseClient" };

    const a = await propose("httpx", [insert]);
    await approveFully(a.id, 0, a.reviews[0]?.confidence ?? "LOW");
    const b = await propose("httpx", [made]);
    await rejectActions({ proposalId: b.id, actionIndexes: [0], actor: actor("remy"), reason: "no such function" });
    const c = await propose("httpx", [del]);
    await approveFully(c.id, 0, c.reviews[0]?.confidence ?? "LOW");
    const applied = await getDb().proposalAction.findFirstOrThrow({ where: { proposalId: c.id }, select: { appliedIn: true } });
    await revertVersion({ graph: "httpx", version: applied.appliedIn ?? 0, actor: "ada" });
    await propose("httpx", [waiting]);
    // A veto withdrawn puts the action back to pending: no decision.
    const d = await propose("httpx", [made]);
    await rejectActions({ proposalId: d.id, actionIndexes: [0], actor: actor("rita") });
    await withdrawDecision({ proposalId: d.id, actionIndex: 0, actor: actor("rita") });

    const [stats] = await findDecisionStats({ graphs: ["httpx", "countries"] });
    expect(stats?.graph).toBe("httpx");
    expect(stats?.decided).toBe(3);
    const approvedInsert = entry(stats?.stats ?? [], "insert_edge", a.reviews[0]?.confidence ?? "");
    const vetoedInsert = entry(stats?.stats ?? [], "insert_edge", b.reviews[0]?.confidence ?? "");
    if (a.reviews[0]?.confidence === b.reviews[0]?.confidence) {
      expect(approvedInsert).toMatchObject({ decided: 2, approved: 1, rejected: 1, reverted: 0 });
    } else {
      expect(approvedInsert).toMatchObject({ decided: 1, approved: 1, rejected: 0, reverted: 0 });
      expect(vetoedInsert).toMatchObject({ decided: 1, approved: 0, rejected: 1, reverted: 0 });
    }
    expect(entry(stats?.stats ?? [], "delete_edge", c.reviews[0]?.confidence ?? "")).toMatchObject({ decided: 1, approved: 1, rejected: 0, reverted: 1 });
    expect(entry(stats?.stats ?? [], "replace_node", "HIGH")?.decided).toBe(0);
  });
});

describe("the threshold re-fit", () => {
  // True edges: countries_S1's held-out test edges (absent from graph.txt). Made-up ones: the
  // same country in the wrong region. The scores are set on the real reviews so the test pins how
  // decisions become thresholds, independently of how the scorer of the day scores them.
  const truths = readData("countries_S1", "test.txt")
    .trim()
    .split("\n")
    .map((l) => l.split("\t"))
    .filter((p) => p.length === 3)
    .slice(0, 14);
  const REGIONS = ["africa", "asia", "europe", "americas", "oceania"];
  const wrong = (region: string, i: number) => REGIONS.filter((r) => r !== region)[i % 4] ?? "oceania";
  const asAction = ([s, r, o]: string[]): RefinementAction => ({ type: "insert_edge", subject: s ?? "", relation: r ?? "", object: o ?? "" });
  const scored = (score: number, positive: boolean) => (review: ActionReview): ActionReview => ({
    ...review,
    confidence: positive && score >= 0.5 ? "HIGH" : positive ? "MEDIUM" : "LOW",
    score,
    signals: positive
      ? [
          { kind: "rule", contribution: 0.8, summary: "a mined path rule predicts it", positive: true, strong: true },
          { kind: "signature", contribution: -(1 - score), summary: "the region is unusual for this relation" },
        ]
      : [{ kind: "rule", contribution: -0.5, summary: "no rule predicts it" }],
  });
  let calibration: GraphCalibration;

  it("proposes nothing while there are too few decisions", async () => {
    const now = await getCalibration({ graph: "countries" });
    expect(now.refit.thresholds).toBeNull();
    expect(now.refit.reason).toContain("at least 20");
    await expect(applyThresholdRefit({ graph: "countries", actor: actor("ada") })).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("fits on approved, vetoed and reverted decisions, leaving actions without positive evidence out", async () => {
    const accepted = truths.slice(0, 13);
    const good = await propose("countries", accepted.map(asAction), (r, i) => scored(0.6 + i * 0.025, true)(r));
    await approveActions({ proposalId: good.id, actionIndexes: accepted.map((_, i) => i), actor: actor("rita") });
    // One of them is undone later: reverted counts against its score band.
    const late = await propose("countries", [asAction(truths[13] ?? [])], scored(0.62, true));
    await approveActions({ proposalId: late.id, actionIndexes: [0], actor: actor("remy") });
    const version = (await getDb().proposalAction.findFirstOrThrow({ where: { proposalId: late.id }, select: { appliedIn: true } })).appliedIn ?? 0;
    await revertVersion({ graph: "countries", version, actor: "ada" });
    const madeUp = truths.slice(0, 12).map(([s, r, o], i) => asAction([s ?? "", r ?? "", wrong(o ?? "", i)]));
    const bad = await propose("countries", madeUp, (r, i) => scored(0.1 + i * 0.025, true)(r));
    await rejectActions({ proposalId: bad.id, actionIndexes: madeUp.map((_, i) => i), actor: actor("remy") });
    // High scores but no positive evidence, vetoed: fitted, they would drag MEDIUM up; they are not.
    const floor = await propose("countries", madeUp.slice(0, 3), (r, i) => scored(0.9 + i * 0.02, false)(r));
    await rejectActions({ proposalId: floor.id, actionIndexes: [0, 1, 2], actor: actor("remy") });

    calibration = await getCalibration({ graph: "countries" });
    expect(calibration.stats.decided).toBe(29);
    expect(calibration.refit).toMatchObject({ decisions: 26, accepted: 13, refused: 13, floorDecisions: 3, unscoredDecisions: 0 });
    const t = calibration.refit.thresholds;
    expect(t).not.toBeNull();
    // Every vetoed made-up edge (≤ 0.375) is LOW; the reverted one (0.62) is not HIGH.
    expect(t?.medium).toBeGreaterThan(0.375);
    expect(t?.high).toBeGreaterThan(0.62);
    expect(calibration.refit.high.precision).toBeGreaterThanOrEqual(0.97);
    expect(calibration.refit.agreementAfter).toBeGreaterThanOrEqual(25 / 26);
    expect(await findLabelThresholds((await getGraphRecord("countries")).id)).toBeNull();
  });

  it("is applied by an admin only, refuses a stale expectation, is audited and undone by a reset", async () => {
    const proposed = calibration.refit.thresholds ?? { high: 1, medium: 1 };
    const graphId = (await getGraphRecord("countries")).id;
    await expect(applyThresholdRefit({ graph: "countries", actor: actor("rita") })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const stale = await applyThresholdRefit({ graph: "countries", actor: actor("ada"), expected: { high: 0.99, medium: 0.01 } }).catch((e: unknown) => e);
    expect(isAppError(stale) && stale.code).toBe("CONFLICT");
    expect(await findLabelThresholds(graphId)).toBeNull();

    const after = await applyThresholdRefit({ graph: "countries", actor: actor("ada"), expected: proposed });
    expect(after.thresholds).toMatchObject({ ...proposed, decisions: 26, appliedBy: "ada" });
    expect(await findLabelThresholds(graphId)).toEqual(proposed);
    expect(await findLabelThresholds((await getGraphRecord("httpx")).id)).toBeNull();

    const reset = await resetThresholds({ graph: "countries", actor: actor("ada") });
    expect(reset.thresholds).toBeNull();
    expect(await findLabelThresholds(graphId)).toBeNull();
    const events = await getDb().auditEvent.findMany({ where: { action: "policy.thresholds", graphName: "countries" }, orderBy: { id: "asc" } });
    expect(events.map((e) => e.summary)).toEqual([
      expect.stringMatching(/^re-fitted the review thresholds of countries from 26 decisions: defaults \(HIGH ≥ [0-9.]+, MEDIUM ≥ [0-9.]+\) → HIGH ≥ /),
      expect.stringMatching(/^reset the review thresholds of countries to the defaults \(were HIGH ≥ /),
    ]);
  });

  it("ignores a damaged settings row instead of changing labels", async () => {
    const graphId = (await getGraphRecord("countries")).id;
    await getDb().setting.create({ data: { key: `review.thresholds:${graphId}`, value: '{"high":0.2,"medium":0.9,"decisions":1,"appliedAt":"x","appliedBy":"y"}' } });
    expect(await findLabelThresholds(graphId)).toBeNull();
    await getDb().setting.delete({ where: { key: `review.thresholds:${graphId}` } });
  });
});

it("the OpenAPI schema accepts what getCalibration returns (checked by tsc)", () => {
  expectTypeOf<GraphCalibration>().toExtend<z.infer<(typeof calibrationSchemas)["GraphCalibration"]>>();
});
