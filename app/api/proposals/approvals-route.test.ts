/**
 * Approval under the graph's policy, through the real route handlers with real sessions and
 * tokens: who may approve, separation of duties, LOW needing two people and a reason, stale
 * approvals, vetoes, the bulk HIGH rule, and concurrent completing approvals applying once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RefinementAction } from "@/lib/loop/types";
import { dataPath } from "@/lib/test/data";
import { getDb } from "@/lib/server/db/db";
import { getGraphSummary } from "@/lib/server/graphs/graph-store";
import { importGraphFromPath } from "@/lib/server/graphs/import-graph";
import { applyProposal, createProposal, getProposal, reviewForGraph } from "@/lib/server/proposals/proposals";
import { findVersions } from "@/lib/server/proposals/changesets";
import type { TestDatabase } from "@/lib/server/db/test-database";
import { useTestDatabase } from "@/lib/server/db/test-database";
import { createTestToken, createTestUser, signInHeaders } from "@/lib/server/auth/test-support";
import type { Actor } from "@/lib/auth/permissions";
import { POST as approve } from "./[id]/approve/route";
import { POST as reject } from "./[id]/reject/route";
import { POST as withdraw } from "./[id]/withdraw/route";
import { GET as timeline } from "./[id]/timeline/route";
import { GET as listComments, POST as comment } from "./[id]/comments/route";
import { PUT as editActionRoute } from "./[id]/actions/[index]/route";
import { POST as submit } from "./route";
import { GET as getPolicy, PUT as putPolicy } from "../graphs/[name]/policy/route";

let db: TestDatabase;
const users: Record<string, { id: string; username: string }> = {};

const HIGH_CALL: RefinementAction = { type: "insert_edge", subject: "Client", relation: "calls", object: "_build_request" };
const HIGH_DELETE: RefinementAction = { type: "delete_edge", subject: "Timeout", relation: "uses", object: "URL" };
const MEDIUM_EXISTS: RefinementAction = { type: "insert_edge", subject: "Client", relation: "inherits", object: "BaseClient" };
const LOW_DELETE: RefinementAction = { type: "delete_edge", subject: "BaseClient", relation: "method", object: "_build_request" };
const LOW_UNKNOWN: RefinementAction = { type: "insert_edge", subject: "main", relation: "calls", object: "unknown" };

function userActor(name: string, role: "admin" | "reviewer" | "viewer"): Actor {
  const u = users[name];
  if (!u) throw new Error(`no user ${name}`);
  return { kind: "user", userId: u.id, username: name, displayName: name, role, sessionId: "test" };
}

async function propose(actions: RefinementAction[], options: { by?: Actor; runBy?: string; graph?: string } = {}): Promise<string> {
  const graph = options.graph ?? "httpx";
  const summary = await getGraphSummary(graph);
  const reviews = await reviewForGraph({ graph, version: summary.version, actions });
  let runId: string | null = null;
  if (options.runBy) {
    const run = await getDb().run.create({
      data: {
        graphId: summary.id,
        queryId: "0123456789abcdef",
        question: "How does Client build requests?",
        graphVersion: summary.version,
        provider: "heuristic",
        model: "heuristic",
        isLlm: false,
        config: "{}",
        status: "awaiting_review",
        startedById: users[options.runBy]?.id ?? null,
        startedByName: options.runBy,
      },
    });
    runId = run.id;
  }
  return createProposal({ graph, baseVersion: summary.version, source: runId ? "run" : "api", runId, actions, reviews, submittedBy: options.by ?? null });
}

const ctx = (id: string) => ({ params: Promise.resolve({ id }) });
const post = (url: string, headers: Record<string, string>, body: unknown) =>
  new Request(`http://localhost${url}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

async function approveAs(username: string, id: string, body: unknown) {
  const res = await approve(post(`/api/proposals/${id}/approve`, await signInHeaders(username), body), ctx(id));
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & { error?: { code: string; message: string } } };
}

interface ApproveBody {
  applied: { version: number } | null;
  actions: { index: number; approvals: number; required: number; status: string; appliedIn: number | null; waiting: boolean }[];
}

beforeAll(async () => {
  db = await useTestDatabase("approvals");
  await importGraphFromPath({ path: dataPath("graphify", "httpx"), name: "httpx" });
  for (const [username, role] of [
    ["ada", "admin"],
    ["rita", "reviewer"],
    ["remy", "reviewer"],
    ["rosa", "reviewer"],
    ["vic", "viewer"],
  ] as const) {
    users[username] = await createTestUser({ username, role });
  }
  const reviews = await reviewForGraph({ graph: "httpx", actions: [HIGH_CALL, HIGH_DELETE, MEDIUM_EXISTS, LOW_DELETE, LOW_UNKNOWN] });
  expect(reviews.map((r) => r.confidence)).toEqual(["HIGH", "HIGH", "MEDIUM", "LOW", "LOW"]);
});

afterAll(async () => {
  await db.cleanup();
});

describe("who may approve", () => {
  it("a viewer cannot approve (403) and nothing is recorded", async () => {
    const id = await propose([HIGH_CALL]);
    const r = await approveAs("vic", id, { actions: [0] });
    expect(r.status).toBe(403);
    expect(r.body.error?.code).toBe("FORBIDDEN");
    expect(await getDb().approval.count({ where: { proposalId: id } })).toBe(0);
  });

  it("a token cannot approve, even a propose token of an admin (403)", async () => {
    const id = await propose([HIGH_CALL]);
    for (const scope of ["read", "propose"] as const) {
      const res = await approve(post(`/api/proposals/${id}/approve`, await createTestToken("ada", scope), { actions: [0] }), ctx(id));
      expect(res.status).toBe(403);
    }
    const veto = await reject(post(`/api/proposals/${id}/reject`, await createTestToken("ada", "propose"), { actions: [0] }), ctx(id));
    expect(veto.status).toBe(403);
    expect(await getDb().approval.count({ where: { proposalId: id } })).toBe(0);
  });

  it("without a session it is 401; a session without the CSRF header is refused", async () => {
    const id = await propose([HIGH_CALL]);
    expect((await approve(post(`/api/proposals/${id}/approve`, {}, { actions: [0] }), ctx(id))).status).toBe(401);
    const { cookie } = await signInHeaders("rita");
    expect((await approve(post(`/api/proposals/${id}/approve`, { cookie }, { actions: [0] }), ctx(id))).status).toBe(403);
    expect((await getProposal(id)).actions[0]?.status).toBe("pending");
  });

  it("a reviewer cannot approve their own proposal, nor an action of a run they started", async () => {
    const own = await propose([HIGH_CALL], { by: userActor("rita", "reviewer") });
    const r1 = await approveAs("rita", own, { actions: [0] });
    expect(r1.status).toBe(403);
    expect(r1.body.error?.message).toMatch(/you submitted this proposal/);
    const fromRun = await propose([HIGH_CALL], { runBy: "rita" });
    const r2 = await approveAs("rita", fromRun, { actions: [0] });
    expect(r2.status).toBe(403);
    expect(r2.body.error?.message).toMatch(/you started the run/);
    // Someone else may.
    const r3 = await approveAs("remy", own, { actions: [0] });
    expect(r3.status).toBe(200);
    expect((r3.body as unknown as ApproveBody).applied?.version).toBeGreaterThan(1);
  });

  it("a proposal submitted through the API records its submitter, who then cannot approve it", async () => {
    const res = await submit(post("/api/proposals", await createTestToken("rosa", "propose"), { graph: "httpx", actions: [HIGH_DELETE] }));
    expect(res.status).toBe(201);
    const proposal = (await res.json()) as { id: string; submittedByName: string };
    expect(proposal.submittedByName).toBe("rosa via token");
    expect((await approveAs("rosa", proposal.id, { actions: [0] })).status).toBe(403);
    const timelineRes = await timeline(new Request(`http://localhost/api/proposals/${proposal.id}/timeline`, { headers: await signInHeaders("vic") }), ctx(proposal.id));
    const events = (await timelineRes.json()) as { kind: string; who: string }[];
    expect(events.find((e) => e.kind === "submit")?.who).toBe("rosa via token");
  });
});

describe("the policy", () => {
  it("anyone may read it; a reviewer cannot change it; an admin can, and it is audited", async () => {
    const read = await getPolicy(new Request("http://localhost/api/graphs/httpx/policy", { headers: await signInHeaders("vic") }), { params: Promise.resolve({ name: "httpx" }) });
    expect(read.status).toBe(200);
    const current = (await read.json()) as { policy: Record<string, unknown>; isCustom: boolean };
    expect(current.policy).toMatchObject({ requiredHigh: 1, requiredMedium: 1, requiredLow: 2, lowNeedsReason: true, separateDuties: true });
    const put = async (username: string, body: unknown) =>
      putPolicy(
        new Request("http://localhost/api/graphs/httpx/policy", { method: "PUT", headers: { "content-type": "application/json", ...(await signInHeaders(username)) }, body: JSON.stringify(body) }),
        { params: Promise.resolve({ name: "httpx" }) },
      );
    const byReviewer = await put("rita", { ...current.policy, requiredLow: 1 });
    expect(byReviewer.status).toBe(403);
    const byAdmin = await put("ada", { ...current.policy, requiredMedium: 2 });
    expect(byAdmin.status).toBe(200);
    expect(((await byAdmin.json()) as { policy: { requiredMedium: number } }).policy.requiredMedium).toBe(2);
    const audit = await getDb().auditEvent.findFirst({ where: { action: "policy.update" }, orderBy: { id: "desc" } });
    expect(audit?.summary).toContain("requiredMedium 1 → 2");
    expect(JSON.parse(audit?.details ?? "{}")).toMatchObject({ before: { requiredMedium: 1 }, after: { requiredMedium: 2 } });
    const invalid = await put("ada", { ...current.policy, requiredLow: 0 });
    expect(invalid.status).toBe(400);
    expect((await put("ada", current.policy)).status).toBe(200);
  });
});

describe("LOW actions", () => {
  it("one approval is not applied; a second reviewer's approval applies it in one changeset", async () => {
    const id = await propose([LOW_DELETE]);
    const before = (await getGraphSummary("httpx")).version;
    const noConfirm = await approveAs("rita", id, { actions: [0] });
    expect(noConfirm.status).toBe(428);
    const noReason = await approveAs("rita", id, { actions: [0], lowConfidence: true });
    expect(noReason.status).toBe(428);
    expect(noReason.body.error?.message).toMatch(/written reason/);
    expect(await getDb().approval.count({ where: { proposalId: id } })).toBe(0);

    const first = await approveAs("rita", id, { actions: [0], lowConfidence: true, reason: "the method moved to a mixin" });
    expect(first.status).toBe(200);
    const firstBody = first.body as unknown as ApproveBody;
    expect(firstBody.applied).toBeNull();
    expect(firstBody.actions[0]).toMatchObject({ approvals: 1, required: 2, status: "pending", waiting: true });
    expect((await getGraphSummary("httpx")).version).toBe(before);
    const again = await approveAs("rita", id, { actions: [0], lowConfidence: true, reason: "really" });
    expect(again.status).toBe(409);

    const second = await approveAs("remy", id, { actions: [0], lowConfidence: true, reason: "confirmed in client.py" });
    expect(second.status).toBe(200);
    const secondBody = second.body as unknown as ApproveBody;
    expect(secondBody.applied?.version).toBe(before + 1);
    expect(secondBody.actions[0]).toMatchObject({ approvals: 2, required: 2, status: "applied", appliedIn: before + 1, waiting: false });
    const [latest] = await findVersions("httpx");
    expect(latest?.version).toBe(before + 1);
    expect(latest?.actor).toBe("rita, remy");
    expect(latest?.message).toContain("approved by rita, remy");
    const audit = await getDb().auditEvent.findMany({ where: { action: { in: ["action.approve", "changeset.apply"] } }, orderBy: { id: "desc" }, take: 3 });
    expect(audit.map((a) => a.summary).join("\n")).toContain('approved delete_edge("BaseClient", "method", "_build_request") on httpx (1 of 2 approvals, LOW confidence)');
  });
});

describe("approvals from people who can no longer approve", () => {
  it("an approval stops counting when its author is demoted to viewer or disabled", async () => {
    users.dora = await createTestUser({ username: "dora", role: "reviewer" });
    const id = await propose([LOW_UNKNOWN]);
    const before = (await getGraphSummary("httpx")).version;
    const first = await approveAs("dora", id, { actions: [0], lowConfidence: true, reason: "looks right to me" });
    expect(first.status).toBe(200);
    await getDb().user.update({ where: { username: "dora" }, data: { role: "viewer" } });
    const second = await approveAs("remy", id, { actions: [0], lowConfidence: true, reason: "main calls it in cli.py" });
    expect(second.status).toBe(200);
    const body = second.body as unknown as ApproveBody;
    expect(body.applied).toBeNull();
    expect(body.actions[0]).toMatchObject({ approvals: 1, required: 2, status: "pending" });
    expect((await getGraphSummary("httpx")).version).toBe(before);
    const [action] = (await getProposal(id)).actions;
    expect(action?.evaluation.dismissed.map((d) => d.reason)).toEqual(["no longer counts: a viewer cannot approve"]);
    await getDb().user.update({ where: { username: "dora" }, data: { role: "reviewer", disabledAt: new Date() } });
    const [still] = (await getProposal(id)).actions;
    expect(still?.evaluation.approvals).toBe(1);
    expect(still?.evaluation.dismissed.map((d) => d.reason)).toEqual(["no longer counts: the account was disabled"]);
  });
});

describe("stale approvals", () => {
  it("an approval is dismissed when a touched edge changes, and no longer counts", async () => {
    const id = await propose([LOW_UNKNOWN, HIGH_CALL]);
    const first = await approveAs("rita", id, { actions: [0], lowConfidence: true, reason: "main does call it" });
    expect(first.status).toBe(200);
    // Another proposal adds an edge between the same two nodes, and is applied.
    const other = await propose([{ type: "insert_edge", subject: "main", relation: "uses", object: "unknown" }]);
    await applyProposal({ proposalId: other, allowLowConfidence: true, lowConfidenceReason: "setup" });

    const after = await getProposal(id);
    const action = after.actions[0];
    expect(action?.evaluation.approvals).toBe(0);
    expect(action?.changedSinceApproved).toMatch(/changed since approved: node "main" added in version \d+/);
    const row = await getDb().approval.findFirst({ where: { proposalId: id } });
    expect(row?.dismissedAt).not.toBeNull();
    expect(await getDb().auditEvent.count({ where: { action: "approval.dismiss", targetId: `${id}#0` } })).toBe(1);
    // An unrelated action of the same proposal is not affected.
    expect(after.actions[1]?.changedSinceApproved).toBeNull();

    // As written (planned on its base version) it can no longer apply: the node it would add
    // exists now. The next approval is refused before it is recorded, saying what to do.
    const version = (await getGraphSummary("httpx")).version;
    const second = await approveAs("remy", id, { actions: [0], lowConfidence: true, reason: "looks right" });
    expect(second.status).toBe(409);
    expect(second.body.error).toMatchObject({ code: "CONFLICT", refusal: "CANNOT_APPLY", cause: "GRAPH_CHANGED" });
    expect(second.body.error?.message).toMatch(/cannot apply as written.*Nothing was recorded/);
    expect(await getDb().approval.count({ where: { proposalId: id, userId: users.remy?.id } })).toBe(0);
    expect((await getGraphSummary("httpx")).version).toBe(version);
  });

  it("a stale approval does not count even when the dismissal was missed", async () => {
    const id = await propose([LOW_UNKNOWN]);
    await approveAs("rita", id, { actions: [0], lowConfidence: true, reason: "fine" });
    const other = await propose([{ type: "insert_edge", subject: "unknown", relation: "mentions", object: "main" }]);
    await applyProposal({ proposalId: other, allowLowConfidence: true });
    // Undo the hook's work, as if it had not run.
    await getDb().approval.updateMany({ where: { proposalId: id }, data: { dismissedAt: null, dismissedReason: null } });
    const action = (await getProposal(id)).actions[0];
    expect(action?.evaluation.approvals).toBe(0);
    expect(action?.evaluation.dismissed[0]?.reason).toMatch(/changed since approved/);
  });

  it("editing an action dismisses its approvals", async () => {
    const id = await propose([LOW_UNKNOWN]);
    await approveAs("rita", id, { actions: [0], lowConfidence: true, reason: "fine" });
    const res = await editActionRoute(
      new Request(`http://localhost/api/proposals/${id}/actions/0`, {
        method: "PUT",
        headers: { "content-type": "application/json", ...(await signInHeaders("remy")) },
        body: JSON.stringify({ action: { type: "insert_edge", subject: "main", relation: "calls", object: "Client" } }),
      }),
      { params: Promise.resolve({ id, index: "0" }) },
    );
    expect(res.status).toBe(200);
    const item = (await res.json()) as { evaluation: { approvals: number; dismissed: { reason: string }[] }; confidence: string };
    expect(item.evaluation.approvals).toBe(0);
    expect(item.evaluation.dismissed[0]?.reason).toBe("the action was edited by remy");
    // Remy wrote what would be applied now: like a submitter, he cannot approve it.
    const own = await approveAs("remy", id, { actions: [0], lowConfidence: true, reason: "mine" });
    expect(own.status).toBe(403);
    expect(own.body.error?.message).toMatch(/you edited this action/);
  });
});

describe("vetoes", () => {
  it("a reject blocks approval until withdrawn; then the completing approval applies", async () => {
    const id = await propose([HIGH_DELETE]);
    const vetoRes = await reject(post(`/api/proposals/${id}/reject`, await signInHeaders("rosa"), { actions: [0], reason: "Timeout does use URL in 0.28" }), ctx(id));
    expect(vetoRes.status).toBe(200);
    expect((await getProposal(id)).actions[0]).toMatchObject({ status: "rejected", evaluation: { vetoed: true } });
    const blocked = await approveAs("rita", id, { actions: [0] });
    expect(blocked.status).toBe(409);
    expect(blocked.body.error?.message).toMatch(/vetoed/);
    // Someone else cannot withdraw rosa's veto; an admin can, rosa herself can.
    const byOther = await withdraw(post(`/api/proposals/${id}/withdraw`, await signInHeaders("rita"), { action: 0 }), ctx(id));
    expect(byOther.status).toBe(404);
    const byRosa = await withdraw(post(`/api/proposals/${id}/withdraw`, await signInHeaders("rosa"), { action: 0 }), ctx(id));
    expect(byRosa.status).toBe(200);
    expect((await getProposal(id)).actions[0]?.status).toBe("pending");
    const ok = await approveAs("rita", id, { actions: [0] });
    expect(ok.status).toBe(200);
    expect((ok.body as unknown as ApproveBody).actions[0]?.status).toBe("applied");
    const events = (await (await timeline(new Request(`http://localhost/api/proposals/${id}/timeline`, { headers: await signInHeaders("vic") }), ctx(id))).json()) as { kind: string; who: string }[];
    expect(events.map((e) => `${e.kind}:${e.who}`)).toEqual(expect.arrayContaining(["reject:rosa", "withdraw:rosa", "approve:rita", "apply:rita"]));
  });

  it("a viewer cannot veto or withdraw; anyone who may propose can comment, viewers cannot", async () => {
    const id = await propose([HIGH_DELETE]);
    expect((await reject(post(`/api/proposals/${id}/reject`, await signInHeaders("vic"), { actions: [0] }), ctx(id))).status).toBe(403);
    expect((await withdraw(post(`/api/proposals/${id}/withdraw`, await signInHeaders("vic"), { action: 0 }), ctx(id))).status).toBe(403);
    expect((await comment(post(`/api/proposals/${id}/comments`, await signInHeaders("vic"), { body: "hm" }), ctx(id))).status).toBe(403);
    const c = await comment(post(`/api/proposals/${id}/comments`, await signInHeaders("rita"), { body: "Is Timeout really unrelated?", action: 0 }), ctx(id));
    expect(c.status).toBe(201);
    const list = (await (await listComments(new Request(`http://localhost/api/proposals/${id}/comments`, { headers: await signInHeaders("vic") }), ctx(id))).json()) as { author: string; actionIndex: number }[];
    expect(list).toEqual([expect.objectContaining({ author: "rita", actionIndex: 0 })]);
  });
});

describe("bulk HIGH", () => {
  it("several HIGH actions in one request when the policy allows it; never MEDIUM or LOW", async () => {
    // A fresh copy: earlier tests applied these very actions to "httpx".
    await importGraphFromPath({ path: dataPath("graphify", "httpx"), name: "httpx-bulk" });
    const mixed = await propose([HIGH_CALL, MEDIUM_EXISTS], { graph: "httpx-bulk" });
    const refused = await approveAs("rita", mixed, { actions: [0, 1] });
    expect(refused.status).toBe(403);
    expect(refused.body.error?.message).toMatch(/only HIGH actions may be approved together/);
    const highs = await propose([HIGH_CALL, HIGH_DELETE], { graph: "httpx-bulk" });
    const policy = { requiredHigh: 1, requiredMedium: 1, requiredLow: 2, lowNeedsReason: true, approverRole: "reviewer", bulkHigh: false, separateDuties: true };
    const graphId = (await getGraphSummary("httpx-bulk")).id;
    await getDb().approvalPolicy.create({ data: { graphId, ...policy } });
    const oneAtATime = await approveAs("rita", highs, { actions: [0, 1] });
    expect(oneAtATime.status).toBe(403);
    await getDb().approvalPolicy.update({ where: { graphId }, data: { bulkHigh: true } });
    const ok = await approveAs("rita", highs, { actions: [0, 1] });
    expect(ok.status).toBe(200);
    const body = ok.body as unknown as ApproveBody;
    expect(body.actions.map((a) => a.status)).toEqual(["applied", "applied"]);
    expect(body.actions[0]?.appliedIn).toBe(body.actions[1]?.appliedIn);
  });
});

describe("concurrency", () => {
  it("two completing approvals at once apply once", async () => {
    const id = await propose([LOW_UNKNOWN]);
    const before = (await getGraphSummary("httpx")).version;
    const [a, b] = await Promise.all([
      approveAs("rita", id, { actions: [0], lowConfidence: true, reason: "yes" }),
      approveAs("remy", id, { actions: [0], lowConfidence: true, reason: "yes too" }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await getGraphSummary("httpx")).version).toBe(before + 1);
    const proposal = await getProposal(id);
    expect(proposal.actions[0]).toMatchObject({ status: "applied", appliedIn: before + 1 });
    expect(await getDb().changeset.count({ where: { proposalId: id } })).toBe(1);
  });
});
