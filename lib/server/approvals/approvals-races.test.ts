/**
 * Exactly-once decisions under real concurrency (issue 12 item 1): the server functions fired
 * in parallel, on SQLite and on PostgreSQL (REFINERY_TEST_DATABASE=postgres), where READ
 * COMMITTED let an edit, a veto or a second click slip between a read and a write.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_APPROVAL_POLICY } from "../../auth/approval-policy";
import type { Actor } from "../../auth/permissions";
import type { RefinementAction } from "../../loop/types";
import { dataPath } from "../../test/data";
import { approveActions } from "./approvals";
import { rejectActions } from "./approvals-veto";
import { getDb } from "../db/db";
import { getGraphSummary, loadGraph } from "../graphs";
import { importGraphFromPath } from "../graphs";
import { updateApprovalPolicy } from "../policies";
import { createProposal, editAction, getProposal, reviewForGraph } from "../proposals";
import { createTestUser } from "../auth/test-support";
import type { TestDatabase } from "../db/test-database";
import { useTestDatabase } from "../db/test-database";

let db: TestDatabase;
const people: Record<string, Actor> = {};

const HIGH_CALL: RefinementAction = { type: "insert_edge", subject: "Client", relation: "calls", object: "_build_request" };
const SWAPPED: RefinementAction = { type: "delete_edge", subject: "Limits", relation: "uses", object: "Headers" };
const POLICY = DEFAULT_APPROVAL_POLICY;

function actor(name: string): Actor {
  const a = people[name];
  if (!a) throw new Error(`no user ${name}`);
  return a;
}

async function propose(graph: string, actions: RefinementAction[]): Promise<string> {
  const summary = await getGraphSummary(graph);
  const reviews = await reviewForGraph({ graph, version: summary.version, actions });
  return createProposal({ graph, baseVersion: summary.version, source: "api", actions, reviews });
}

/** `count` pairs of nodes with labels no other node has, no node in two pairs, not linked already. */
async function disjointPairs(graph: string, count: number): Promise<[string, string][]> {
  const { graph: g } = await loadGraph(graph);
  const byLabel = new Map<string, number>();
  for (const n of g.nodes.values()) byLabel.set(n.label, (byLabel.get(n.label) ?? 0) + 1);
  const unique = [...g.nodes.values()].filter((n) => byLabel.get(n.label) === 1 && /^[A-Za-z_][A-Za-z0-9_]*$/.test(n.label));
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < unique.length && pairs.length < count; i += 2) {
    const a = unique[i];
    const b = unique[i + 1];
    if (a && b) pairs.push([a.label, b.label]);
  }
  return pairs;
}

/** Settles every promise; the races below care about what is stored, not who got which answer. */
async function settle(work: Promise<unknown>[]): Promise<PromiseSettledResult<unknown>[]> {
  return Promise.allSettled(work);
}

beforeAll(async () => {
  db = await useTestDatabase("approvals-races");
  for (const name of ["race-edit", "race-complete", "race-dup", "race-veto"]) await importGraphFromPath({ path: dataPath("graphify", "httpx"), name });
  for (const [username, role] of [
    ["ada", "admin"],
    ["rita", "reviewer"],
    ["remy", "reviewer"],
    ["mal", "reviewer"],
  ] as const) {
    const u = await createTestUser({ username, role });
    people[username] = { kind: "user", userId: u.id, username, displayName: username, role, sessionId: "test" };
  }
}, 120_000);

afterAll(async () => {
  await db.cleanup();
});

describe("races between decisions", () => {
  it("an edit racing an approval never gets the edited text applied on an approval of the old text", async () => {
    for (let trial = 0; trial < 8; trial++) {
      const id = await propose("race-edit", [HIGH_CALL]);
      await settle([approveActions({ proposalId: id, actionIndexes: [0], actor: actor("rita"), seen: [HIGH_CALL] }), editAction({ proposalId: id, index: 0, action: SWAPPED, actor: actor("mal") })]);
      const action = (await getProposal(id)).actions[0];
      if (action?.status === "applied") {
        // Rita's approval applied: it must have applied what she saw, and the edit was refused.
        expect(action.action).toEqual(HIGH_CALL);
      } else {
        expect(action?.status).toBe("pending");
        expect(action?.action).toEqual(SWAPPED);
        // Her approval was of the old text: it must not count for the new one.
        expect(action?.evaluation.approvals).toBe(0);
      }
    }
    const applied = await getDb().changeset.findMany({ where: { graph: { name: "race-edit" } }, select: { ops: true } });
    for (const c of applied) expect(c.ops).not.toContain('"Limits"');
  }, 120_000);

  it("approvals completing at the same moment on one graph all apply: a version move alone is retried", async () => {
    // Invented relations review LOW: one approval with a reason is enough on this graph.
    await updateApprovalPolicy({ graph: "race-complete", actor: actor("ada"), policy: { ...POLICY, requiredLow: 1 } });
    const before = (await getGraphSummary("race-complete")).version;
    // Six inserts on disjoint pairs of nodes: none touches what another changes, so all must apply.
    const ids: string[] = [];
    for (const [subject, object] of await disjointPairs("race-complete", 6)) ids.push(await propose("race-complete", [{ type: "insert_edge", subject, relation: "calls", object }]));
    const results = await settle(ids.map((id) => approveActions({ proposalId: id, actionIndexes: [0], actor: actor("rita"), lowConfidenceConfirmed: true, reason: "checked against the source" })));
    for (const r of results) {
      expect(r.status === "rejected" ? String(r.reason) : "fulfilled").toBe("fulfilled");
      if (r.status === "fulfilled") {
        const value = r.value as Awaited<ReturnType<typeof approveActions>>;
        expect(value.applyError?.message ?? null).toBeNull();
        expect(value.applied).not.toBeNull();
      }
    }
    for (const id of ids) expect((await getProposal(id)).actions[0]?.status).toBe("applied");
    expect((await getGraphSummary("race-complete")).version).toBe(before + ids.length);
    // Each version's new edge has its own key.
    const summary = await getGraphSummary("race-complete");
    expect(summary.edges).toBeGreaterThan(0);
  }, 120_000);

  it("20 simultaneous approvals by two people write 2 approval rows and 2 audit events", async () => {
    await updateApprovalPolicy({ graph: "race-dup", actor: actor("ada"), policy: { ...POLICY, requiredHigh: 3 } });
    const id = await propose("race-dup", [HIGH_CALL]);
    const clicks = Array.from({ length: 20 }, (_, i) => approveActions({ proposalId: id, actionIndexes: [0], actor: actor(i % 2 === 0 ? "rita" : "remy") }));
    const results = await settle(clicks);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(2);
    expect(await getDb().approval.count({ where: { proposalId: id } })).toBe(2);
    expect(await getDb().auditEvent.count({ where: { action: "action.approve", targetId: `${id}#0` } })).toBe(2);
    const action = (await getProposal(id)).actions[0];
    expect(action?.evaluation.approvals).toBe(2);
    expect(action?.status).toBe("pending");
  }, 120_000);

  it("a veto racing an approval never leaves both active", async () => {
    await updateApprovalPolicy({ graph: "race-veto", actor: actor("ada"), policy: { ...POLICY, requiredHigh: 2 } });
    for (let trial = 0; trial < 8; trial++) {
      const id = await propose("race-veto", [HIGH_CALL]);
      await settle([approveActions({ proposalId: id, actionIndexes: [0], actor: actor("rita") }), rejectActions({ proposalId: id, actionIndexes: [0], actor: actor("remy") })]);
      const rows = await getDb().approval.findMany({ where: { proposalId: id, withdrawnAt: null, dismissedAt: null } });
      const kinds = rows.map((r) => r.kind).sort();
      expect(kinds).not.toEqual(["approve", "reject"]);
      expect((await getProposal(id)).actions[0]?.status).toBe("rejected");
    }
  }, 120_000);
});
