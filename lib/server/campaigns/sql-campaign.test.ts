/**
 * Campaigns on a graph retrieved through SQL (PostgreSQL, REFINERY_SQL_RETRIEVAL_EDGES below the
 * graph's size) against the same campaign in memory (the setting at 0), on countries_S1's "which
 * region" questions; the base version is never loaded whole on the SQL path (loadGraph is spied).
 *
 * The review differs by design (sql-campaign.ts: no mined rules over SQL, so the gate holds back
 * what only a rule supports), and so does what a provider reads beyond the retrieved triples. So:
 *   - through startCampaign, the baseline (retrieval, judge, Ask, score) must be equal, and every
 *     action the SQL review holds back carries no mined-rule reason;
 *   - through runCampaign with one scripted review for both and a model that reads only the
 *     retrieved triples and their endpoints' edges, every iteration must be equal: decisions,
 *     scores per question, actions, held-back actions, changesets. Its actions insert, delete and
 *     rename, so later iterations retrieve over sandboxes with all three.
 * On SQLite the setting changes nothing (campaigns.test.ts covers the memory path).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createCampaignRunner } from "../../campaign/create-campaign-runner";
import type { CampaignRunner } from "../../campaign/run-campaign";
import { runCampaign } from "../../campaign/run-campaign";
import { countryQuestions, hierarchyModel } from "../../campaign/test-support";
import type { CampaignIteration, CampaignQuestion } from "../../campaign/types";
import { formatRefinement } from "../../providers/heuristic";
import type { LlmProvider, RefinementAction } from "../../loop/types";
import { DEFAULT_LOOP_CONFIG } from "../../loop/types";
import { formatAction } from "../../loop/parse-output";
import type { ActionReview } from "../../review/types";
import { dataPath } from "../../test/data";
import { startCampaign } from "./campaigns";
import { createSqlCampaignRunner, createSqlSandboxes } from "./sql-campaign";
import type { SqlSandbox } from "./sql-campaign";
import { findSqlRunGraph, importGraphFromPath, loadGraph } from "../graphs";
import type { TestDatabase } from "../db/test-database";
import { testDialect, useTestDatabase } from "../db/test-database";
import { withSqlRetrieval } from "../db/with-env";

/** Every whole load, by graph name. */
const loads = vi.hoisted(() => [] as string[]);
vi.mock("../graphs/graph-store", async (importOriginal) => {
  // (graph-store.ts is an internal of graphs/: typed here by what is used.)
  const actual = await importOriginal<{ loadGraph: (name: string, version?: number) => Promise<unknown> }>();
  return {
    ...actual,
    loadGraph: (name: string, version?: number) => {
      loads.push(name);
      return actual.loadGraph(name, version);
    },
  };
});

let db: TestDatabase;

beforeAll(async () => {
  db = await useTestDatabase("sql-campaign");
  await importGraphFromPath({ path: dataPath("countries_S1", "graph.txt"), name: "countries", format: "triples" });
}, 600_000);

afterAll(async () => {
  await db?.cleanup();
});

/** What must not depend on where the graph is (the timestamps aside). */
function comparable(it: CampaignIteration) {
  return {
    iter: it.iter,
    decision: it.decision,
    accepted: it.accepted,
    delta: it.delta,
    score: it.score,
    actions: it.actions.map((a) => [a.text, a.evidence, a.questions]),
    heldBack: it.heldBack.map((a) => [a.text, a.reason]),
    changeset: it.changeset,
    cumulativeActions: it.cumulativeActions,
    reasons: it.reasons,
  };
}

/**
 * A model that reads only the step's triples (what SQL retrieval makes equal; a node's other
 * edges in the partial graph may be incomplete): "answerable" when a triple links the question's
 * country to a continent; it proposes the shortcut when the triples hold country → sub-region →
 * continent, deletes the country's first neighbour edge among them, and for eritrea renames its
 * sub-region (replace_node to a new name).
 */
function tripleModel(): LlmProvider {
  const continents = new Set(["africa", "americas", "asia", "europe", "oceania"]);
  const entityOf = (question: string) => (/region is (.+) located in/.exec(question)?.[1] ?? "").replace(/ /g, "_");
  return {
    name: "replay",
    model: "triple-stand-in",
    isLlm: false,
    async complete({ context: ctx }) {
      const e = entityOf(ctx.question);
      if (ctx.task === "judge") return { text: `<judge>${ctx.triples.some((t) => t.subject_id === e && continents.has(t.object_id)) ? "Yes" : "No"}</judge>` };
      if (ctx.task === "abduction") return { text: "<abduction>the country's own edge stops below the top of the hierarchy</abduction>" };
      const actions: RefinementAction[] = [];
      for (const t of ctx.triples.filter((x) => x.subject_id === e && x.relation === "locatedIn")) {
        const up = ctx.triples.find((x) => x.subject_id === t.object_id && x.relation === t.relation && continents.has(x.object_id));
        if (!up) continue;
        actions.push({ type: "insert_edge", subject: t.subject, relation: t.relation, object: up.object });
        break;
      }
      const own = ctx.triples.find((x) => x.subject_id === e && x.relation === "locatedIn");
      if (e === "eritrea" && own && !own.object.endsWith(" region")) actions.push({ type: "replace_node", old: own.object, new: `${own.object} region` });
      const neighbour = ctx.triples.find((x) => x.subject_id === e && x.relation !== "locatedIn");
      if (neighbour) actions.push({ type: "delete_edge", subject: neighbour.subject, relation: neighbour.relation, object: neighbour.object });
      return { text: formatRefinement(actions) };
    },
  };
}

/** One review for both paths: inserts and renames supported, deletes only attributed to a made-up passage. */
function scriptedReview(actions: RefinementAction[]): ActionReview[] {
  return actions.map((action, index) => {
    const supported = action.type !== "delete_edge";
    return {
      index,
      action,
      text: formatAction(action),
      confidence: supported ? "MEDIUM" : "LOW",
      score: supported ? 0.6 : 0.2,
      signals: supported ? [{ kind: "text", contribution: 2, summary: "stated", positive: true }] : [],
      reasons: [],
      evidence: supported ? [] : [{ kind: "text", summary: "a passage about it", source: { docId: "doc-1" } }],
      warnings: [],
      suggestions: [],
      resolved: {},
    };
  });
}

describe.skipIf(testDialect() !== "postgres")("campaigns over SQL retrieval", () => {
  it("through startCampaign: the same baseline as in memory, and the graph never loaded", async () => {
    const { questions } = countryQuestions();
    const memory = await withSqlRetrieval("0", async () => (await startCampaign({ graph: "countries", questions, provider: hierarchyModel() })).done);
    loads.length = 0;
    const sql = await withSqlRetrieval("1", async () => (await startCampaign({ graph: "countries", questions, provider: hierarchyModel() })).done);
    expect(loads).toEqual([]);
    expect(sql.status).toBe("finished");
    expect(sql.error).toBeNull();
    expect(sql.baseVersion).toBe(memory.baseVersion);
    expect(comparable(sql.iterationList[0] as CampaignIteration)).toEqual(comparable(memory.iterationList[0] as CampaignIteration));
    // No mined rules over SQL: nothing is held back or supported because of one.
    for (const it of sql.iterationList) for (const a of [...it.actions, ...it.heldBack]) expect(a.why).not.toMatch(/mined (path )?rule/);
    console.log(`startCampaign: memory ${memory.iterationList.map((i) => `${i.decision} ${i.score.overall}`).join(" → ")}; sql ${sql.iterationList.map((i) => `${i.decision} ${i.score.overall}`).join(" → ")}`);
  }, 600_000);

  it("through runCampaign with one review for both: every iteration equal, the graph never loaded", async () => {
    const { questions } = countryQuestions();
    const settings = (qs: CampaignQuestion[]) => ({ questions: qs, iterationCap: 4, thresholds: { target: 99, plateauThreshold: 1, plateauStreak: 3, tieTolerance: 0.5 }, now: () => new Date(0) });
    const live = (await withSqlRetrieval("0", () => loadGraph("countries"))).graph;
    const memoryRunner: CampaignRunner = { ...createCampaignRunner({ provider: tripleModel(), rules: null }), review: async ({ actions }) => scriptedReview(actions) };
    const memory = await runCampaign({ live, runner: memoryRunner, ...settings(questions) });

    loads.length = 0;
    const sql = await withSqlRetrieval("1", async () => {
      const found = await findSqlRunGraph("countries");
      if (!found) throw new Error("countries is not served through SQL at threshold 1");
      const runner: CampaignRunner<SqlSandbox> = { ...createSqlCampaignRunner({ sql: found, provider: tripleModel(), documents: [], loopConfig: DEFAULT_LOOP_CONFIG }), review: async ({ actions }) => scriptedReview(actions) };
      return runCampaign({ sandboxes: createSqlSandboxes(found), runner, ...settings(questions) });
    });
    expect(loads).toEqual([]);
    console.log(`runCampaign: ${memory.trajectory} | sql ${sql.trajectory}`);
    // Something happened: iterations that changed the sandbox, with inserts, deletes and a rename.
    const ops = memory.iterations.flatMap((it) => it.changeset.ops.map((op) => op.op));
    expect(memory.iterations.filter((it) => it.iter > 0 && it.actions.length > 0).length).toBeGreaterThan(1);
    expect(ops).toEqual(expect.arrayContaining(["add_edge", "remove_edge", "update_node"]));
    expect(sql.iterations.map(comparable)).toEqual(memory.iterations.map(comparable));
    expect({ bestIter: sql.bestIter, haltedBecause: sql.haltedBecause, bestActions: sql.bestActions }).toEqual({ bestIter: memory.bestIter, haltedBecause: memory.haltedBecause, bestActions: memory.bestActions });
  }, 600_000);
});
