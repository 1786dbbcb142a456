/**
 * The question queue and the hop loop through the CLI, against a real SQLite database and the
 * real MuSiQue bundle: runs persist their steps, early exits and refinements are told apart,
 * traces export in the skill's format and validate, and a restart marks unfinished runs.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataPath } from "../lib/test/data";
import { getDb } from "../lib/server/db/db";
import type { TestDatabase } from "../lib/server/db/test-database";
import { testDialect, useTestDatabase } from "../lib/server/db/test-database";
import { withSqlRetrieval } from "../lib/server/db/with-env";
import { evictGraphs, getVersionCacheStats } from "../lib/server/graphs/graph-versions";
import { markInterruptedRuns } from "../lib/server/runs/runs";
import { main } from "./main";

let db: TestDatabase;
let tmp: string;
const QUESTION = "Who was the first president of the association which published Journal of Psychotherapy Integration?";

async function run(...argv: string[]) {
  let out = "";
  let err = "";
  const code = await main(argv, { out: (t) => (out += t + "\n"), err: (t) => (err += t + "\n") });
  return { code, out, err };
}

function recording(calls: { task: string; step?: number; text: string }[]): string {
  const file = path.join(tmp, `rec-${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(file, JSON.stringify({ version: 1, model: "recorded-model", calls }));
  return file;
}

beforeAll(async () => {
  db = await useTestDatabase("loop");
  tmp = db.dir;
  const r = await run("import", dataPath("musique"), "--name", "musique", "--json");
  expect(r.code).toBe(0);
});

afterAll(async () => {
  await db.cleanup();
});

describe("question queue", () => {
  it("keeps the bundle's questions in order, dedupes by query id", async () => {
    const list = JSON.parse((await run("history", "list", "musique", "--pending", "--json")).out) as { text: string; queryId: string }[];
    expect(list.length).toBe(50);
    expect(list[0]?.text).toBe(QUESTION);
    const again = JSON.parse((await run("history", "add", "musique", `  ${QUESTION}  `, "A brand new question?", "--json")).out) as {
      added: unknown[];
      existing: { queryId: string }[];
    };
    expect(again.added.length).toBe(1);
    expect(again.existing.map((q) => q.queryId)).toEqual([list[0]?.queryId]);
  });

  it("imports graphify memory files", async () => {
    const memory = path.join(tmp, "proj", "graphify-out", "memory");
    fs.mkdirSync(memory, { recursive: true });
    fs.writeFileSync(path.join(memory, "query_1.md"), '---\nquestion: "What does Client inherit from?"\n---\n');
    fs.writeFileSync(path.join(memory, "query_2.md"), "# Q: Which module defines Timeout?\n");
    fs.writeFileSync(path.join(memory, "query_3.md"), "# Notes only\n");
    fs.writeFileSync(path.join(memory, "notes.md"), "# Q: not a memory file\n");
    const r = JSON.parse((await run("history", "sync-memory", "musique", "--dir", path.join(tmp, "proj"), "--json")).out) as {
      files: number;
      added: { text: string; source: string }[];
      unreadable: string[];
    };
    expect(r.files).toBe(3);
    expect(r.added.map((q) => q.text)).toEqual(["What does Client inherit from?", "Which module defines Timeout?"]);
    expect(r.added.every((q) => q.source === "graphify_memory")).toBe(true);
    expect(r.unreadable).toEqual(["query_3.md"]);
  });
});

describe("loop run", () => {
  it("early-exits when step 1 is answerable, and marks the question refined", async () => {
    const rec = recording([{ task: "judge", step: 1, text: "<judge>Yes</judge>" }]);
    const r = await run("loop", "run", "musique", "--query", QUESTION, "--provider", "replay", "--replay-file", rec, "--json");
    expect(r.code).toBe(0);
    const trace = JSON.parse(r.out) as { status: string; early_exit: boolean; steps: { triples: Record<string, string>[] }[]; actions: unknown[] };
    expect(trace.status).toBe("early_exit");
    expect(trace.early_exit).toBe(true);
    expect(trace.steps.length).toBe(1);
    expect(trace.steps[0]?.triples.length).toBeLessThanOrEqual(5);
    expect(Object.keys(trace.steps[0]?.triples[0] ?? {}).sort()).toEqual(["object", "object_id", "relation", "subject", "subject_id"]);
    const pending = JSON.parse((await run("history", "list", "musique", "--pending", "--json")).out) as { text: string }[];
    expect(pending.some((q) => q.text === QUESTION)).toBe(false);
  });

  it("abduces and proposes actions after several steps; exports a trace the validator accepts; imports it back", async () => {
    const rec = recording([
      { task: "judge", step: 1, text: "<judge>No</judge>" },
      { task: "judge", step: 2, text: "<judge>No</judge>" },
      { task: "judge", step: 3, text: "<judge>Yes</judge>" },
      { task: "abduction", text: "<abduction>The president of the American Psychological Association is missing.</abduction>" },
      {
        task: "refinement",
        text: '<refinement>insert_edge("American Psychological Association", "first president", "G. Stanley Hall")|delete_edge("a|b", "r)", "c")|frobnicate("x")</refinement>',
      },
    ]);
    const r = await run("loop", "run", "musique", "--query", QUESTION, "--provider", "replay", "--replay-file", rec, "--json");
    expect(r.code).toBe(0);
    const trace = JSON.parse(r.out) as { run_id: string; status: string; steps: { cap: number; triples: unknown[] }[]; actions: unknown[]; action_warnings: string[]; error_abduction_reason: string };
    expect(trace.status).toBe("awaiting_review");
    expect(trace.steps.map((s) => s.cap)).toEqual([5, 10, 15]);
    trace.steps.forEach((s) => expect(s.triples.length).toBeLessThanOrEqual(s.cap));
    expect(trace.actions).toEqual([
      { type: "insert_edge", subject: "American Psychological Association", relation: "first president", object: "G. Stanley Hall" },
      { type: "delete_edge", subject: "a|b", relation: "r)", object: "c" },
    ]);
    expect(trace.action_warnings.join(" ")).toContain("frobnicate");
    expect(trace.error_abduction_reason).toContain("president");
    const logged = await getDb().auditEvent.findMany({ where: { targetId: trace.run_id }, orderBy: { id: "asc" }, select: { action: true, actorKind: true, summary: true } });
    expect(logged.map((e) => [e.action, e.actorKind])).toEqual([
      ["run.start", "cli"],
      ["run.finish", "cli"],
    ]);
    expect(logged[1]?.summary).toContain("proposed 2 actions after 3 steps; waiting for review");

    const out = path.join(tmp, "export");
    const exported = JSON.parse((await run("loop", "export", trace.run_id, "--out", out, "--json")).out) as { trace_file: string; refinement_file: string };
    const v = await run("loop", "validate", "musique", "--trace-file", exported.trace_file, "--refinement-file", exported.refinement_file);
    expect(v.err).toBe("");
    expect(v.code).toBe(0);

    const imported = await run("loop", "import", "musique", "--trace-file", exported.trace_file, "--refinement-file", exported.refinement_file, "--json");
    expect(imported.code).toBe(0);
    const importedRun = JSON.parse(imported.out) as { run_id: string; actions: unknown[] };
    expect(importedRun.actions.length).toBe(2);
    // The imported run is reviewable here: it has a proposal with a label per action.
    const reviewed = await run("review", "musique", "--run", importedRun.run_id, "--json");
    expect(reviewed.code).toBe(0);
    expect((JSON.parse(reviewed.out) as { reviews: { confidence: string }[] }).reviews.length).toBe(2);

    // A tampered trace: a triple the graph does not have, and a Yes before the last step.
    const tampered = JSON.parse(fs.readFileSync(exported.trace_file, "utf8")) as {
      interaction_history: { answerable: boolean; judgement_raw: string; retrieved_subgraph: { subject: string; subject_id?: string }[] }[];
    };
    const first = tampered.interaction_history[0]!;
    first.retrieved_subgraph[0]!.subject = "Nobody";
    first.retrieved_subgraph[0]!.subject_id = "Nobody";
    first.answerable = true;
    first.judgement_raw = "<judge>Yes</judge>";
    const bad = path.join(tmp, "tampered.json");
    fs.writeFileSync(bad, JSON.stringify(tampered));
    const invalid = await run("loop", "validate", "musique", "--trace-file", bad);
    expect(invalid.code).toBe(1);
    expect(invalid.err).toContain("Nobody");
    expect(invalid.err).toMatch(/Yes/);

    // Served by SQL retrieval (PostgreSQL): the trace is checked on a partial graph of its own nodes and edges, alike.
    if (testDialect() === "postgres") {
      evictGraphs(); // nothing cached: a whole load would show in the count
      const before = getVersionCacheStats().loads;
      const overSql = await withSqlRetrieval("1", async () => [
        await run("loop", "validate", "musique", "--trace-file", exported.trace_file, "--refinement-file", exported.refinement_file),
        await run("loop", "validate", "musique", "--trace-file", bad),
      ]);
      expect(overSql.map((r) => [r.code, r.err])).toEqual([
        [v.code, v.err],
        [invalid.code, invalid.err],
      ]);
      expect(getVersionCacheStats().loads).toBe(before);
    }
  });

  it("fails with a clear reason after the format retries, keeping the steps", async () => {
    const rec = recording([
      { task: "judge", step: 1, text: "I think so" },
      { task: "judge", step: 1, text: "maybe" },
      { task: "judge", step: 1, text: "<judge>perhaps</judge>" },
    ]);
    const r = await run("loop", "run", "musique", "--query", "What is the capital of Nowhere?", "--provider", "replay", "--replay-file", rec, "--json");
    expect(r.code).toBe(1);
    const trace = JSON.parse(r.out) as { status: string; error: string; calls: unknown[] };
    expect(trace.status).toBe("failed");
    expect(trace.error).toContain("judge");
    expect(trace.calls.length).toBe(3);
  });

  it("runs with the heuristic provider by default and says it is not an LLM", async () => {
    const r = await run("loop", "run", "musique", "--query", "When was the Journal of Mathematical Physics first published?", "--json");
    expect(r.code).toBe(0);
    expect(r.err).toContain("not an LLM");
    const trace = JSON.parse(r.out) as { provider: { is_llm: boolean; note: string }; steps: { judgementRaw: string }[] };
    expect(trace.provider.is_llm).toBe(false);
    expect(trace.steps[0]?.judgementRaw).toContain("not an LLM");
  });

  it("exits 2 without a question, 1 for an unknown graph", async () => {
    expect((await run("loop", "run", "musique")).code).toBe(2);
    expect((await run("loop", "run", "nope", "--query", "x")).code).toBe(1);
  });
});

describe("restart", () => {
  it("marks runs of a dead process interrupted and leaves no proposal", async () => {
    const db = getDb();
    const graph = await db.graph.findUniqueOrThrow({ where: { name: "musique" } });
    const orphan = await db.run.create({
      data: {
        graphId: graph.id,
        queryId: "0000000000000000",
        question: "orphan",
        graphVersion: 1,
        provider: "heuristic",
        model: "heuristic-v1",
        isLlm: false,
        config: "{}",
        status: "running",
        owner: `999999999@${os.hostname()}`,
        // A dead process stops beating: its run is a few heartbeats old by the next start.
        heartbeatAt: new Date(Date.now() - 60_000),
      },
    });
    expect(await markInterruptedRuns()).toBe(1);
    const after = await db.run.findUniqueOrThrow({ where: { id: orphan.id } });
    expect(after.status).toBe("interrupted");
    expect(after.actions).toBeNull();
    expect(after.error).toContain("stopped before it finished");
  });
});
