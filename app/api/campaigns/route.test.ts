/**
 * The campaign endpoints through the real handlers with real sessions, on countries_S1 (its
 * held-out edges' countries as queued questions): POST starts a campaign (202) that GET
 * /api/campaigns/{id} then shows finished; the list; stop of a finished one is a CONFLICT;
 * bad input and viewers are refused by code.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CampaignDetails, CampaignSummary } from "@/lib/server/campaigns/campaigns";
import { createTestUser, signInHeaders } from "@/lib/server/auth/test-support";
import { importGraphFromPath } from "@/lib/server/graphs/import-graph";
import type { TestDatabase } from "@/lib/server/db/test-database";
import { useTestDatabase } from "@/lib/server/db/test-database";
import { dataPath } from "@/lib/test/data";
import { GET as getCampaignRoute } from "./[id]/route";
import { POST as stopRoute } from "./[id]/stop/route";
import { GET, POST } from "./route";

let db: TestDatabase;
const idCtx = (id: string) => ({ params: Promise.resolve({ id }) });
const url = (path: string) => `http://localhost${path}`;
type Body<T> = T & { error?: { code: string; message: string } };

async function post(headers: Record<string, string>, body: unknown) {
  const res = await POST(new Request(url("/api/campaigns"), { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) }));
  return { status: res.status, body: (await res.json()) as Body<{ campaignId: string }> };
}

async function get(id: string, headers: Record<string, string>) {
  const res = await getCampaignRoute(new Request(url(`/api/campaigns/${id}`), { headers }), idCtx(id));
  return { status: res.status, body: (await res.json()) as Body<CampaignDetails> };
}

beforeAll(async () => {
  db = await useTestDatabase("campaigns-route");
  await importGraphFromPath({ path: dataPath("countries_S1", "graph.txt"), name: "countries", format: "triples" });
  await createTestUser({ username: "rita", role: "reviewer" });
  await createTestUser({ username: "vic", role: "viewer" });
}, 60_000);

afterAll(async () => {
  await db.cleanup();
});

describe("/api/campaigns", () => {
  it("starts a campaign (202) that runs to a halt; GET shows every iteration; the list has it", async () => {
    const rita = await signInHeaders("rita");
    const started = await post(rita, { graph: "countries", questions: [{ question: "Which region is eritrea located in?", answers: ["africa"] }, { question: "Which region is ghana located in?", answers: ["africa"] }], provider: "heuristic", iterationCap: 2 });
    expect(started.status).toBe(202);
    const id = started.body.campaignId;
    let c = (await get(id, await signInHeaders("vic"))).body;
    for (let i = 0; i < 200 && c.status === "running"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      c = (await get(id, rita)).body;
    }
    expect(c.status).toBe("finished");
    expect(c.iterationList[0]?.decision).toBe("BASELINE");
    expect(c.worklog).toHaveLength(c.iterationList.length);
    expect(c.questionList.map((q) => q.id)).toEqual(["q1", "q2"]);
    const list = (await (await GET(new Request(url("/api/campaigns?graph=countries"), { headers: rita }))).json()) as CampaignSummary[];
    expect(list.map((x) => x.id)).toContain(id);
    const stop = await stopRoute(new Request(url(`/api/campaigns/${id}/stop`), { method: "POST", headers: rita }), idCtx(id));
    expect(stop.status).toBe(409);
  }, 60_000);

  it("refuses bad input, unknown campaigns and viewers by code", async () => {
    const rita = await signInHeaders("rita");
    expect((await post(rita, { graph: "countries" })).body.error?.code).toBe("INVALID_INPUT");
    expect((await post(rita, { graph: "countries", questions: [], fromQueue: "all" })).body.error?.code).toBe("INVALID_INPUT");
    expect((await post(rita, { graph: "nope", questions: [{ question: "x?" }] })).status).toBe(404);
    expect((await post(await signInHeaders("vic"), { graph: "countries", questions: [{ question: "x?" }] })).status).toBe(403);
    expect((await get("missing", rita)).status).toBe(404);
  });
});
