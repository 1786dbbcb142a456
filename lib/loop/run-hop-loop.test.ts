import { describe, expect, it } from "vitest";
import type { KnowledgeGraph } from "../graph/model";
import { getQueryIndex } from "../retrieve/query-graph";
import { CORRECTIVE_MESSAGES, runHopLoop } from "./run-hop-loop";
import type { ScriptAnswer } from "./test-support";
import { documentLoader, metaqa, musique, scriptedProvider } from "./test-support";
import type { LlmProvider, LoopConfig, LoopEvent, LoopTask, RunTrace } from "./types";
import { DEFAULT_LOOP_CONFIG } from "./types";

const YES = "<judge>Yes</judge>";
const NO = "<judge>No</judge>";
const ABDUCTION = "<abduction>The subgraph names the publisher but not its first president (incompleteness).</abduction>";
const REFINEMENT =
  '<refinement>insert_edge("G. Stanley Hall", "first president of", "American Psychological Association")|insert_edge("Journal of Psychotherapy Integration", "published by", "American Psychological Association")</refinement>';

const APA_QUESTION = "Who was the first president of the association which published Journal of Psychotherapy Integration?";
const KRASINSKI = "which person directed the movies starred by [John Krasinski]";

function run(
  script: Partial<Record<LoopTask, ScriptAnswer[]>>,
  options: { config?: Partial<LoopConfig>; question?: string; graph?: KnowledgeGraph; signal?: AbortSignal; onEvent?: (e: LoopEvent) => void | Promise<void> } = {},
) {
  const bundle = options.graph ? undefined : musique();
  const graph = options.graph ?? (bundle as ReturnType<typeof musique>).graph;
  const provider = scriptedProvider(script);
  const events: LoopEvent[] = [];
  const promise = runHopLoop({
    graph,
    question: options.question ?? APA_QUESTION,
    provider,
    config: { ...DEFAULT_LOOP_CONFIG, ...options.config },
    queryId: "q1",
    loadDocuments: documentLoader(graph, bundle?.documents ?? []),
    onEvent: async (e) => {
      events.push(e);
      await options.onEvent?.(e);
    },
    signal: options.signal,
  });
  return { promise, provider, events };
}

function shape(events: LoopEvent[]): string[] {
  return events.map((e) => (e.type === "step_started" ? `start ${e.step}` : e.type === "step_finished" ? `step ${e.step.step}` : e.type === "llm_call" ? `call ${e.call.task}` : e.type));
}

/** Every step's triples are graph edges with the recorded keys, distinct, in stored direction. */
function expectWellFormedSteps(graph: KnowledgeGraph, trace: RunTrace): void {
  trace.steps.forEach((s, i) => {
    expect(s.step).toBe(i + 1);
    expect(s.cap).toBe(trace.config.maxTripleNumByStep[i]);
    expect(s.numHops).toBe(i);
    expect(s.triples.length).toBeLessThanOrEqual(s.cap);
    expect(s.edgeKeys.length).toBe(s.triples.length);
    expect(new Set(s.edgeKeys).size).toBe(s.edgeKeys.length);
    expect(new Set(s.triples.map((t) => `${t.subject_id}\u0000${t.relation}\u0000${t.object_id}`)).size).toBe(s.triples.length);
    s.triples.forEach((t, j) => {
      const edge = graph.edges.get(s.edgeKeys[j] ?? "");
      expect([edge?.source, edge?.relation, edge?.target]).toEqual([t.subject_id, t.relation, t.object_id]);
    });
    expect(s.retrieval.method).toBe(i === 0 ? "graphify_query" : "k_hop_expansion");
    expect(s.retrieval.evidence.trim()).not.toBe("");
    // The subgraph accumulates: each step starts with the previous step's triples.
    const prev = trace.steps[i - 1];
    if (prev) expect(s.edgeKeys.slice(0, prev.edgeKeys.length)).toEqual(prev.edgeKeys);
  });
}

describe("runHopLoop on the MuSiQue bundle", () => {
  it("exits early when the first judgement is Yes", async () => {
    const { promise, provider, events } = run({ judge: [YES] });
    const trace = await promise;
    expect(trace.status).toBe("early_exit");
    expect(trace.earlyExit).toBe(true);
    expect(trace.steps).toHaveLength(1);
    expect(trace.steps[0]?.triples.length).toBe(5);
    expect([trace.abduction, trace.abductionRaw, trace.refinementRaw, trace.actions]).toEqual([null, null, null, []]);
    expect(provider.requests.map((r) => r.task)).toEqual(["judge"]);
    expect(shape(events)).toEqual(["start 1", "call judge", "step 1", "finished"]);
    expect(trace.calls.map(({ latencyMs, ...call }) => ({ ...call, latency: typeof latencyMs }))).toEqual([
      { task: "judge", step: 1, attempt: 1, raw: YES, latency: "number", usage: { promptTokens: 10, completionTokens: 2, totalTokens: 12 } },
    ]);
    expect(trace.provider).toEqual({ name: "replay", model: "scripted", isLlm: true });
  });

  it("No, No, Yes: accumulates 5/10/15 triples, then abducts and refines from the last step", async () => {
    const { graph } = musique();
    const { promise, provider, events } = run({ judge: [NO, NO, YES], abduction: [ABDUCTION], refinement: [REFINEMENT] });
    const trace = await promise;
    expect(trace.status).toBe("awaiting_review");
    expect(trace.error).toBeNull();
    expect(trace.earlyExit).toBe(false);
    expect(trace.steps.map((s) => [s.triples.length, s.cap, s.answerable])).toEqual([
      [5, 5, false],
      [10, 10, false],
      [15, 15, true],
    ]);
    expectWellFormedSteps(graph, trace);
    // Step 1 finds the journal's publisher; the 1-hop expansion from it reaches the answer.
    const lines = (i: number) => trace.steps[i]?.triples.map((t) => `${t.subject} | ${t.relation} | ${t.object}`);
    expect(lines(0)).toContain("Journal of Psychotherapy Integration | published by | American Psychological Association");
    expect(lines(1)).toContain("G. Stanley Hall | first president of | American Psychological Association");

    expect(shape(events)).toEqual([
      "start 1", "call judge", "step 1",
      "start 2", "call judge", "step 2",
      "start 3", "call judge", "step 3",
      "call abduction", "abduction",
      "call refinement", "refinement",
      "finished",
    ]);
    expect(trace.abduction).toBe("The subgraph names the publisher but not its first president (incompleteness).");
    expect(trace.actions).toEqual([
      { type: "insert_edge", subject: "G. Stanley Hall", relation: "first president of", object: "American Psychological Association" },
      { type: "insert_edge", subject: "Journal of Psychotherapy Integration", relation: "published by", object: "American Psychological Association" },
    ]);

    // Each judge saw the accumulated subgraph of its step.
    const judges = provider.requests.filter((r) => r.task === "judge");
    judges.forEach((r, i) => {
      expect(r.context.task === "judge" && r.context.step).toBe(i + 1);
      expect(r.messages[1]?.content.split("\n").length).toBe(1 + (trace.steps[i]?.triples.length ?? 0));
    });
    // Abduction over the whole (3 ≤ horizon 4) history, in the seed's format.
    const abductionPrompt = provider.requests.find((r) => r.task === "abduction")?.messages[1]?.content ?? "";
    expect(abductionPrompt.startsWith("Interaction history: Step1:\n['Query': Who was the first president")).toBe(true);
    expect(abductionPrompt).toContain("\n\nStep3:\n['Query': ");
    expect(abductionPrompt).toContain("'Subgraph_hop': 2, ");
    expect(abductionPrompt.endsWith("'Answerable': True]")).toBe(true);
    // Refinement from the LAST step's triples, with the passages behind them.
    const refinement = provider.requests.find((r) => r.task === "refinement");
    expect(refinement?.context.task === "refinement" && refinement.context.triples).toEqual(trace.steps[2]?.triples);
    const user = refinement?.messages[1]?.content ?? "";
    expect(user).toContain("Original Text: Journal of Psychotherapy Integration\nThe Journal of Psychotherapy Integration is a peer-reviewed");
    expect(user).toContain("Hall, who was the first president of the American Psychological Association");
    expect(user).toContain("\nError reasons: The subgraph names the publisher but not its first president (incompleteness).");
  });

  it("abducts over the last historyHorizon steps only", async () => {
    const { promise, provider } = run({ judge: [NO, NO, NO, NO], abduction: [ABDUCTION], refinement: ["<refinement></refinement>"] }, { config: { historyHorizon: 2 } });
    const trace = await promise;
    expect(trace.steps.map((s) => s.triples.length)).toEqual([5, 10, 15, 20]);
    expect(trace.status).toBe("finished");
    expect(trace.actions).toEqual([]);
    const prompt = provider.requests.find((r) => r.task === "abduction")?.messages[1]?.content ?? "";
    expect(prompt.match(/Step\d:/g)).toEqual(["Step1:", "Step2:"]);
    expect(prompt.match(/'Subgraph_hop': \d/g)).toEqual(["'Subgraph_hop': 2", "'Subgraph_hop': 3"]);
  });

  it("skips refinement after a final Yes when refineAfterFinalYes is off", async () => {
    const { promise, provider } = run({ judge: [NO, YES] }, { config: { refineAfterFinalYes: false } });
    const trace = await promise;
    expect([trace.status, trace.earlyExit, trace.steps.length]).toEqual(["finished", false, 2]);
    expect(provider.requests.map((r) => r.task)).toEqual(["judge", "judge"]);
  });

  it("records a step whose retrieval found nothing", async () => {
    const { promise, provider } = run({ judge: [YES] }, { question: "Why is it so?" });
    const trace = await promise;
    expect(trace.steps[0]?.triples).toEqual([]);
    expect(trace.steps[0]?.retrieval.evidence).toContain("no node matched");
    expect(provider.requests[0]?.messages[1]?.content).toBe("Question: Why is it so?\nKnowledge Graph (KG) context: (no triples)");
  });

  it("retries a bad format with the bad output and a correction, then goes on", async () => {
    const { promise, provider } = run({ judge: ["Yes, it is answerable.", "<judge>Probably</judge>", YES] });
    const trace = await promise;
    expect(trace.status).toBe("early_exit");
    expect(trace.calls.map((c) => [c.task, c.step, c.attempt])).toEqual([
      ["judge", 1, 1],
      ["judge", 1, 2],
      ["judge", 1, 3],
    ]);
    expect(trace.steps[0]?.judgementRaw).toBe(YES);
    const third = provider.requests[2]?.messages ?? [];
    expect(third.map((m) => m.role)).toEqual(["system", "user", "assistant", "user", "assistant", "user"]);
    expect(third[2]?.content).toBe("Yes, it is answerable.");
    expect(third[3]?.content).toBe("Your answer must be exactly <judge>Yes</judge> or <judge>No</judge>.");
    expect(third[5]?.content).toBe(CORRECTIVE_MESSAGES.judge);
  });

  it("fails with a clear LLM_FORMAT error when every attempt is bad, keeping earlier steps", async () => {
    const long = `I believe the answer is yes. ${"x".repeat(300)}`;
    const { promise, events } = run({ judge: [NO, "maybe", "dunno", long] });
    const trace = await promise;
    expect(trace.status).toBe("failed");
    expect(trace.steps).toHaveLength(1);
    expect(trace.calls).toHaveLength(4);
    expect(trace.error).toBe(
      `LLM_FORMAT: the judge output at step 2 is not in the required format after 3 attempts (no <judge>…</judge> tag in the output): ${JSON.stringify(`${long.slice(0, 200)}…`)}`,
    );
    expect(events[events.length - 1]?.type).toBe("finished");
  });

  it("retries abduction and refinement formats too", async () => {
    const { promise } = run({
      judge: [NO, YES],
      abduction: ["The KG is incomplete.", ABDUCTION],
      refinement: ['<refinement>insert_edge("a", "b", "c")', REFINEMENT],
    });
    const trace = await promise;
    expect(trace.status).toBe("awaiting_review");
    expect(trace.calls.map((c) => `${c.task}${c.attempt}`)).toEqual(["judge1", "judge1", "abduction1", "abduction2", "refinement1", "refinement2"]);
    const bad = run({ judge: [NO, YES], abduction: ["x", "y", "z"] });
    const failed = await bad.promise;
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatch(/^LLM_FORMAT: the abduction output after step 2 is not in the required format after 3 attempts/);
    expect(failed.steps).toHaveLength(2);
  });

  it("fails on a provider error with the message, keeping the steps done", async () => {
    const { promise, events } = run({ judge: [NO, NO, new Error("connect ECONNREFUSED 127.0.0.1:8080")] });
    const trace = await promise;
    expect(trace.status).toBe("failed");
    expect(trace.error).toBe("replay provider failed on the judge call at step 3: connect ECONNREFUSED 127.0.0.1:8080");
    expect(trace.steps).toHaveLength(2);
    expect(trace.calls[2]).toMatchObject({ task: "judge", step: 3, attempt: 1, raw: "", error: "connect ECONNREFUSED 127.0.0.1:8080" });
    expect(shape(events).slice(-3)).toEqual(["start 3", "call judge", "finished"]);

    const late = await run({ judge: [NO, YES], abduction: [ABDUCTION], refinement: [new Error("HTTP 500")] }).promise;
    expect([late.status, late.abduction !== null, late.refinementRaw, late.steps.length]).toEqual(["failed", true, null, 2]);
  });

  it("waits for onEvent before going on, and stops when aborted", async () => {
    const log: string[] = [];
    const controller = new AbortController();
    const { promise } = run(
      { judge: [NO, NO, NO, NO] },
      {
        signal: controller.signal,
        onEvent: async (e) => {
          if (e.type === "step_started") log.push(`start ${e.step}`);
          if (e.type !== "step_finished") return;
          await new Promise((resolve) => setTimeout(resolve, 5));
          log.push(`persisted ${e.step.step}`);
          if (e.step.step === 2) controller.abort();
        },
      },
    );
    const trace = await promise;
    expect(log).toEqual(["start 1", "persisted 1", "start 2", "persisted 2"]);
    expect(trace.status).toBe("interrupted");
    expect(trace.error).toBe("interrupted before step 3");
    expect(trace.steps).toHaveLength(2);
  });

  it("is interrupted when aborted during a model call", async () => {
    const { graph, documents } = musique();
    const controller = new AbortController();
    // A provider that waits for a slow model and gives up when the signal fires, as fetch does.
    const slow: LlmProvider = {
      name: "openai",
      model: "slow",
      isLlm: true,
      complete: ({ signal }) =>
        new Promise((_, reject) => {
          signal?.addEventListener("abort", () => reject(new Error("This operation was aborted")));
          setTimeout(() => controller.abort(), 5);
        }),
    };
    const trace = await runHopLoop({ graph, question: APA_QUESTION, provider: slow, queryId: "q", loadDocuments: documentLoader(graph, documents), signal: controller.signal });
    expect([trace.status, trace.error, trace.steps.length]).toEqual(["interrupted", "interrupted during the judge call at step 1", 0]);
    expect(trace.calls).toMatchObject([{ task: "judge", step: 1, error: "This operation was aborted" }]);
  });

  it("rejects a config it cannot run", async () => {
    await expect(run({}, { config: { maxHops: 0 } }).promise).rejects.toThrow("loop config: maxHops");
    await expect(run({}, { config: { maxTripleNumByStep: [] } }).promise).rejects.toThrow("maxTripleNumByStep");
  });
});

describe("runHopLoop on MetaQA (128k triples)", () => {
  it("runs 4 steps with refinement within the time budget", async () => {
    const graph = metaqa();
    // The retrieval index is built once per graph and shared by every later query: not loop time.
    const tIndex = performance.now();
    getQueryIndex(graph);
    const indexMs = performance.now() - tIndex;
    const times: number[] = [];
    let last: RunTrace | undefined;
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      last = await run(
        { judge: [NO, NO, NO, NO], abduction: [ABDUCTION], refinement: ['<refinement>insert_edge("Away We Go", "directed_by", "Sam Mendes")</refinement>'] },
        { graph, question: KRASINSKI },
      ).promise;
      times.push(performance.now() - t0);
    }
    const trace = last as RunTrace;
    expect(trace.status).toBe("awaiting_review");
    expect(trace.steps.map((s) => s.triples.length)).toEqual([5, 10, 15, 20]);
    expectWellFormedSteps(graph, trace);
    expect(trace.steps[0]?.triples.every((t) => t.object === "John Krasinski" || t.subject === "John Krasinski")).toBe(true);
    const sorted = [...times].sort((a, b) => a - b);
    const median = sorted[2] ?? Infinity;
    console.log(`hop loop on MetaQA, 4 steps + refinement, instant provider: median ${median.toFixed(1)} ms (runs: ${times.map((t) => t.toFixed(1)).join(", ")}; one-time query index build ${indexMs.toFixed(0)} ms)`);
    // The time is printed, not asserted: speed is measured in `npm run bench` (the loop's row).
  });
});
