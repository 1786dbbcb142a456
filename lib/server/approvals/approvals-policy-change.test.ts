/**
 * The rules an approval is checked against are read again inside its transaction, on the real
 * store (SQLite, and PostgreSQL with REFINERY_TEST_DATABASE=postgres): a lone admin's approval of
 * their own run is allowed in solo mode, but if a second approver account appears between the
 * checks and the write, solo mode has ended, so the approval is refused and nothing is recorded.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Actor } from "../../auth/permissions";
import { isAppError } from "../../errors";
import type { RefinementAction } from "../../loop/types";
import { dataPath } from "../../test/data";
import { createTestUser } from "../auth/test-support";
import { getDb } from "../db/db";
import type { TestDatabase } from "../db/test-database";
import { useTestDatabase } from "../db/test-database";
import { getGraphSummary, importGraphFromPath } from "../graphs";
import type * as proposals from "../proposals";
import { getProposal } from "../proposals";
import { proposeFromRun } from "../proposals/test-run-proposal";
import { approveActions } from "./approvals";

/** Runs once, right after approveActions has read the proposal and its rules (then cleared). */
const afterRead: { run: (() => Promise<void>) | null } = { run: null };

vi.mock("../proposals", async (importOriginal) => {
  const original = await importOriginal<typeof proposals>();
  return {
    ...original,
    getProposal: async (...args: Parameters<typeof original.getProposal>) => {
      const proposal = await original.getProposal(...args);
      const run = afterRead.run;
      afterRead.run = null;
      if (run) await run();
      return proposal;
    },
  };
});

let db: TestDatabase;
const GRAPH = "httpx";
const ACTION: RefinementAction = { type: "insert_edge", subject: "Client", relation: "calls", object: "_build_request" };
let ada: Actor & { kind: "user" };

function proposeAsRunOf(startedBy: Actor & { kind: "user" }): Promise<string> {
  return proposeFromRun({ graph: GRAPH, actions: [ACTION], question: "What does Client call?", startedBy });
}

beforeAll(async () => {
  db = await useTestDatabase("approvals-policy-change");
  await importGraphFromPath({ path: dataPath("graphify", GRAPH), name: GRAPH });
  const u = await createTestUser({ username: "ada", role: "admin" });
  ada = { kind: "user", userId: u.id, username: u.username, displayName: u.username, role: "admin", sessionId: "test" };
}, 120_000);

afterAll(async () => {
  await db.cleanup();
});

describe("the approval rules are checked again under the lock", () => {
  it("a second approver created between the checks and the write ends solo mode: own-run approval refused, nothing recorded", async () => {
    const id = await proposeAsRunOf(ada);
    expect((await getProposal(id)).approvalMode).toBe("solo");
    const version = (await getGraphSummary(GRAPH)).version;
    afterRead.run = async () => {
      await createTestUser({ username: "bea", role: "reviewer" });
    };
    const refused = await approveActions({ proposalId: id, actionIndexes: [0], actor: ada, lowConfidenceConfirmed: true, reason: "my own run, solo" }).catch((e: unknown) => e);
    expect(afterRead.run).toBeNull();
    expect(isAppError(refused) && refused.code).toBe("CONFLICT");
    expect(isAppError(refused) && refused.details).toMatchObject({ refusal: "POLICY_CHANGED" });
    expect(isAppError(refused) && refused.message).toMatch(/now team mode/);
    expect(await getDb().approval.count({ where: { proposalId: id } })).toBe(0);
    expect((await getGraphSummary(GRAPH)).version).toBe(version);

    // Read again, the team rules apply: one's own run needs someone else.
    expect((await getProposal(id)).approvalMode).toBe("team");
    const own = await approveActions({ proposalId: id, actionIndexes: [0], actor: ada, lowConfidenceConfirmed: true, reason: "mine" }).catch((e: unknown) => e);
    expect(isAppError(own) && own.details).toMatchObject({ refusal: "OWN_RUN" });
  });

  it("with the rules unchanged the same path approves and applies", async () => {
    const bea = await getDb().user.findUniqueOrThrow({ where: { username: "bea" } });
    await getDb().user.update({ where: { id: bea.id }, data: { disabledAt: new Date() } });
    const id = await proposeAsRunOf(ada);
    const version = (await getGraphSummary(GRAPH)).version;
    const result = await approveActions({ proposalId: id, actionIndexes: [0], actor: ada, lowConfidenceConfirmed: true, reason: "my own run, solo" });
    expect(result.applied?.version).toBe(version + 1);
  });
});
