/**
 * Solo mode and copies across proposals, on the real store (SQLite, and PostgreSQL with
 * REFINERY_TEST_DATABASE=postgres): a lone admin approves their own run; a second reviewer turns
 * on the team rules; the same action from two runs is one queue row, and once one copy applies
 * the other is obsolete with the version, and back to pending when that version is undone.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toQueueRows } from "@/components/review/queue-rows";
import type { Actor } from "../../auth/permissions";
import { isAppError } from "../../errors";
import type { RefinementAction } from "../../loop/types";
import { dataPath } from "../../test/data";
import { approveActions } from "../approvals";
import { createTestUser } from "../auth/test-support";
import { revertVersion } from "./changesets";
import { getDb } from "../db/db";
import { getGraphSummary, loadGraph } from "../graphs";
import { resolveActionNames } from "../../review/resolve-action";
import { importGraphFromPath } from "../graphs";
import { getApprovalPolicy } from "../policies";
import { findProposals, getProposal, previewProposal, reviewForGraph } from "./proposals";
import { proposeFromRun } from "./test-run-proposal";
import type { TestDatabase } from "../db/test-database";
import { useTestDatabase } from "../db/test-database";

let db: TestDatabase;
const GRAPH = "httpx";
/** Ungrounded in httpx's sources: LOW (checked in beforeAll). */
const LOW_UNKNOWN: RefinementAction = { type: "insert_edge", subject: "main", relation: "calls", object: "no_such_helper" };
let ada: Actor & { kind: "user" };
let bea: Actor & { kind: "user" };

function propose(actions: RefinementAction[], startedBy: Actor & { kind: "user" }, question: string): Promise<string> {
  return proposeFromRun({ graph: GRAPH, actions, question, startedBy });
}

let pairs = 0;
/** An insert between two nodes named uniquely by their labels, under a relation of its own (so no such edge exists). */
async function freshInsert(relation: string): Promise<Extract<RefinementAction, { type: "insert_edge" }>> {
  const { graph } = await loadGraph(GRAPH);
  const named = [...graph.nodes.values()].filter((n) => resolveActionNames({ graph, action: { type: "insert_edge", subject: n.label, relation, object: n.label } }).subject?.nodeId === n.id);
  const a = named[pairs * 2];
  const b = named[pairs * 2 + 1];
  pairs++;
  if (!a || !b) throw new Error("not enough uniquely named nodes");
  return { type: "insert_edge", subject: a.label, relation, object: b.label };
}

function user(u: { id: string; username: string }, role: "admin" | "reviewer"): Actor & { kind: "user" } {
  return { kind: "user", userId: u.id, username: u.username, displayName: u.username, role, sessionId: "test" };
}

beforeAll(async () => {
  db = await useTestDatabase("solo");
  await importGraphFromPath({ path: dataPath("graphify", GRAPH), name: GRAPH });
  ada = user(await createTestUser({ username: "ada", role: "admin" }), "admin");
  const [low] = await reviewForGraph({ graph: GRAPH, actions: [LOW_UNKNOWN] });
  expect(low?.confidence).toBe("LOW");
});

afterAll(async () => {
  await db.cleanup();
});

describe("solo mode", () => {
  it("one admin approves their own run with one approval; LOW needs the written reason", async () => {
    const policy = await getApprovalPolicy({ graph: GRAPH });
    expect(policy).toMatchObject({ mode: "solo", approvers: 1, policy: { requiredLow: 2, separateDuties: true }, effective: { requiredLow: 1, separateDuties: false } });
    const id = await propose([LOW_UNKNOWN], ada, "What does main call?");
    expect((await getProposal(id)).approvalMode).toBe("solo");
    const before = (await getGraphSummary(GRAPH)).version;
    const noReason = await approveActions({ proposalId: id, actionIndexes: [0], actor: ada, lowConfidenceConfirmed: true }).catch((e: unknown) => e);
    expect(isAppError(noReason) && noReason.code).toBe("CONFIRMATION_REQUIRED");
    const result = await approveActions({ proposalId: id, actionIndexes: [0], actor: ada, lowConfidenceConfirmed: true, reason: "I wrote main: it calls it" });
    expect(result.applied?.version).toBe(before + 1);
    expect((await getProposal(id)).actions[0]).toMatchObject({ status: "applied", appliedIn: before + 1 });
  });

  it("a second reviewer switches to the team rules: one's own run needs someone else again", async () => {
    bea = user(await createTestUser({ username: "bea", role: "reviewer" }), "reviewer");
    expect(await getApprovalPolicy({ graph: GRAPH })).toMatchObject({ mode: "team", approvers: 2 });
    const id = await propose([await freshInsert("refinery_team_check")], ada, "Team?");
    expect((await getProposal(id)).approvalMode).toBe("team");
    const own = await approveActions({ proposalId: id, actionIndexes: [0], actor: ada, lowConfidenceConfirmed: true, reason: "mine" }).catch((e: unknown) => e);
    expect(isAppError(own) && own.details).toMatchObject({ refusal: "OWN_RUN" });
    // Disabling the second reviewer makes the graph solo again (the tests below run solo).
    await getDb().user.update({ where: { id: bea.userId }, data: { disabledAt: new Date() } });
    expect((await getProposal(id)).approvalMode).toBe("solo");
  });
});

describe("copies of one action across proposals", () => {
  it("are one queue row with their sources; once one applies the other is obsolete with the version, and back when it is undone", async () => {
    const action = await freshInsert("refinery_copy_check");
    const first = await propose([action], ada, "Where is it linked? (run 1)");
    const second = await propose([{ ...action, subject: `${action.subject} ` }], ada, "Where is it linked? (run 2)");
    const pending = toQueueRows(await findProposals({ graph: GRAPH, status: "pending" }), ada).filter((r) => r.status === "pending" && r.action.type === "insert_edge" && r.action.relation === action.relation);
    expect(pending).toHaveLength(1);
    expect(pending[0]?.sources.map((s) => s.proposalId).sort()).toEqual([first, second].sort());

    const chosen = pending[0]?.proposalId as string;
    const other = chosen === first ? second : first;
    const result = await approveActions({ proposalId: chosen, actionIndexes: [0], actor: ada, lowConfidenceConfirmed: true, reason: "both runs found it" });
    const version = result.applied?.version as number;
    expect(version).toBeGreaterThan(1);
    const copy = (await getProposal(other)).actions[0];
    expect(copy).toMatchObject({ status: "obsolete", obsoleteIn: version });
    expect(copy?.obsoleteReason).toMatch(new RegExp(`exists since version ${version}$`));
    expect((await getProposal(other)).status).toBe("applied");
    expect(await getDb().auditEvent.count({ where: { action: "action.obsolete", targetId: `${other}#0` } })).toBe(1);
    const obsoleteRow = toQueueRows(await findProposals({ graph: GRAPH }), ada).find((r) => r.proposalId === other);
    expect(obsoleteRow).toMatchObject({ status: "obsolete", obsoleteIn: version });

    await revertVersion({ graph: GRAPH, version, actor: "test" });
    expect((await getProposal(other)).actions[0]).toMatchObject({ status: "pending", obsoleteIn: null, obsoleteReason: null });
    expect((await getProposal(other)).status).toBe("pending");
    // The preview is planned on the current version (after the revert), not the proposal's base.
    const preview = await previewProposal({ proposalId: other });
    expect(preview.plannedOn).toBe((await getGraphSummary(GRAPH)).version);
    expect(preview.plannedOn).toBeGreaterThan(preview.baseVersion);
  });

  it("an action another change made moot, whatever proposal it came from, is obsolete too", async () => {
    const action = await freshInsert("refinery_moot_check");
    const waiting = await propose([{ ...action, type: "delete_edge" }], ada, "Is this edge wrong?");
    const adding = await propose([action], ada, "Add it");
    // The delete cannot apply yet (no such edge): not moot by a version, it stays pending.
    expect((await getProposal(waiting)).actions[0]?.status).toBe("pending");
    const result = await approveActions({ proposalId: adding, actionIndexes: [0], actor: ada, lowConfidenceConfirmed: true, reason: "adding it" });
    expect(result.applied).not.toBeNull();
    expect((await getProposal(waiting)).actions[0]?.status).toBe("pending");
    const del = await propose([{ ...action, type: "delete_edge" }], ada, "Remove it again");
    const again = await propose([{ ...action, type: "delete_edge" }], ada, "Remove it again, from another run");
    const removed = await approveActions({ proposalId: del, actionIndexes: [0], actor: ada, lowConfidenceConfirmed: true, reason: "removing it" });
    expect((await getProposal(again)).actions[0]).toMatchObject({ status: "obsolete", obsoleteIn: removed.applied?.version });
    expect((await getProposal(again)).actions[0]?.obsoleteReason).toMatch(/no edge .* any more since version/);
  });
});
