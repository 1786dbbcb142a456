/**
 * runCampaign's branches with a scripted runner on the countries_S1 graph: a revert (and the
 * reverted action never tried again), the devil's advocate blocking an iteration whose score
 * went up, an error that is its own decision, a baseline already at the target, and a stop.
 */
import { describe, expect, it } from "vitest";
import type { KnowledgeGraph } from "../graph/model";
import { parseTriples } from "../import/parse-triples";
import { DEFAULT_LOOP_CONFIG } from "../loop/types";
import type { RefinementAction, RunTrace } from "../loop/types";
import type { ActionReview, ScoreSignal } from "../review/types";
import { readData } from "../test/data";
import type { CampaignRunner } from "./run-campaign";
import { runCampaign } from "./run-campaign";

const live = parseTriples(readData("countries_S1", "graph.txt"), { source: "graph.txt" });
const edgeCount = live.edges.size;

const insert = (subject: string, object: string): RefinementAction => ({ type: "insert_edge", subject, relation: "locatedIn", object });
const has = (graph: KnowledgeGraph, s: string, o: string) => graph.outEdges(s).some((e) => e.target === o && e.relation === "locatedIn");

function trace(question: string, answerable: boolean, actions: RefinementAction[]): RunTrace {
  return {
    question,
    queryId: question,
    provider: { name: "replay", model: "script", isLlm: false },
    config: DEFAULT_LOOP_CONFIG,
    steps: [1, 2].map((step) => ({ step, query: question, numHops: step - 1, baseTopK: 10, cap: 5, retrieval: { method: "graphify_query" as const, evidence: "" }, triples: [], edgeKeys: [], answerable: answerable && step === 1, judgementRaw: "", timings: { retrievalMs: 0, judgeMs: 0 } })).slice(0, answerable ? 1 : 2),
    earlyExit: answerable,
    abductionRaw: null,
    abduction: null,
    refinementRaw: null,
    actions: answerable ? [] : actions,
    actionWarnings: [],
    status: answerable ? "early_exit" : "awaiting_review",
    error: null,
    calls: [],
  };
}

/** A review whose signals say what the test needs: supported, or supported with strong evidence against. */
function review(action: RefinementAction, index: number, kind: "good" | "contested"): ActionReview {
  const signals: ScoreSignal[] = [{ kind: "rule", contribution: 2.5, summary: "a mined path rule predicts it", positive: true, strong: true }];
  if (kind === "contested") signals.push({ kind: "functional", contribution: -1, summary: "one-valued relation already has a value", strong: true });
  return { index, action, text: `insert_edge("${(action as { subject: string }).subject}", "locatedIn", "${(action as { object: string }).object}")`, confidence: "MEDIUM", score: 0.6, signals, reasons: [], evidence: [], warnings: [], suggestions: [], resolved: {} };
}

function runner(script: { answerable: (graph: KnowledgeGraph, id: string) => boolean; actions: Record<string, RefinementAction[]>; contested?: string[]; failReview?: boolean }): CampaignRunner {
  return {
    maxHops: 4,
    runLoop: async ({ graph, question }) => trace(question.question, script.answerable(graph, question.id), script.actions[question.id] ?? []),
    review: async ({ actions }) => {
      if (script.failReview) throw new Error("the review store is down");
      return actions.map((a, i) => review(a, i, a.type === "insert_edge" && script.contested?.includes(a.subject) ? "contested" : "good"));
    },
  };
}

const questions = [
  { id: "eritrea", question: "Which region is eritrea located in?" },
  { id: "ghana", question: "Which region is ghana located in?" },
];

describe("runCampaign branches", () => {
  it("reverts an iteration whose score fell, never retries its action, and halts with nothing left", async () => {
    // Inserting eritrea → europe makes ghana unanswerable (the script's rule): the score falls.
    const r = await runCampaign({
      live,
      questions,
      runner: runner({ answerable: (g, id) => (id === "ghana" ? !has(g, "eritrea", "europe") : has(g, "eritrea", "africa")), actions: { eritrea: [insert("eritrea", "europe")] } }),
    });
    expect(r.iterations.map((i) => i.decision)).toEqual(["BASELINE", "REVERT", "NOTHING_TO_FIX"]);
    expect(r.iterations[2]?.memory.doNotRepropose).toContain('insert_edge("eritrea", "locatedIn", "europe")');
    expect(r).toMatchObject({ bestIter: 0, haltedBecause: "nothing_left", bestActions: [] });
    expect(live.edges.size).toBe(edgeCount);
  });

  it("accepts a gain, then lets a standing CRITICAL block the next iteration although its score went up", async () => {
    // Round 1 concedes eritrea's contested edge (rebuttal 4: the concession stands).
    const r = await runCampaign({ live, questions, maxActionsPerIteration: 1, runner: runner({ answerable: (g, id) => id === "eritrea" && has(g, id, "africa"), actions: { eritrea: [insert("eritrea", "africa")] }, contested: ["eritrea"] }) });
    expect(r.iterations[1]).toMatchObject({ decision: "ACCEPT" });
    expect(r.iterations[1]?.da.guard.blocked).toBe(false);

    // Now with ghana's contested edge proposed in round 2, right after round 1's concession.
    const actions: Record<string, RefinementAction[]> = { eritrea: [insert("eritrea", "africa")], ghana: [insert("ghana", "africa")] };
    const r2 = await runCampaign({ live, questions, maxActionsPerIteration: 1, runner: runner({ answerable: (g, id) => has(g, id, "africa"), actions, contested: ["eritrea", "ghana"] }) });
    const second = r2.iterations[2];
    expect(second?.score.overall).toBeGreaterThan(r2.iterations[1]?.score.overall ?? 100);
    expect(second?.decision).toBe("REVERT");
    expect(second?.da.guard.blocked).toBe(true);
    expect(second?.reasons.join(" ")).toMatch(/CRITICAL/);
    expect(second?.reasons.join(" ")).toMatch(/concession refused .* follows a round with a concession/);
    expect(r2.bestIter).toBe(1);
    expect(r2.bestActions).toEqual([insert("eritrea", "africa")]);
    expect(live.edges.size).toBe(edgeCount);
  });

  it("records an error as ERROR, not as a revert", async () => {
    const r = await runCampaign({ live, questions, runner: runner({ answerable: () => false, actions: { eritrea: [insert("eritrea", "africa")] }, failReview: true }) });
    expect(r.iterations.map((i) => i.decision)).toEqual(["BASELINE", "ERROR"]);
    expect(r.iterations[1]?.error).toMatch(/review store is down/);
    expect(r.haltedBecause).toBe("error");
  });

  it("halts at once when the baseline already meets the target", async () => {
    const r = await runCampaign({ live, questions, runner: runner({ answerable: () => true, actions: {} }) });
    expect(r.iterations.map((i) => i.decision)).toEqual(["BASELINE"]);
    expect(r).toMatchObject({ haltedBecause: "target_met", bestIter: 0 });
  });

  it("stops when aborted, keeping what it has", async () => {
    const controller = new AbortController();
    const r = await runCampaign({
      live,
      questions,
      signal: controller.signal,
      runner: runner({ answerable: (g, id) => has(g, id, "africa"), actions: { eritrea: [insert("eritrea", "africa")], ghana: [insert("ghana", "africa")] } }),
      maxActionsPerIteration: 1,
      onIteration: (it) => {
        if (it.iter === 1) controller.abort();
      },
    });
    expect(r.iterations.map((i) => i.decision)).toEqual(["BASELINE", "ACCEPT"]);
    expect(r).toMatchObject({ haltedBecause: "stopped", bestIter: 1 });
  });

  it("refuses duplicate question ids and a bad cap", async () => {
    const run = runner({ answerable: () => false, actions: {} });
    await expect(runCampaign({ live, questions: [questions[0]!, questions[0]!], runner: run })).rejects.toMatchObject({ code: "INVALID_INPUT" });
    await expect(runCampaign({ live, questions, runner: run, iterationCap: 0 })).rejects.toMatchObject({ code: "INVALID_INPUT" });
    await expect(runCampaign({ live, questions: [], runner: run })).rejects.toMatchObject({ code: "INVALID_INPUT" });
  });
});

describe("runCampaign sandboxes", () => {
  it("two campaigns on one graph at the same time never share a sandbox", async () => {
    const script = (id: string) => ({ answerable: (g: KnowledgeGraph, q: string) => has(g, q, "africa"), actions: { [id]: [insert(id, "africa")] } });
    const [a, b] = await Promise.all([
      runCampaign({ live, questions: [questions[0]!], runner: runner(script("eritrea")) }),
      runCampaign({ live, questions: [questions[1]!], runner: runner(script("ghana")) }),
    ]);
    expect(a.bestActions).toEqual([insert("eritrea", "africa")]);
    expect(b.bestActions).toEqual([insert("ghana", "africa")]);
    // Each sandbox holds only its own change.
    expect(a.iterations[1]?.changeset.ops.map((o) => (o.op === "add_edge" ? o.edge.source : ""))).toEqual(["eritrea"]);
    expect(b.iterations[1]?.changeset.ops.map((o) => (o.op === "add_edge" ? o.edge.source : ""))).toEqual(["ghana"]);
    expect(live.edges.size).toBe(edgeCount);
  });
});

describe("runCampaign resume", () => {
  it("goes on from the stored iterations as if it had not stopped", async () => {
    const script = { answerable: (g: KnowledgeGraph, id: string) => has(g, id, "africa"), actions: { eritrea: [insert("eritrea", "africa")], ghana: [insert("ghana", "africa")] } };
    const whole = await runCampaign({ live, questions, maxActionsPerIteration: 1, runner: runner(script) });
    // Interrupted after iteration 1 (stored as JSON), then resumed.
    const stored = JSON.parse(JSON.stringify(whole.iterations.slice(0, 2))) as typeof whole.iterations;
    const seen: number[] = [];
    const resumed = await runCampaign({ live, questions, maxActionsPerIteration: 1, runner: runner(script), resume: stored, onIteration: (it) => void seen.push(it.iter) });
    expect(seen).toEqual(whole.iterations.slice(2).map((i) => i.iter));
    expect(resumed.iterations.map((i) => i.decision)).toEqual(whole.iterations.map((i) => i.decision));
    expect(resumed.iterations.map((i) => i.score.overall)).toEqual(whole.iterations.map((i) => i.score.overall));
    expect(resumed).toMatchObject({ bestIter: whole.bestIter, haltedBecause: whole.haltedBecause, bestActions: whole.bestActions });
    expect(live.edges.size).toBe(edgeCount);
  });

  it("finishes at once when the stored campaign had already halted", async () => {
    const whole = await runCampaign({ live, questions, runner: runner({ answerable: () => false, actions: {} }) });
    const again = await runCampaign({ live, questions, runner: runner({ answerable: () => false, actions: {} }), resume: whole.iterations });
    expect(again).toMatchObject({ haltedBecause: "nothing_left", bestIter: 0 });
    await expect(runCampaign({ live, questions, runner: runner({ answerable: () => false, actions: {} }), resume: whole.iterations.slice(1) })).rejects.toMatchObject({ code: "INVALID_INPUT" });
  });
});
