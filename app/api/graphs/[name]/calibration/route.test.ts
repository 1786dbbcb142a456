/**
 * GET/POST /api/graphs/{name}/calibration through the real handlers with real sessions: anyone
 * who reads sees the statistics; only an admin in a browser applies or resets a re-fit, which
 * needs enough decisions and the thresholds the admin was shown.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/permissions";
import type { RefinementAction } from "@/lib/loop/types";
import type { ActionReview } from "@/lib/review/types";
import { approveActions } from "@/lib/server/approvals/approvals";
import { rejectActions } from "@/lib/server/approvals/approvals-veto";
import { createTestToken, createTestUser, signInHeaders } from "@/lib/server/auth/test-support";
import { getGraphRecord, getGraphSummary } from "@/lib/server/graphs/graph-store";
import { importGraphFromPath } from "@/lib/server/graphs/import-graph";
import { createProposal, reviewForGraph } from "@/lib/server/proposals/proposals";
import type { GraphCalibration } from "@/lib/server/proposals/review-calibration";
import { findLabelThresholds } from "@/lib/server/proposals/review-calibration";
import type { TestDatabase } from "@/lib/server/db/test-database";
import { useTestDatabase } from "@/lib/server/db/test-database";
import { dataPath, readData } from "@/lib/test/data";
import { GET, POST } from "./route";

let db: TestDatabase;
let rita: Actor;

const ctx = (name: string) => ({ params: Promise.resolve({ name }) });
const url = (name: string) => `http://localhost/api/graphs/${encodeURIComponent(name)}/calibration`;

async function get(name: string, headers: Record<string, string>) {
  const res = await GET(new Request(url(name), { headers }), ctx(name));
  return { status: res.status, body: (await res.json()) as GraphCalibration & { error?: { code: string } } };
}

async function post(name: string, headers: Record<string, string>, body: unknown) {
  const res = await POST(new Request(url(name), { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) }), ctx(name));
  return { status: res.status, body: (await res.json()) as GraphCalibration & { error?: { code: string } } };
}

/** One proposal of real countries_S1 edges, decided at once; scores set on the real reviews. */
async function decide(actions: RefinementAction[], score: (i: number) => number, decision: "approve" | "reject"): Promise<void> {
  const summary = await getGraphSummary("countries");
  const reviews = (await reviewForGraph({ graph: "countries", version: summary.version, actions })).map(
    (r, i): ActionReview => ({ ...r, confidence: "HIGH", score: score(i), signals: [{ kind: "rule", contribution: 0.8, summary: "a mined path rule predicts it", positive: true, strong: true }, { kind: "signature", contribution: score(i) - 1, summary: "unusual region" }] }),
  );
  const id = await createProposal({ graph: "countries", baseVersion: summary.version, source: "api", actions, reviews });
  const indexes = actions.map((_, i) => i);
  if (decision === "approve") await approveActions({ proposalId: id, actionIndexes: indexes, actor: rita });
  else await rejectActions({ proposalId: id, actionIndexes: indexes, actor: rita });
}

beforeAll(async () => {
  db = await useTestDatabase("calibration-route");
  await importGraphFromPath({ path: dataPath("countries_S1", "graph.txt"), name: "countries", format: "triples" });
  await createTestUser({ username: "ada", role: "admin" });
  const r = await createTestUser({ username: "rita", role: "reviewer" });
  await createTestUser({ username: "vic", role: "viewer" });
  rita = { kind: "user", userId: r.id, username: "rita", displayName: "rita", role: "reviewer", sessionId: "test" };
});

afterAll(async () => {
  await db.cleanup();
});

describe("GET /api/graphs/{name}/calibration", () => {
  it("shows a viewer the empty statistics and why there is no re-fit yet", async () => {
    const r = await get("countries", await signInHeaders("vic"));
    expect(r.status).toBe(200);
    expect(r.body.stats.decided).toBe(0);
    expect(r.body.thresholds).toBeNull();
    expect(r.body.refit.thresholds).toBeNull();
    expect(r.body.refit.reason).toMatch(/at least 20 decisions/);
  });

  it("answers 404 for a graph that does not exist", async () => {
    expect((await get("nosuch", await signInHeaders("vic"))).status).toBe(404);
  });
});

describe("POST /api/graphs/{name}/calibration", () => {
  it("refuses a re-fit without enough decisions (409) and a reviewer or a token (403)", async () => {
    expect((await post("countries", await signInHeaders("ada"), { action: "refit" })).status).toBe(409);
    expect((await post("countries", await signInHeaders("rita"), { action: "refit" })).status).toBe(403);
    expect((await post("countries", await createTestToken("ada", "propose"), { action: "reset" })).status).toBe(403);
    expect((await post("countries", await signInHeaders("ada"), { action: "tune" })).body.error?.code).toBe("INVALID_INPUT");
  });

  it("applies the re-fit the admin was shown, then resets it", async () => {
    const lines = readData("countries_S1", "test.txt").trim().split("\n").slice(0, 12).map((l) => l.split("\t"));
    const truths = lines.map(([s, r, o]): RefinementAction => ({ type: "insert_edge", subject: s ?? "", relation: r ?? "", object: o ?? "" }));
    const madeUp = lines.map(([s, r, o]): RefinementAction => ({ type: "insert_edge", subject: s ?? "", relation: r ?? "", object: o === "oceania" ? "africa" : "oceania" }));
    await decide(truths, (i) => 0.55 + i * 0.03, "approve");
    await decide(madeUp, (i) => 0.05 + i * 0.03, "reject");

    const shown = await get("countries", await signInHeaders("vic"));
    expect(shown.body.stats.stats.find((s) => s.kind === "insert_edge" && s.label === "HIGH")).toMatchObject({ decided: 24, approved: 12, rejected: 12, reverted: 0 });
    const proposed = shown.body.refit.thresholds;
    expect(proposed).not.toBeNull();
    if (!proposed) return;
    expect(proposed.medium).toBeGreaterThan(0.05 + 11 * 0.03);
    expect(proposed.medium).toBeLessThanOrEqual(0.55);

    const stale = await post("countries", await signInHeaders("ada"), { action: "refit", expected: { high: proposed.high, medium: 0 } });
    expect(stale.status).toBe(409);
    const applied = await post("countries", await signInHeaders("ada"), { action: "refit", expected: proposed });
    expect(applied.status).toBe(200);
    expect(applied.body.thresholds).toMatchObject({ ...proposed, decisions: 24, appliedBy: "ada" });
    const graphId = (await getGraphRecord("countries")).id;
    expect(await findLabelThresholds(graphId)).toEqual(proposed);

    const reset = await post("countries", await signInHeaders("ada"), { action: "reset" });
    expect(reset.status).toBe(200);
    expect(reset.body.thresholds).toBeNull();
    expect(await findLabelThresholds(graphId)).toBeNull();
  });
});
