/**
 * Issue 13 item 1: an action that cannot apply as written is refused before its approval is
 * recorded, with the fix in the message; a completing approval whose apply fails is rolled back
 * and says why. On SQLite and PostgreSQL (REFINERY_TEST_DATABASE=postgres).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Actor } from "../../auth/permissions";
import { AppError } from "../../errors";
import type { RefinementAction } from "../../loop/types";
import { dataPath } from "../../test/data";
import { approveActions } from "./approvals";
import { getDb } from "../db/db";
import { getGraphSummary, loadGraph } from "../graphs";
import { importGraphFromPath } from "../graphs";
import type * as ProposalsModule from "../proposals";
import { createProposal, getProposal, reviewForGraph } from "../proposals";
import { createTestUser } from "../auth/test-support";
import type { TestDatabase } from "../db/test-database";
import { useTestDatabase } from "../db/test-database";

/** When set, the next apply fails with this error (what a conflict found at commit time does). */
const failure = vi.hoisted(() => ({ next: null as Error | null }));
vi.mock("../proposals/proposals", async (importOriginal) => {
  const actual = await importOriginal<typeof ProposalsModule>();
  return {
    ...actual,
    applyProposal: async (options: Parameters<typeof actual.applyProposal>[0]) => {
      const error = failure.next;
      failure.next = null;
      if (error) throw error;
      return actual.applyProposal(options);
    },
  };
});

let db: TestDatabase;
const people: Record<string, Actor> = {};
const REASON = "checked against the source files";
const HIGH_DELETE: RefinementAction = { type: "delete_edge", subject: "Timeout", relation: "uses", object: "URL" };

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

async function refusal(work: Promise<unknown>): Promise<AppError> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

/**
 * Either the duplicate was marked obsolete when the first applied (lib/server/policies/policies' queue
 * dedup), and approving it is refused as not pending, or it is still pending and refused as
 * already applied with the fix; never an approval recorded for it.
 */
async function expectAlreadyDone(proposalId: string, error: AppError): Promise<void> {
  const status = (await getProposal(proposalId)).actions[0]?.status;
  if (status === "obsolete") expect(error.details).toMatchObject({ refusal: "NOT_PENDING" });
  else {
    expect(status).toBe("pending");
    expect(error.details).toMatchObject({ refusal: "CANNOT_APPLY", cause: "ALREADY_APPLIED" });
    expect(error.message).toMatch(/mark it obsolete/);
  }
  expect(await getDb().approval.count({ where: { proposalId } })).toBe(0);
}

beforeAll(async () => {
  db = await useTestDatabase("approvals-apply");
  for (const name of ["blocked", "rollback"]) await importGraphFromPath({ path: dataPath("graphify", "httpx"), name });
  for (const [username, role] of [
    ["rita", "reviewer"],
    ["remy", "reviewer"],
  ] as const) {
    const u = await createTestUser({ username, role });
    people[username] = { kind: "user", userId: u.id, username, displayName: username, role, sessionId: "test" };
  }
}, 120_000);

afterAll(async () => {
  await db.cleanup();
});

describe("refused before the approval is recorded", () => {
  it("an ambiguous node name: pick the node", async () => {
    const { graph } = await loadGraph("blocked");
    const count = new Map<string, number>();
    for (const n of graph.nodes.values()) count.set(n.label, (count.get(n.label) ?? 0) + 1);
    const shared = [...count].find(([, n]) => n > 1)?.[0];
    expect(shared).toBeDefined();
    const id = await propose("blocked", [{ type: "insert_edge", subject: shared as string, relation: "calls", object: "Client" }]);
    const error = await refusal(approveActions({ proposalId: id, actionIndexes: [0], actor: actor("rita"), lowConfidenceConfirmed: true, reason: REASON }));
    expect(error.code).toBe("CONFLICT");
    expect(error.details).toMatchObject({ refusal: "CANNOT_APPLY", cause: "AMBIGUOUS_NAME" });
    expect(error.message).toMatch(/names several nodes.*pick the node.*Nothing was recorded/);
    expect(await getDb().approval.count({ where: { proposalId: id } })).toBe(0);
  });

  it("a change another proposal already made: mark it obsolete", async () => {
    const first = await propose("blocked", [HIGH_DELETE]);
    const second = await propose("blocked", [HIGH_DELETE]);
    const applied = await approveActions({ proposalId: first, actionIndexes: [0], actor: actor("rita") });
    expect(applied.applied).not.toBeNull();
    const error = await refusal(approveActions({ proposalId: second, actionIndexes: [0], actor: actor("remy") }));
    await expectAlreadyDone(second, error);
  });

  it("the same new edge added by another proposal is already applied, not added twice", async () => {
    const link: RefinementAction = { type: "insert_edge", subject: "Client", relation: "calls", object: "_build_request" };
    const first = await propose("blocked", [link]);
    const second = await propose("blocked", [link]);
    await approveActions({ proposalId: first, actionIndexes: [0], actor: actor("rita") });
    const error = await refusal(approveActions({ proposalId: second, actionIndexes: [0], actor: actor("remy") }));
    await expectAlreadyDone(second, error);
  });
});

describe("a completing approval whose apply fails", () => {
  it("is rolled back and says why; approving again later applies", async () => {
    const id = await propose("rollback", [HIGH_DELETE]);
    const before = (await getGraphSummary("rollback")).version;
    failure.next = new AppError("CONFLICT", "the graph changed since version 1 in ways this change touches");
    const error = await refusal(approveActions({ proposalId: id, actionIndexes: [0], actor: actor("rita") }));
    expect(error.details).toMatchObject({ refusal: "APPLY_FAILED", rolledBack: true });
    expect(error.message).toMatch(/^Your approval was not kept: .*applying failed: the graph changed/);
    const action = (await getProposal(id)).actions[0];
    expect(action?.status).toBe("pending");
    expect(action?.evaluation.satisfied).toBe(false);
    expect(action?.evaluation.approvals).toBe(0);
    expect(await getDb().auditEvent.count({ where: { action: "action.withdraw", targetId: `${id}#0` } })).toBe(1);
    expect((await getGraphSummary("rollback")).version).toBe(before);
    // The way forward stays open: the same person may approve again, and that applies.
    const again = await approveActions({ proposalId: id, actionIndexes: [0], actor: actor("rita") });
    expect(again.applied?.version).toBe(before + 1);
    expect(await getDb().auditEvent.count({ where: { action: "changeset.apply", graphName: "rollback" } })).toBe(1);
  });

  it("an action left satisfied but unapplied (a crash between the two) is applied by the next approval click", async () => {
    const id = await propose("rollback", [{ type: "delete_edge", subject: "Limits", relation: "uses", object: "Headers" }]);
    const row = await getDb().proposalAction.findUniqueOrThrow({ where: { proposalId_index: { proposalId: id, index: 0 } } });
    const version = (await getGraphSummary("rollback")).version;
    await getDb().approval.create({ data: { actionId: row.id, proposalId: id, userId: (actor("remy") as Extract<Actor, { kind: "user" }>).userId, kind: "approve", graphVersion: version } });
    expect((await getProposal(id)).actions[0]?.evaluation.satisfied).toBe(true);
    const res = await approveActions({ proposalId: id, actionIndexes: [0], actor: actor("rita") });
    expect(res.applied?.version).toBe(version + 1);
    expect((await getProposal(id)).actions[0]?.status).toBe("applied");
  });
});
