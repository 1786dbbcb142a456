/**
 * GET /api/proposals/rows, the review queue's compact read: the same pages, cursor, filters and
 * summary as GET /api/proposals, each proposal without evidence, suggestions or decision history,
 * and the queue rows built from it equal the rows built from the full proposals.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RefinementAction } from "@/lib/loop/types";
import { dataPath } from "@/lib/test/data";
import { getDb } from "@/lib/server/db/db";
import type { ProposalPage } from "@/lib/server/proposals/find-proposal-page";
import type { QueueProposalPage } from "@/lib/server/proposals/queue-proposals";
import { loadGraph } from "@/lib/server/graphs/graph-store";
import { importGraphFromPath } from "@/lib/server/graphs/import-graph";
import { createProposal, reviewForGraph } from "@/lib/server/proposals/proposals";
import { createTestUser, signInHeaders } from "@/lib/server/auth/test-support";
import type { TestDatabase } from "@/lib/server/db/test-database";
import { useTestDatabase } from "@/lib/server/db/test-database";
import { toQueueRows } from "@/components/review/queue-rows";
import type { Actor } from "@/lib/auth/permissions";
import { approveActions, rejectActions } from "@/lib/server/approvals";
import { GET as listFull } from "../route";
import { GET as listRows } from "./route";

/** Proposals of three actions each; the last action of every proposal is the same (copies merge into one queue row). */
const COUNT = 23;
const REJECTED = 4;
let db: TestDatabase;
let headers: Record<string, string>;
let rita: Extract<Actor, { kind: "user" }>;

async function call<T>(handler: (r: Request) => Promise<Response>, path: string, query: string): Promise<{ status: number; body: T; bytes: number }> {
  const res = await handler(new Request(`http://localhost${path}${query}`, { headers }));
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as T, bytes: Buffer.byteLength(text) };
}
const rows = (query: string) => call<QueueProposalPage & { error?: { code: string } }>(listRows, "/api/proposals/rows", query);
const full = (query: string) => call<ProposalPage>(listFull, "/api/proposals", query);

async function walk(get: (query: string) => Promise<{ status: number; body: QueueProposalPage | ProposalPage; bytes: number }>, query: string, limit: number) {
  const proposals: { id: string }[] = [];
  let cursor: string | null = null;
  let pages = 0;
  let bytes = 0;
  do {
    const page: { status: number; body: QueueProposalPage | ProposalPage; bytes: number } = await get(`?limit=${limit}${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(page.status).toBe(200);
    expect(page.body.proposals.length).toBeLessThanOrEqual(limit);
    proposals.push(...page.body.proposals);
    cursor = page.body.nextCursor;
    bytes += page.bytes;
    pages++;
  } while (cursor);
  return { proposals, pages, bytes };
}

beforeAll(async () => {
  db = await useTestDatabase("proposal-rows");
  await importGraphFromPath({ path: dataPath("graphify", "httpx"), name: "httpx" });
  await createTestUser({ username: "vera", role: "viewer" });
  headers = await signInHeaders("vera");
  const loaded = await loadGraph("httpx");
  const ids = [...loaded.graph.nodes.keys()];
  const shared: RefinementAction = { type: "insert_edge", subject: ids[0] as string, relation: "rows_test_shared", object: ids[1] as string };
  const batches: RefinementAction[][] = Array.from({ length: COUNT }, (_, i) => [
    { type: "insert_edge", subject: ids[i + 2] as string, relation: "calls", object: ids[i + 3] as string },
    { type: "delete_edge", subject: ids[i + 3] as string, relation: "rows_test_rel", object: ids[i + 4] as string },
    shared,
  ]);
  const reviews = await reviewForGraph({ graph: "httpx", version: loaded.version, actions: batches.flat() });
  for (let i = 0; i < COUNT; i++) {
    await createProposal({
      graph: "httpx",
      baseVersion: loaded.version,
      source: i % 3 === 0 ? "agent" : "api",
      question: `rows question ${i % 4}`,
      actions: batches[i]!,
      reviews: reviews.slice(i * 3, i * 3 + 3).map((r, j) => ({ ...r, index: j })),
    });
  }
  const decided = await getDb().proposal.findMany({ take: REJECTED, orderBy: { createdAt: "asc" }, select: { id: true } });
  await getDb().proposal.updateMany({ where: { id: { in: decided.map((p) => p.id) } }, data: { status: "rejected" } });
  // Two reviewers (team mode: one approval of two leaves the action pending), an approval and a veto.
  const reviewer = async (username: string): Promise<Extract<Actor, { kind: "user" }>> => {
    const user = await createTestUser({ username, role: "reviewer" });
    return { kind: "user", userId: user.id, username, displayName: username, role: "reviewer", sessionId: username };
  };
  rita = await reviewer("rita");
  const remy = await reviewer("remy");
  const newest = await getDb().proposal.findMany({ take: 2, orderBy: { createdAt: "desc" }, select: { id: true } });
  await approveActions({ proposalId: newest[0]!.id, actionIndexes: [0], actor: rita, lowConfidenceConfirmed: true, reason: "checked in the source for this test" });
  await rejectActions({ proposalId: newest[1]!.id, actionIndexes: [1], actor: remy, reason: "not in the source" });
});

afterAll(async () => {
  await db.cleanup();
});

describe("GET /api/proposals/rows", () => {
  it("answers 200 a page by default with the summary GET /api/proposals gives", async () => {
    const compact = await rows("");
    expect(compact.status).toBe(200);
    expect(compact.body.limit).toBe(200);
    expect(compact.body.proposals).toHaveLength(COUNT);
    expect(compact.body.nextCursor).toBeNull();
    const whole = await full("?limit=200");
    expect(compact.body.summary).toEqual(whole.body.summary);
    expect(compact.body.summary.total).toBe(COUNT);
    expect(compact.body.summary.byStatus.rejected).toBe(REJECTED);
    expect(compact.body.proposals.map((p) => p.id)).toEqual(whole.body.proposals.map((p) => p.id));
  });

  it("walks every proposal exactly once, newest first, in the order of the full read", async () => {
    const compact = await walk(rows, "", 5);
    const whole = await walk(full, "", 200);
    expect(compact.pages).toBe(Math.ceil(COUNT / 5));
    expect(new Set(compact.proposals.map((p) => p.id)).size).toBe(COUNT);
    expect(compact.proposals.map((p) => p.id)).toEqual(whole.proposals.map((p) => p.id));
  });

  it("filters by status, origin and graph, with the counts of the full read", async () => {
    for (const query of ["&status=rejected", "&status=pending", "&origin=agent", "&origin=person", "&graph=httpx&status=pending&origin=cli"]) {
      const compact = await walk(rows, query, 3);
      const whole = await full(`?limit=200${query}`);
      expect(compact.proposals.map((p) => p.id), query).toEqual(whole.body.proposals.map((p) => p.id));
      const first = await rows(`?limit=3${query}`);
      expect(first.body.summary, query).toEqual(whole.body.summary);
    }
    expect((await rows("?status=rejected")).body.summary.total).toBe(REJECTED);
    const agent = (await rows("?origin=agent")).body;
    expect(agent.proposals.length).toBe(Math.ceil(COUNT / 3));
    expect(agent.summary.byOrigin).toEqual({ person: 0, agent: Math.ceil(COUNT / 3), cli: COUNT - Math.ceil(COUNT / 3), campaign: 0 });
    expect(agent.proposals.every((p) => p.origin === "agent")).toBe(true);
  });

  it("gives the queue the same rows as the full proposals, without their evidence", async () => {
    const compact = await rows("");
    const whole = await full("?limit=200");
    const approved = compact.body.proposals[0]?.actions[0]?.evaluation;
    expect(approved?.approverIds).toEqual([rita.userId]);
    expect(compact.body.proposals[1]?.actions[1]?.evaluation.vetoers.map((v) => v.userName)).toEqual(["remy"]);
    for (const viewer of [null, rita]) {
      expect(toQueueRows(compact.body.proposals, viewer)).toEqual(toQueueRows(whole.body.proposals, viewer));
    }
    // The shared action is one row listing its pending copies.
    const merged = toQueueRows(compact.body.proposals).filter((r) => r.action.type === "insert_edge" && r.action.relation === "rows_test_shared");
    expect(merged).toHaveLength(1);
    const pendingCopies = whole.body.proposals.filter((p) => p.actions[2]?.status === "pending").length;
    expect(pendingCopies).toBeGreaterThan(1);
    expect(merged[0]?.sources.length).toBe(pendingCopies);
    const action = compact.body.proposals[0]?.actions[0] as unknown as Record<string, unknown>;
    expect(action).not.toHaveProperty("decisions");
    expect(action.review).not.toHaveProperty("evidence");
    expect(action.review).not.toHaveProperty("suggestions");
    expect((action.review as { signals: unknown[] }).signals.length).toBeLessThanOrEqual(3);
    expect((action.review as { reasons: unknown[] }).reasons.length).toBeLessThanOrEqual(1);
    expect(compact.bytes).toBeLessThan(whole.bytes / 2);
  });

  it("allows pages up to 500 and refuses more, and cursors it did not give out", async () => {
    expect((await rows("?limit=500")).status).toBe(200);
    expect((await rows("?limit=501")).status).toBe(400);
    expect((await rows("?limit=0")).status).toBe(400);
    const bad = await rows("?cursor=not-a-cursor");
    expect(bad.status).toBe(400);
    expect(bad.body.error?.code).toBe("INVALID_INPUT");
  });
});
