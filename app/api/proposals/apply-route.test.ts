/**
 * The HTTP API enforces the LOW-confidence confirmation itself: a client that skips the
 * dialog gets 428 and the graph does not change. Route handlers are called with real Requests.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataPath } from "@/lib/test/data";
import type { TestDatabase } from "@/lib/server/test-database";
import { useTestDatabase } from "@/lib/server/test-database";
import { getGraphSummary } from "@/lib/server/graph-store";
import { importGraphFromPath } from "@/lib/server/import-graph";
import { createProposal, reviewForGraph } from "@/lib/server/proposals";
import { findVersions } from "@/lib/server/changesets";
import { POST as apply } from "./[id]/apply/route";
import { GET as preview } from "./[id]/preview/route";

let db: TestDatabase;
let proposalId: string;

beforeAll(async () => {
  db = await useTestDatabase("api");
  await importGraphFromPath({ path: dataPath("graphify", "httpx"), name: "httpx" });
  const actions = [{ type: "insert_edge" as const, subject: "main", relation: "calls", object: "unknown" }];
  const reviews = await reviewForGraph({ graph: "httpx", actions });
  expect(reviews[0]?.confidence).toBe("LOW");
  proposalId = await createProposal({ graph: "httpx", baseVersion: 1, source: "api", actions, reviews });
});

afterAll(async () => {
  await db.cleanup();
});

const post = (body: unknown) =>
  apply(new Request("http://test/api", { method: "POST", body: JSON.stringify(body) }), { params: Promise.resolve({ id: proposalId }) });

describe("POST /api/proposals/{id}/apply", () => {
  it("previews without changing anything", async () => {
    const res = await preview(new Request("http://test/api"), { params: Promise.resolve({ id: proposalId }) });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { diff: { addedEdges: unknown[] }; graph: { edges: { status: string }[] } };
    expect(body.diff.addedEdges.length).toBe(1);
    expect(body.graph.edges.some((e) => e.status === "added")).toBe(true);
    expect((await getGraphSummary("httpx")).version).toBe(1);
  });

  it("refuses a LOW action without the confirmation, and with an empty reason", async () => {
    const bare = await post({});
    expect(bare.status).toBe(428);
    expect(((await bare.json()) as { error: { code: string } }).error.code).toBe("CONFIRMATION_REQUIRED");
    const noReason = await post({ lowConfidence: { accepted: true, reason: " " } });
    expect(noReason.status).toBe(400);
    const notAccepted = await post({ lowConfidence: { accepted: false, reason: "sure" } });
    expect(notAccepted.status).toBe(400);
    expect((await getGraphSummary("httpx")).version).toBe(1);
  });

  it("applies with an explicit acceptance and a reason; a second approval is a conflict", async () => {
    const ok = await post({ lowConfidence: { accepted: true, reason: "checked the code by hand" } });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { version: number }).version).toBe(2);
    const again = await post({ lowConfidence: { accepted: true, reason: "again" } });
    expect(again.status).toBe(409);
    expect((await getGraphSummary("httpx")).version).toBe(2);
    const versions = await findVersions("httpx");
    expect(versions[0]?.message).toContain("LOW confidence accepted for action(s) 1: checked the code by hand");
  });
});
