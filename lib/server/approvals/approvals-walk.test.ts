/**
 * No decision ends in a state nobody can leave (issue 13 item 1): a seeded random walk of
 * approve / reject / edit / withdraw / apply (another proposal changing the graph underneath) /
 * revert over proposals on a real graph, checking after every step that each action is applied,
 * rejected, obsolete (or reverted), or pending with a way forward — never pending with its
 * policy satisfied, never vetoed with an approval still active, never approved twice by one
 * person. Runs on SQLite and on PostgreSQL (REFINERY_TEST_DATABASE=postgres).
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/permissions";
import { isAppError } from "../../errors";
import type { RefinementAction } from "../../loop/types";
import { dataPath } from "../../test/data";
import { approveActions } from "./approvals";
import { rejectActions, withdrawDecision } from "./approvals-veto";
import { revertVersion } from "../proposals";
import { getDb } from "../db/db";
import { getGraphSummary, loadGraph } from "../graphs";
import { importGraphFromPath } from "../graphs";
import { applyProposal, createProposal, editAction, getProposal, reviewForGraph } from "../proposals";
import { createTestUser } from "../auth/test-support";
import type { TestDatabase } from "../db/test-database";
import { useTestDatabase } from "../db/test-database";

const GRAPH = "walk";
const REASON = "checked against the source files";
let db: TestDatabase;
const people: Actor[] = [];
let pool: RefinementAction[] = [];

type Step =
  | { kind: "approve" | "reject" | "withdraw"; who: number; action: number }
  | { kind: "edit"; who: number; action: number; to: number }
  /** `same`: the change one of this proposal's actions makes, landing through another proposal. */
  | { kind: "apply"; to: number; same: boolean }
  | { kind: "revert" };

const stepArb = (actions: number): fc.Arbitrary<Step> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.record({ kind: fc.constant("approve" as const), who: fc.nat(2), action: fc.nat(actions - 1) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("reject" as const), who: fc.nat(2), action: fc.nat(actions - 1) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("withdraw" as const), who: fc.nat(2), action: fc.nat(actions - 1) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("edit" as const), who: fc.nat(2), action: fc.nat(actions - 1), to: fc.nat(99) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant("apply" as const), to: fc.nat(99), same: fc.boolean() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("revert" as const) }) },
  );

async function propose(actions: RefinementAction[]): Promise<string> {
  const summary = await getGraphSummary(GRAPH);
  const reviews = await reviewForGraph({ graph: GRAPH, version: summary.version, actions });
  return createProposal({ graph: GRAPH, baseVersion: summary.version, source: "api", actions, reviews });
}

/** Expected refusals are AppErrors; anything else is a bug the walk found. */
async function attempt(work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (!isAppError(error)) throw error;
  }
}

async function run(step: Step, proposalId: string, mine: RefinementAction[]): Promise<void> {
  const pick = (n: number) => pool[n % pool.length] as RefinementAction;
  switch (step.kind) {
    case "approve":
      return attempt(() => approveActions({ proposalId, actionIndexes: [step.action], actor: people[step.who] as Actor, lowConfidenceConfirmed: true, reason: REASON }));
    case "reject":
      return attempt(() => rejectActions({ proposalId, actionIndexes: [step.action], actor: people[step.who] as Actor, reason: REASON }));
    case "withdraw":
      return attempt(() => withdrawDecision({ proposalId, actionIndex: step.action, actor: people[step.who] as Actor }));
    case "edit":
      return attempt(() => editAction({ proposalId, index: step.action, action: pick(step.to), actor: people[step.who] as Actor }));
    case "apply":
      // Another proposal lands on the graph underneath (the CLI's direct path).
      return attempt(async () =>
        applyProposal({ proposalId: await propose([step.same ? (mine[step.to % mine.length] as RefinementAction) : pick(step.to)]), allowLowConfidence: true, lowConfidenceReason: REASON, actor: "walk" }),
      );
    case "revert":
      return attempt(async () => revertVersion({ graph: GRAPH, version: (await getGraphSummary(GRAPH)).version, actor: "walk" }));
  }
}

async function checkNoDeadEnd(proposalId: string, trail: Step[]): Promise<void> {
  const proposal = await getProposal(proposalId);
  const where = `after ${JSON.stringify(trail)}`;
  for (const a of proposal.actions) {
    const label = `action ${a.index + 1} (${a.status}) ${where}`;
    expect(["applied", "skipped", "rejected", "obsolete", "reverted", "pending"], label).toContain(a.status);
    // Pending with its policy satisfied is the dead end: nobody may approve again, nothing applies it.
    if (a.status === "pending") expect(a.evaluation.satisfied, label).toBe(false);
    const active = a.decisions.filter((d) => d.withdrawnAt === null && !(d.kind === "approve" && d.dismissedAt !== null));
    if (a.status === "rejected") expect(active.some((d) => d.kind === "reject"), label).toBe(true);
    // A veto and an approval are never both active.
    if (active.some((d) => d.kind === "reject")) expect(active.filter((d) => d.kind === "approve"), label).toEqual([]);
    const approvers = active.filter((d) => d.kind === "approve").map((d) => d.userId);
    expect(new Set(approvers).size, label).toBe(approvers.length);
  }
}

beforeAll(async () => {
  db = await useTestDatabase("approvals-walk");
  await importGraphFromPath({ path: dataPath("graphify", "httpx"), name: GRAPH });
  for (const [username, role] of [
    ["rita", "reviewer"],
    ["remy", "reviewer"],
    ["ada", "admin"],
  ] as const) {
    const u = await createTestUser({ username, role });
    people.push({ kind: "user", userId: u.id, username, displayName: username, role, sessionId: "walk" });
  }
  // A name several nodes share: an action using it cannot apply as written.
  const { graph } = await loadGraph(GRAPH);
  const count = new Map<string, number>();
  for (const n of graph.nodes.values()) count.set(n.label, (count.get(n.label) ?? 0) + 1);
  const shared = [...count].find(([, n]) => n > 1)?.[0];
  pool = [
    { type: "insert_edge", subject: "Client", relation: "calls", object: "_build_request" },
    { type: "delete_edge", subject: "Timeout", relation: "uses", object: "URL" },
    { type: "insert_edge", subject: "Client", relation: "inherits", object: "BaseClient" },
    { type: "insert_edge", subject: "main", relation: "calls", object: "unknown" },
    { type: "delete_edge", subject: "Limits", relation: "uses", object: "Headers" },
    ...(shared ? [{ type: "insert_edge" as const, subject: shared, relation: "calls", object: "Client" }] : []),
  ];
}, 120_000);

afterAll(async () => {
  await db.cleanup();
});

describe("random decisions never leave an action stuck", () => {
  it("every action ends applied, rejected, obsolete or pending with a way forward", async () => {
    expect(pool.length).toBeGreaterThan(5);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(99), { minLength: 2, maxLength: 3 }), fc.array(stepArb(3), { minLength: 1, maxLength: 10 }), async (picks, steps) => {
        const actions = picks.map((p) => pool[p % pool.length] as RefinementAction);
        const indexes = actions.map((_, i) => i);
        const proposalId = await propose(actions);
        const trail: Step[] = [];
        for (const step of steps) {
          const fitted = "action" in step ? { ...step, action: indexes[step.action % indexes.length] ?? 0 } : step;
          trail.push(fitted);
          await run(fitted, proposalId, actions);
          await checkNoDeadEnd(proposalId, trail);
        }
      }),
      { seed: 20261201, numRuns: 25, endOnFailure: true },
    );
    // The walk did reach the interesting states, so the property was not checked on nothing.
    const statuses = await getDb().proposalAction.groupBy({ by: ["status"], _count: true });
    expect(statuses.map((s) => s.status)).toEqual(expect.arrayContaining(["applied", "pending"]));
  }, 600_000);
});
