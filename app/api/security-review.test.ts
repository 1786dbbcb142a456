/**
 * Security review of the approval routes (issue 6): attacks on "nothing is applied or approved
 * without the policy", through the real route handlers with real sessions and tokens. Races are
 * made deterministic by a pass-through wrapper of getProposal that can run a concurrent request
 * right after a read (what a second browser tab or a quick colleague would do).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { RefinementAction } from "@/lib/loop/types";
import type { Actor } from "@/lib/auth/permissions";
import { dataPath } from "@/lib/test/data";
import { getDb } from "@/lib/server/db/db";
import { getGraphSummary } from "@/lib/server/graphs/graph-store";
import { importGraphFromPath } from "@/lib/server/graphs/import-graph";
import { createProposal, editAction, getProposal, reviewForGraph } from "@/lib/server/proposals/proposals";
import type * as ProposalsModule from "@/lib/server/proposals/proposals";
import type { TestDatabase } from "@/lib/server/db/test-database";
import { useTestDatabase } from "@/lib/server/db/test-database";
import { createTestToken, createTestUser, signInHeaders, TEST_PASSWORD } from "@/lib/server/auth/test-support";
import { safeNext } from "@/app/_lib/page-actor";
import { POST as approve } from "./proposals/[id]/approve/route";
import { POST as withdraw } from "./proposals/[id]/withdraw/route";
import { PUT as editActionRoute } from "./proposals/[id]/actions/[index]/route";
import { POST as submit } from "./proposals/route";
import { PUT as putPolicy } from "./graphs/[name]/policy/route";
import { POST as login } from "./auth/login/route";
import { POST as logout } from "./auth/logout/route";
import { POST as changePassword } from "./auth/password/route";
import { POST as createToken } from "./tokens/route";
import { POST as createUserRoute } from "./users/route";
import { POST as importByPath } from "./graphs/route";
import { POST as syncMemory } from "./graphs/[name]/questions/sync-memory/route";

/** Runs `afterRead` right after the n-th getProposal read made by the approval code (1-based). */
const race = vi.hoisted(() => ({ afterRead: null as null | ((call: number) => Promise<void>), calls: 0 }));
vi.mock("@/lib/server/proposals/proposals", async (importOriginal) => {
  const actual = await importOriginal<typeof ProposalsModule>();
  return {
    ...actual,
    getProposal: async (id: string) => {
      const result = await actual.getProposal(id);
      const hook = race.afterRead;
      if (hook) await hook(++race.calls);
      return result;
    },
  };
});

function onRead(n: number, work: () => Promise<void>): void {
  race.calls = 0;
  race.afterRead = async (call) => {
    if (call === n) await work();
  };
}
function stopRacing(): void {
  race.afterRead = null;
  race.calls = 0;
}

let db: TestDatabase;
const users: Record<string, { id: string; username: string }> = {};

const HIGH_CALL: RefinementAction = { type: "insert_edge", subject: "Client", relation: "calls", object: "_build_request" };
const HIGH_DELETE: RefinementAction = { type: "delete_edge", subject: "Timeout", relation: "uses", object: "URL" };
const MEDIUM_EXISTS: RefinementAction = { type: "insert_edge", subject: "Client", relation: "inherits", object: "BaseClient" };
const LOW_UNKNOWN: RefinementAction = { type: "insert_edge", subject: "main", relation: "calls", object: "unknown" };
/** What a hostile editor swaps in: a HIGH action nobody approved. */
const SWAPPED: RefinementAction = { type: "delete_edge", subject: "Limits", relation: "uses", object: "Headers" };

const BASE = "http://localhost";
const ctx = (id: string) => ({ params: Promise.resolve({ id }) });
const graphCtx = (name: string) => ({ params: Promise.resolve({ name }) });
const post = (url: string, headers: Record<string, string>, body: unknown, method = "POST") =>
  new Request(`${BASE}${url}`, { method, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

function userActor(name: string, role: "admin" | "reviewer" | "viewer"): Actor {
  const u = users[name];
  if (!u) throw new Error(`no user ${name}`);
  return { kind: "user", userId: u.id, username: name, displayName: name, role, sessionId: "test" };
}

async function propose(actions: RefinementAction[], by: Actor | null = null, graph = "httpx"): Promise<string> {
  const summary = await getGraphSummary(graph);
  const reviews = await reviewForGraph({ graph, version: summary.version, actions });
  return createProposal({ graph, baseVersion: summary.version, source: "api", actions, reviews, submittedBy: by });
}

interface ApproveBody {
  applied: { version: number } | null;
  applyError: { code: string; message: string } | null;
  actions: { index: number; approvals: number; required: number; status: string }[];
  error?: { code: string; message: string };
}

async function approveAs(username: string, id: string, body: unknown) {
  const res = await approve(post(`/api/proposals/${id}/approve`, await signInHeaders(username), body), ctx(id));
  return { status: res.status, body: (await res.json()) as ApproveBody };
}

async function setPolicy(graph: string, policy: Record<string, unknown>) {
  const full = { requiredHigh: 1, requiredMedium: 1, requiredLow: 2, lowNeedsReason: true, approverRole: "reviewer", bulkHigh: true, separateDuties: true, ...policy };
  const res = await putPolicy(post(`/api/graphs/${graph}/policy`, await signInHeaders("ada"), full, "PUT"), graphCtx(graph));
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  db = await useTestDatabase("security-review");
  await importGraphFromPath({ path: dataPath("graphify", "httpx"), name: "httpx" });
  await importGraphFromPath({ path: dataPath("graphify", "httpx"), name: "httpx2" });
  await importGraphFromPath({ path: dataPath("graphify", "httpx"), name: "httpx3" });
  await importGraphFromPath({ path: dataPath("graphify", "httpx"), name: "httpx4" });
  for (const [username, role] of [
    ["ada", "admin"],
    ["rita", "reviewer"],
    ["remy", "reviewer"],
    ["mal", "reviewer"],
    ["vic", "viewer"],
  ] as const) {
    users[username] = await createTestUser({ username, role });
  }
});

afterAll(async () => {
  stopRacing();
  await db.cleanup();
});

describe("an edit racing an approval", () => {
  it("a page left open across an edit: the approval names what it saw, and a changed action is refused", async () => {
    const id = await propose([HIGH_CALL], null, "httpx4");
    const before = (await getGraphSummary("httpx4")).version;
    // Rita opened the page showing HIGH_CALL; Mal then edits it; Rita's click sends what she saw.
    await editAction({ proposalId: id, index: 0, action: SWAPPED, actor: userActor("mal", "reviewer") });
    const stale = await approveAs("rita", id, { actions: [0], seen: [HIGH_CALL] });
    expect(stale.status).toBe(409);
    expect(stale.body.error?.message).toContain("was edited since you opened it");
    expect(await getDb().approval.count({ where: { proposalId: id } })).toBe(0);
    expect((await getGraphSummary("httpx4")).version).toBe(before);
    const mismatched = await approveAs("rita", id, { actions: [0], seen: [] });
    expect(mismatched.status).toBe(400);
    // Having read the new text, she may approve it.
    const fresh = await approveAs("rita", id, { actions: [0], seen: [SWAPPED] });
    expect(fresh.status).toBe(200);
  });

  it("an action edited after the approver's request read it is not approved (nor applied) in its new form", async () => {
    const id = await propose([HIGH_CALL]);
    const before = (await getGraphSummary("httpx")).version;
    // Mal edits the action right after Rita's approval request has read (and checked) the old text.
    onRead(1, async () => {
      await editAction({ proposalId: id, index: 0, action: SWAPPED, actor: userActor("mal", "reviewer") });
    });
    const res = await approveAs("rita", id, { actions: [0] });
    stopRacing();
    expect(res.status).toBe(409);
    expect((await getGraphSummary("httpx")).version).toBe(before);
    const action = (await getProposal(id)).actions[0];
    expect(action?.action).toEqual(SWAPPED);
    expect(action?.status).toBe("pending");
    expect(action?.evaluation.approvals).toBe(0);
  });

  it("an edit landing between the policy check and the commit is not applied with the old approvals", async () => {
    const id = await propose([HIGH_CALL], null, "httpx3");
    const before = (await getGraphSummary("httpx3")).version;
    // Read 2 is the apply step's evaluation ("satisfied"); Mal's edit lands right after it.
    onRead(2, async () => {
      await editAction({ proposalId: id, index: 0, action: SWAPPED, actor: userActor("mal", "reviewer") });
    });
    const res = await approveAs("rita", id, { actions: [0] });
    stopRacing();
    expect(res.status).toBe(200);
    expect(res.body.applied).toBeNull();
    expect(res.body.applyError?.code).toBe("CONFLICT");
    expect((await getGraphSummary("httpx3")).version).toBe(before);
    const action = (await getProposal(id)).actions[0];
    expect(action).toMatchObject({ status: "pending", action: SWAPPED });
    expect(action?.evaluation.approvals).toBe(0);
  });
});

describe("separation of duties", () => {
  it("is re-checked when counting: a submitter's approval given while it was off stops counting once it is back on", async () => {
    await setPolicy("httpx2", { requiredHigh: 2, separateDuties: false });
    const res = await submit(post("/api/proposals", await signInHeaders("mal"), { graph: "httpx2", actions: [HIGH_CALL] }));
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const own = await approveAs("mal", id, { actions: [0] });
    expect(own.status).toBe(200);
    expect(own.body.actions[0]).toMatchObject({ approvals: 1, required: 2 });
    await setPolicy("httpx2", { requiredHigh: 2, separateDuties: true });
    const before = (await getGraphSummary("httpx2")).version;
    const second = await approveAs("rita", id, { actions: [0] });
    expect(second.status).toBe(200);
    expect(second.body.applied).toBeNull();
    expect(second.body.actions[0]).toMatchObject({ approvals: 1, required: 2, status: "pending" });
    expect((await getGraphSummary("httpx2")).version).toBe(before);
    const action = (await getProposal(id)).actions[0];
    expect(action?.evaluation.dismissed.map((d) => d.reason)).toEqual([expect.stringMatching(/no longer counts: .*submitted/)]);
    await setPolicy("httpx2", {});
  });

  it("a reviewer cannot edit an action on a graph whose policy lets only admins decide", async () => {
    await setPolicy("httpx2", { approverRole: "admin" });
    const id = await propose([HIGH_CALL], null, "httpx2");
    const res = await editActionRoute(post(`/api/proposals/${id}/actions/0`, await signInHeaders("mal"), { action: SWAPPED }, "PUT"), {
      params: Promise.resolve({ id, index: "0" }),
    });
    expect(res.status).toBe(403);
    expect((await getProposal(id)).actions[0]?.action).toEqual(HIGH_CALL);
    await setPolicy("httpx2", {});
  });
});

describe("things that hold (regression guards)", () => {
  it("one person approving from two sessions at once counts once", async () => {
    await setPolicy("httpx2", { requiredHigh: 2 });
    const id = await propose([HIGH_DELETE], null, "httpx2");
    const [a, b] = await Promise.all([approveAs("rita", id, { actions: [0] }), approveAs("rita", id, { actions: [0] })]);
    expect([a.status, b.status].sort()).toContain(200);
    const action = (await getProposal(id)).actions[0];
    expect(action).toMatchObject({ status: "pending" });
    expect(action?.evaluation.approvals).toBe(1);
    await setPolicy("httpx2", {});
  });

  it("nobody withdraws someone else's approval, not even an admin", async () => {
    await setPolicy("httpx2", { requiredMedium: 2 });
    const id = await propose([MEDIUM_EXISTS], null, "httpx2");
    expect((await approveAs("rita", id, { actions: [0] })).status).toBe(200);
    const decision = (await getProposal(id)).actions[0]?.decisions[0]?.id;
    for (const who of ["remy", "ada"]) {
      const res = await withdraw(post(`/api/proposals/${id}/withdraw`, await signInHeaders(who), { action: 0, decision }), ctx(id));
      expect(res.status).toBe(403);
    }
    expect((await getProposal(id)).actions[0]?.evaluation.approvals).toBe(1);
    await setPolicy("httpx2", {});
  });

  it("batch approval never mixes confidences, and indexes name actions of this proposal only", async () => {
    const id = await propose([HIGH_CALL, LOW_UNKNOWN], null, "httpx2");
    const mixed = await approveAs("rita", id, { actions: [0, 1], lowConfidence: true, reason: "both fine" });
    expect(mixed.status).toBe(403);
    const missing = await approveAs("rita", id, { actions: [7] });
    expect(missing.status).toBe(400);
    expect(await getDb().approval.count({ where: { proposalId: id } })).toBe(0);
  });

  it("the submit route ignores status, runId, submitter and reviews in the body", async () => {
    const run = await getDb().run.create({
      data: { graphId: (await getGraphSummary("httpx2")).id, queryId: "0123456789abcdef", question: "q", graphVersion: 1, provider: "heuristic", model: "h", isLlm: false, config: "{}", status: "finished", startedById: users.rita?.id },
    });
    const res = await submit(
      post("/api/proposals", await createTestToken("mal", "propose"), {
        graph: "httpx2",
        actions: [LOW_UNKNOWN],
        status: "applied",
        runId: run.id,
        submittedById: users.rita?.id,
        submittedBy: { kind: "user", userId: users.rita?.id },
        reviews: [{ confidence: "HIGH" }],
      }),
    );
    expect(res.status).toBe(201);
    const proposal = (await res.json()) as { id: string; status: string; runId: string | null; submittedById: string; actions: { confidence: string }[] };
    expect(proposal).toMatchObject({ status: "pending", runId: null, submittedById: users.mal?.id });
    expect(proposal.actions[0]?.confidence).toBe("LOW");
  });

  it("policy: reviewers and tokens cannot change it; zero or negative counts are refused", async () => {
    const body = { requiredHigh: 1, requiredMedium: 1, requiredLow: 1, lowNeedsReason: false, approverRole: "reviewer", bulkHigh: true, separateDuties: false };
    expect((await putPolicy(post("/api/graphs/httpx2/policy", await signInHeaders("rita"), body, "PUT"), graphCtx("httpx2"))).status).toBe(403);
    expect((await putPolicy(post("/api/graphs/httpx2/policy", await createTestToken("ada", "propose"), body, "PUT"), graphCtx("httpx2"))).status).toBe(403);
    for (const requiredLow of [0, -1, 1.5]) {
      const res = await putPolicy(post("/api/graphs/httpx2/policy", await signInHeaders("ada"), { ...body, requiredLow }, "PUT"), graphCtx("httpx2"));
      expect(res.status).toBe(400);
    }
  });

  it("tokens cannot make tokens, change the password, create accounts or sign out a session", async () => {
    const token = await createTestToken("ada", "propose");
    expect((await createToken(post("/api/tokens", token, { name: "more", scope: "propose" }))).status).toBe(403);
    expect((await changePassword(post("/api/auth/password", token, { currentPassword: TEST_PASSWORD, newPassword: "another long passphrase 42" }))).status).toBe(403);
    expect((await createUserRoute(post("/api/users", token, { username: "sneaky", password: "another long passphrase 42", role: "admin" }))).status).toBe(403);
    expect((await logout(post("/api/auth/logout", token, {}))).status).toBe(403);
  });

  it("every account mutation from a cookie needs the CSRF header (logout, password, tokens, users)", async () => {
    const { cookie } = await signInHeaders("ada");
    const calls = [
      logout(post("/api/auth/logout", { cookie }, {})),
      changePassword(post("/api/auth/password", { cookie }, { currentPassword: TEST_PASSWORD, newPassword: "another long passphrase 42" })),
      createToken(post("/api/tokens", { cookie }, { name: "x", scope: "read" })),
      createUserRoute(post("/api/users", { cookie }, { username: "sneaky2", password: "another long passphrase 42", role: "admin" })),
    ];
    for (const res of await Promise.all(calls)) expect(res.status).toBe(403);
  });
});

describe("sign-in", () => {
  it("parallel wrong guesses cannot get past the per-name limit", async () => {
    await createTestUser({ username: "pat", role: "viewer" });
    const guesses = Array.from({ length: 25 }, (_, i) =>
      login(new Request(`${BASE}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": `10.9.${i}.1` }, body: JSON.stringify({ username: i % 2 ? " PAT " : "pat", password: `guess ${i}` }) })),
    );
    const statuses = (await Promise.all(guesses)).map((r) => r.status);
    // At most 5 guesses are actually checked; the rest are refused before the password is.
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(20);
  });

  it("?next= never leaves the site, even with tabs or newlines the URL parser drops", () => {
    for (const evil of ["//evil.test", "/\\evil.test", "/\t/evil.test", "/\n/evil.test", "/\r\n/evil.test", "/\t\\evil.test", "https://evil.test", "javascript:alert(1)"]) {
      expect(new URL(safeNext(evil), "https://refinery.test").origin).toBe("https://refinery.test");
    }
    expect(safeNext("/proposals/abc?x=1#a")).toBe("/proposals/abc?x=1#a");
    expect(safeNext("/graphs/httpx")).toBe("/graphs/httpx");
  });
});

describe("files on the server's disk", () => {
  it("only admins import from a server path or sync memory files from a folder they name", async () => {
    const reviewer = await signInHeaders("rita");
    const byPath = await importByPath(post("/api/graphs", reviewer, { path: dataPath("graphify", "httpx"), name: "stolen" }));
    expect(byPath.status).toBe(403);
    const named = await syncMemory(post("/api/graphs/httpx/questions/sync-memory", reviewer, { dir: "/etc" }), graphCtx("httpx"));
    expect(named.status).toBe(403);
    expect(((await named.json()) as { error: { message: string } }).error.message).toContain("only admins may name a folder");
    // Without a folder the graph's own (where it was imported from) is used: allowed.
    const own = await syncMemory(post("/api/graphs/httpx/questions/sync-memory", reviewer, {}), graphCtx("httpx"));
    expect(own.status).toBe(200);
    const admin = await importByPath(post("/api/graphs", await signInHeaders("ada"), { path: dataPath("graphify", "httpx"), name: "by-admin" }));
    expect(admin.status).toBe(201);
  });
});
