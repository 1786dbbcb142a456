/**
 * Runs on a graph retrieved through SQL (PostgreSQL, REFINERY_SQL_RETRIEVAL_EDGES below the
 * graph's size) against the same runs in memory (the setting at 0), on MetaQA questions with the
 * heuristic provider: every step (triples, edge keys, evidence, the judge's verdict and its raw
 * output) and the step's answer must be equal. The abduction and actions are counted only: the
 * heuristic's merge statistics and name index read the whole graph (see sql-run-graph.ts). The
 * review differs by design (a neighbourhood, no mined rules): each action carries the
 * RULES_NOT_MINED warning and no label above LOW rests only on neighbourhood statistics.
 * On SQLite the setting changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunDetails } from "./runs";
import { startRun } from "./runs";
import { answerRunStep } from "./step-answer";
import { pickRunGraph } from "./sql-run-graph";
import { reviewForGraph } from "../proposals";
import { askGraph } from "../asks";
import type { RefinementAction } from "../../loop/types";
import type { ActionReview } from "../../review/types";
import { createHeuristicProvider } from "../../providers/heuristic";
import { dataPath, readData } from "../../test/data";
import { getDb } from "../db/db";
import { importGraphFromPath } from "../graphs";
import type { TestDatabase } from "../db/test-database";
import { testDialect, useTestDatabase } from "../db/test-database";
import { withSqlRetrieval } from "../db/with-env";

let db: TestDatabase;

beforeAll(async () => {
  db = await useTestDatabase("sql-run");
  await importGraphFromPath({ path: dataPath("metaqa", "kb.txt"), name: "metaqa" });
}, 600_000);

afterAll(async () => {
  await db?.cleanup();
});

/** What must not depend on where the graph is: the steps (retrieval and the judge's verdicts), but timings. */
function comparable(run: RunDetails) {
  return {
    error: run.error,
    earlyExit: run.earlyExit,
    steps: run.stepRecords.map(({ timings: _timings, ...step }) => step),
    judgeCalls: run.calls.filter((c) => c.task === "judge").map((c) => ({ step: c.step, attempt: c.attempt, raw: c.raw })),
  };
}

/**
 * What the heuristic provider reads beyond the retrieved neighbourhood (abduction, refinement):
 * its whole-graph name index and merge statistics see only the partial graph. Counted, not required.
 */
function afterSteps(run: RunDetails) {
  return JSON.stringify({ abduction: run.abduction, actions: run.actionList, warnings: run.actionWarnings });
}

async function runIt(question: string): Promise<RunDetails> {
  const started = await startRun({ graph: "metaqa", question, provider: createHeuristicProvider() });
  return started.done;
}

const jsonl = (file: string) => readData("metaqa", file).split("\n").filter(Boolean).map((l) => (JSON.parse(l) as { question: string }).question);

describe("runs over SQL retrieval", () => {
  it.skipIf(testDialect() !== "sqlite")("on SQLite the graph is always in memory", async () => {
    await withSqlRetrieval("1", async () => expect((await pickRunGraph("metaqa")).via).toBe("memory"));
  });

  it.skipIf(testDialect() !== "postgres")(
    "give the same steps, judge calls and step answers as in memory",
    async () => {
      const questions = [...jsonl("questions-1hop.jsonl").slice(0, 6), ...jsonl("questions-2hop.jsonl").slice(0, 6)];
      expect(await withSqlRetrieval("1", async () => (await pickRunGraph("metaqa")).via)).toBe("sql");
      let steps = 0;
      let proposed = 0;
      let answered = 0;
      let refinedAlike = 0;
      let refined = 0;
      for (const question of questions) {
        const memory = await withSqlRetrieval("0", () => runIt(question));
        const sql = await withSqlRetrieval("1", () => runIt(question));
        expect(comparable(sql), question).toEqual(comparable(memory));
        steps += memory.stepRecords.length;
        if (memory.abduction !== null) {
          refined++;
          if (afterSteps(sql) === afterSteps(memory)) refinedAlike++;
        }
        const memoryAnswer = await withSqlRetrieval("0", () => answerRunStep(memory.id));
        const sqlAnswer = await withSqlRetrieval("1", () => answerRunStep(sql.id));
        expect(sqlAnswer?.trace.answers, question).toEqual(memoryAnswer?.trace.answers);
        if (memoryAnswer?.trace.answers.length) answered++;
        if (sql.proposalId) {
          proposed++;
          const proposal = await getDb().proposal.findUniqueOrThrow({ where: { id: sql.proposalId }, include: { actions: true } });
          for (const action of proposal.actions) {
            const review = JSON.parse(action.review) as { confidence: string; warnings: { code: string }[]; signals?: { kind: string; positive?: boolean; strong?: boolean }[] };
            expect(review.warnings.map((w) => w.code)).toContain("RULES_NOT_MINED");
            if (review.confidence !== "LOW") {
              expect((review.signals ?? []).some((s) => (s.positive || s.strong) && !["signature", "functional", "rule"].includes(s.kind))).toBe(true);
            }
          }
        }
      }
      console.log(`sql runs: ${questions.length} questions, ${steps} steps equal; abduction and actions equal in ${refinedAlike} of ${refined} refined runs; ${proposed} proposals reviewed over SQL`);
      // Something was compared: multi-step runs, proposals reviewed, answers found.
      expect(steps).toBeGreaterThan(questions.length * 1.5);
      expect(answered).toBeGreaterThan(0);
      if (proposed === 0) console.log("sql runs: no run proposed actions (the review over SQL is checked below)");
    },
    900_000,
  );
});

/** Actions over MetaQA facts: deletes of stored edges, inserts with another fact's object of the relation (made up), a merge. */
function sampleActions(): RefinementAction[] {
  const lines = readData("metaqa", "kb.txt").split("\n").filter(Boolean);
  const actions: RefinementAction[] = [];
  for (let i = 0; actions.length < 30 && i < lines.length; i += 4271) {
    const [subject, relation, object] = (lines[i] ?? "").split("|");
    const [, , other] = (lines[(i * 7 + 13) % lines.length] ?? "").split("|");
    if (!subject || !relation || !object || !other) continue;
    actions.push({ type: "delete_edge", subject, relation, object });
    actions.push({ type: "insert_edge", subject, relation, object: other });
  }
  actions.push({ type: "replace_node", old: "john krasinski", new: "John Krasinski" });
  return actions;
}

describe.skipIf(testDialect() !== "postgres")("the review of a run's actions over SQL", () => {
  it("resolves names as on the whole graph, warns that rules are not mined, and rests every label above LOW on evidence", async () => {
    const actions = sampleActions();
    const version = 1;
    // In memory with the mined rules (waited for), as a run's final review has them.
    const memory = await withSqlRetrieval("0", () => reviewForGraph({ graph: "metaqa", version, actions, rulesWaitMs: 300_000 }));
    const sql = await withSqlRetrieval("1", () => reviewForGraph({ graph: "metaqa", version, actions }));
    expect(sql).toHaveLength(memory.length);
    const ids = (r: ActionReview) => Object.fromEntries(Object.entries(r.resolved).map(([k, v]) => [k, v ? { status: v.status, nodeId: v.nodeId, candidates: v.status === "ambiguous" ? v.candidates.map((c) => c.id).sort() : [] } : null]));
    const order = { LOW: 0, MEDIUM: 1, HIGH: 2 } as const;
    const table = { sameLabel: 0, lower: 0, higher: 0 };
    sql.forEach((review, i) => {
      const twin = memory[i] as ActionReview;
      expect(ids(review), review.text).toEqual(ids(twin));
      expect(review.warnings.map((w) => w.code)).toContain("RULES_NOT_MINED");
      expect(memory[i]?.warnings.map((w) => w.code)).not.toContain("RULES_NOT_MINED");
      if (review.confidence !== "LOW") {
        expect((review.signals ?? []).some((s) => (s.positive || s.strong) && !["signature", "functional", "rule"].includes(s.kind)), review.text).toBe(true);
      }
      const d = order[review.confidence] - order[twin.confidence];
      if (d === 0) table.sameLabel++;
      else if (d < 0) table.lower++;
      else table.higher++;
    });
    console.log(`sql review: ${sql.length} actions; label same as with the whole graph ${table.sameLabel}, lower ${table.lower}, higher ${table.higher}`);
  }, 300_000);
});

describe.skipIf(testDialect() !== "postgres")("asks and planned runs over SQL", () => {
  it("asks (heuristic planner) give the same plan, tool calls, answers and subgraph as in memory", async () => {
    const questions = [...jsonl("questions-1hop.jsonl").slice(20, 26), ...jsonl("questions-2hop.jsonl").slice(20, 26)];
    let answers = 0;
    for (const question of questions) {
      const same = (a: Awaited<ReturnType<typeof askGraph>>) => {
        const t = a.trace;
        return { status: a.status, plan: t?.plan, answers: t?.answers, stepAnswers: t?.stepAnswers, calls: t?.calls.map((c) => ({ tool: c.tool, input: c.input, output: c.output })), subgraph: t?.subgraph };
      };
      const memory = await withSqlRetrieval("0", () => askGraph({ graph: "metaqa", question, provider: "heuristic", corpusFallback: false }));
      const sql = await withSqlRetrieval("1", () => askGraph({ graph: "metaqa", question, provider: "heuristic", corpusFallback: false }));
      expect(same(sql), question).toEqual(same(memory));
      answers += memory.trace?.answers.length ?? 0;
    }
    expect(answers).toBeGreaterThan(questions.length);
  }, 600_000);

  it("a run with step 1 from the Ask plan (graph_rft_plan) gives the same steps", async () => {
    await getDb().graph.update({ where: { name: "metaqa" }, data: { loopRetrieval: "graph_rft_plan" } });
    try {
      let planned = 0;
      for (const question of [...jsonl("questions-1hop.jsonl").slice(30, 33), ...jsonl("questions-2hop.jsonl").slice(30, 33)]) {
        const memory = await withSqlRetrieval("0", () => runIt(question));
        const sql = await withSqlRetrieval("1", () => runIt(question));
        expect(comparable(sql), question).toEqual(comparable(memory));
        if (memory.stepRecords[0]?.retrieval.method === "graph_rft_plan") planned++;
      }
      expect(planned).toBeGreaterThan(0);
    } finally {
      await getDb().graph.update({ where: { name: "metaqa" }, data: { loopRetrieval: "graphify_query" } });
    }
  }, 600_000);
});
