/**
 * Stale approvals decided from stored rows and changesets, never by loading a version (issue #17
 * item 5): a merge approved, then an edge of the merged node removed by another proposal, makes
 * that approval stale; an unrelated insert approved at the same time stays counted. On SQLite and
 * PostgreSQL (REFINERY_TEST_DATABASE=postgres).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveName } from "../../graph/resolve-name";
import type { KnowledgeGraph } from "../../graph/model";
import type { RefinementAction } from "../../loop/types";
import { dataPath } from "../../test/data";
import { createTestUser } from "../auth/test-support";
import { getDb } from "../db/db";
import type { TestDatabase } from "../db/test-database";
import { useTestDatabase } from "../db/test-database";
import { evictGraphs, importGraphFromPath, loadGraph } from "../graphs";
import { applyProposal, createProposal, reviewForGraph } from "../proposals";
import { findStaleReason } from "./stale-approvals";

const GRAPH = "httpx";
let db: TestDatabase;

beforeAll(async () => {
  db = await useTestDatabase("stale-approvals");
  await importGraphFromPath({ path: dataPath("graphify", GRAPH), name: GRAPH });
});

afterAll(async () => {
  await db.cleanup();
});

/** Node ids the resolver reads as exactly that node, so the actions name what the test means. */
function exactIds(graph: KnowledgeGraph): string[] {
  return [...graph.nodes.keys()].filter((id) => resolveName({ graph, name: id }).best?.id === id && resolveName({ graph, name: id }).status === "exact");
}

describe("stale approvals from stored rows", () => {
  it("dismisses the approval of a merge whose node lost an edge, keeps an unrelated one, and re-checks without loading a graph", async () => {
    const { graph, version } = await loadGraph(GRAPH);
    const ids = exactIds(graph);
    const old = ids.find((id) => graph.degree(id) >= 2 && graph.degree(id) <= 6) as string;
    const near = new Set([old, ...graph.neighborIds(old)]);
    const [survivor, c, d] = ids.filter((id) => !near.has(id) && ![...graph.neighborIds(id)].some((n) => near.has(n)));
    const cut = graph.incidentEdges(old)[0];
    expect(old && survivor && c && d && cut).toBeTruthy();

    const approved: RefinementAction[] = [
      { type: "replace_node", old, new: survivor as string },
      { type: "insert_edge", subject: c as string, relation: "stale_test_rel", object: d as string },
    ];
    const reviews = await reviewForGraph({ graph: GRAPH, version, actions: approved });
    const proposalId = await createProposal({ graph: GRAPH, baseVersion: version, source: "api", actions: approved, reviews });
    const reviewer = await createTestUser({ username: "rita", role: "reviewer" });
    const rows = await getDb().proposalAction.findMany({ where: { proposalId }, orderBy: { index: "asc" } });
    await getDb().approval.createMany({ data: rows.map((r) => ({ actionId: r.id, proposalId, userId: reviewer.id, kind: "approve", graphVersion: version })) });

    const removal: RefinementAction[] = [{ type: "delete_edge", subject: cut!.source, relation: cut!.relation, object: cut!.target }];
    const removalReviews = await reviewForGraph({ graph: GRAPH, version, actions: removal });
    const removalId = await createProposal({ graph: GRAPH, baseVersion: version, source: "api", actions: removal, reviews: removalReviews });
    await applyProposal({ proposalId: removalId, allowLowConfidence: true, actor: "test" });

    const approvals = await getDb().approval.findMany({ where: { proposalId }, orderBy: { actionId: "asc" } });
    const expected = `changed since approved: edge ${cut!.source} --${cut!.relation}--> ${cut!.target} removed in version ${version + 1}`;
    expect(approvals.map((a) => a.dismissedReason)).toEqual([expected, null]);

    // Asked again with nothing in memory: the same answers, and no version was loaded for them.
    evictGraphs();
    (globalThis as { refineryTouchedCache?: Map<string, unknown> }).refineryTouchedCache?.clear();
    const record = await getDb().graph.findUniqueOrThrow({ where: { name: GRAPH } });
    const reasons = await Promise.all(
      rows.map((r) =>
        findStaleReason({ graphId: record.id, graphVersion: version, currentVersion: record.currentVersion, action: { id: r.id, graph: GRAPH, baseVersion: version, action: r.action, updatedAt: r.updatedAt } }),
      ),
    );
    expect(reasons).toEqual([expected, null]);
    const versions = (globalThis as { refineryGraphVersions?: Map<string, unknown> }).refineryGraphVersions;
    expect(versions?.size ?? 0).toBe(0);
  });
});
