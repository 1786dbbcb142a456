/**
 * The heuristic planner as the server and CLI run it: the relation ranker with the WordNet
 * lexicon (lib/ tests cannot load it: it reads files). Held-out MetaQA questions, brackets
 * stripped, every 23rd exact-KB question (the evaluation samples with a seeded shuffle instead).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { runAsk } from "../../ask/run-ask";
import { metaqa } from "../../loop/test-support";
import { readData } from "../../test/data";
import { useDefaultLexicon } from "../graphs";

beforeAll(() => {
  expect(useDefaultLexicon()).toBe(true);
});

describe("heuristic ask with WordNet", () => {
  it.each([
    ["who co-starred with Jared Kusnitz", ["starred_actors", "starred_actors"]],
    ["which films share the screenwriter with Chopper", ["written_by", "written_by"]],
    ["the movies starred by Clifford Rose were written by who", ["starred_actors", "written_by"]],
    ["what were the release years of the films written by Gary David Goldberg", ["written_by", "release_year"]],
    ["which movies did Terence Young direct", ["directed_by"]],
  ])("%s", async (question, relations) => {
    const trace = await runAsk({ graph: metaqa(), question });
    expect(trace.plan.map((s) => (s.op === "search" ? s.relation : s.op))).toEqual(relations);
    expect(trace.status).toBe("answered");
    const topic = trace.plan[0]?.op === "search" && "entity" in trace.plan[0].head ? trace.plan[0].head.entity : "";
    expect(trace.answers.map((a) => a.label)).not.toContain(topic);
  });

  it.each([
    ["questions-1hop.jsonl", 0.8],
    ["questions-2hop.jsonl", 0.6],
  ] as const)("Hits@1 on held-out %s", async (file, min) => {
    const questions = readData("metaqa", file)
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { question: string; answers: string[]; kb_status: string })
      .filter((q) => q.kb_status === "exact")
      .filter((_, i) => i % 23 === 5);
    let hits = 0;
    for (const q of questions) {
      const trace = await runAsk({ graph: metaqa(), question: q.question.replace(/\[([^\]]+)\]/g, "$1") });
      if (q.answers.includes(trace.answers[0]?.label ?? "")) hits++;
    }
    expect(questions.length).toBeGreaterThan(50);
    expect(hits / questions.length).toBeGreaterThanOrEqual(min);
  });
});
