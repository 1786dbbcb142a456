/**
 * GET /api/proposals in pages: default 50, at most 200, newest first, a cursor that walks every
 * proposal exactly once, and a summary (by status, by label) of everything the filters match.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RefinementAction } from "@/lib/loop/types";
import { dataPath } from "@/lib/test/data";
import { getDb } from "@/lib/server/db/db";
import type { ProposalPage } from "@/lib/server/proposals/find-proposal-page";
import { loadGraph } from "@/lib/server/graphs/graph-store";
import { importGraphFromPath } from "@/lib/server/graphs/import-graph";
import { createProposal, reviewForGraph } from "@/lib/server/proposals/proposals";
import { createTestUser, signInHeaders } from "@/lib/server/auth/test-support";
import type { TestDatabase } from "@/lib/server/db/test-database";
import { useTestDatabase } from "@/lib/server/db/test-database";
import { GET } from "./route";

const COUNT = 61;
let db: TestDatabase;
let headers: Record<string, string>;

async function list(query: string): Promise<{ status: number; body: ProposalPage & { error?: { code: string } } }> {
  const res = await GET(new Request(`http://localhost/api/proposals${query}`, { headers }));
  return { status: res.status, body: (await res.json()) as ProposalPage & { error?: { code: string } } };
}

beforeAll(async () => {
  db = await useTestDatabase("proposal-pages");
  await importGraphFromPath({ path: dataPath("graphify", "httpx"), name: "httpx" });
  await createTestUser({ username: "vera", role: "viewer" });
  headers = await signInHeaders("vera");
  const loaded = await loadGraph("httpx");
  const ids = [...loaded.graph.nodes.keys()].slice(0, COUNT + 1);
  // Distinct actions (one per proposal), reviewed together once.
  const actions: RefinementAction[] = ids.slice(1).map((id, i) => ({ type: "insert_edge", subject: ids[i] ?? id, relation: "pages_test_rel", object: id }));
  const reviews = await reviewForGraph({ graph: "httpx", version: loaded.version, actions });
  for (let i = 0; i < actions.length; i++) {
    await createProposal({ graph: "httpx", baseVersion: loaded.version, source: "api", actions: [actions[i]!], reviews: [reviews[i]!] });
  }
  // Some decided, so the summary has more than one status.
  const decided = await getDb().proposal.findMany({ take: 5, orderBy: { createdAt: "asc" }, select: { id: true } });
  await getDb().proposal.updateMany({ where: { id: { in: decided.map((p) => p.id) } }, data: { status: "rejected" } });
});

afterAll(async () => {
  await db.cleanup();
});

describe("GET /api/proposals pages", () => {
  it("answers 50 by default with a cursor and a summary of all that match", async () => {
    const { status, body } = await list("");
    expect(status).toBe(200);
    expect(body.proposals).toHaveLength(50);
    expect(body.limit).toBe(50);
    expect(body.nextCursor).toEqual(expect.any(String));
    expect(body.summary.total).toBe(COUNT);
    expect(body.summary.byStatus).toEqual({ pending: COUNT - 5, applied: 0, partially_applied: 0, rejected: 5 });
    const labels = body.summary.byLabel;
    expect(labels.HIGH + labels.MEDIUM + labels.LOW).toBe(COUNT);
    // The rejected proposals' actions stay "pending" rows here (only the proposal was marked), so
    // count the action rows the database holds, not the proposals.
    const pending = await getDb().proposalAction.groupBy({ by: ["confidence"], where: { status: "pending" }, _count: { _all: true } });
    expect(body.summary.pendingActions).toBe(pending.reduce((sum, r) => sum + r._count._all, 0));
    const byLabel = body.summary.pendingByLabel;
    expect(byLabel.HIGH + byLabel.MEDIUM + byLabel.LOW).toBe(body.summary.pendingActions);
  });

  it("walks every proposal exactly once, newest first, following nextCursor", async () => {
    const seen: string[] = [];
    const times: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const { status, body }: Awaited<ReturnType<typeof list>> = await list(`?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(status).toBe(200);
      expect(body.proposals.length).toBeLessThanOrEqual(7);
      seen.push(...body.proposals.map((p) => p.id));
      times.push(...body.proposals.map((p) => p.createdAt));
      cursor = body.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(Math.ceil(COUNT / 7));
    expect(new Set(seen).size).toBe(COUNT);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it("filters by status in the page and the total, and keeps per-status counts for tabs", async () => {
    const { body } = await list("?status=rejected&limit=200");
    expect(body.proposals).toHaveLength(5);
    expect(body.proposals.every((p) => p.status === "rejected")).toBe(true);
    expect(body.nextCursor).toBeNull();
    expect(body.summary.total).toBe(5);
    expect(body.summary.byStatus.pending).toBe(COUNT - 5);
    expect(body.summary.byLabel.HIGH + body.summary.byLabel.MEDIUM + body.summary.byLabel.LOW).toBe(5);
  });

  it("refuses a limit over 200 and a cursor it did not give out (400, INVALID_INPUT)", async () => {
    for (const query of ["?limit=201", "?limit=0", "?cursor=not-a-cursor", `?cursor=${Buffer.from('["x",1]').toString("base64url")}`]) {
      const { status, body } = await list(query);
      expect(status, query).toBe(400);
      expect(body.error?.code).toBe("INVALID_INPUT");
    }
  });
});
