/**
 * Campaigns end to end on real data: countries_S1 (its held-out test edges are the regions the
 * questions ask for) with a stand-in model, and the MuSiQue bundle with the heuristic provider.
 * Every iteration's decision is checked against the rules recomputed from the recorded scores,
 * and the live graph must be unchanged.
 */
import { describe, expect, it } from "vitest";
import type { KnowledgeGraph } from "../graph/model";
import { parseTriples } from "../import/parse-triples";
import type { RefinementAction } from "../loop/types";
import { musique } from "../loop/test-support";
import { createHeuristicProvider } from "../providers/heuristic";
import { mineGraphRules } from "../review/mine-graph-rules";
import { readData } from "../test/data";
import { createCampaignRunner } from "./create-campaign-runner";
import { decideIteration, isAccepted } from "./decide-iteration";
import { runCampaign } from "./run-campaign";
import { countryQuestions, hierarchyModel } from "./test-support";
import type { CampaignResult, WorklogEntry } from "./types";

function fingerprint(graph: KnowledgeGraph): string {
  return JSON.stringify([[...graph.nodes.values()].map((n) => [n.id, n.label, n.attrs]), [...graph.edges.values()].map((e) => [e.key, e.source, e.relation, e.target, e.attrs])]);
}

/** Each decision follows from the scores: recompute it against the last accepted iteration. */
function expectConsistentDecisions(result: CampaignResult) {
  let prev = result.iterations[0];
  let streak = 0;
  expect(prev?.decision).toBe("BASELINE");
  for (const it of result.iterations.slice(1)) {
    if (!prev) throw new Error("no baseline");
    if (it.decision === "NOTHING_TO_FIX") {
      expect(it.actions).toEqual([]);
      continue;
    }
    expect(it.decision).not.toBe("ERROR");
    const again = decideIteration({ prev: prev.score, curr: it.score, consecutiveSmall: streak, daBlocked: it.da.guard.blocked });
    expect(it.decision).toBe(again.decision);
    if (isAccepted(it.decision)) {
      prev = it;
      streak = again.consecutiveSmall;
    }
  }
  const best = result.iterations.find((i) => i.iter === result.bestIter);
  expect(best && (best.decision === "BASELINE" || isAccepted(best.decision))).toBe(true);
  for (const it of result.iterations) if (it.decision === "BASELINE" || isAccepted(it.decision)) expect(it.score.overall).toBeLessThanOrEqual(best?.score.overall ?? 0);
}

describe("runCampaign", () => {
  it("countries_S1: proposes the held-out regions back, holds the made-up ones, accepts each iteration until it halts", async () => {
    const live = parseTriples(readData("countries_S1", "graph.txt"), { source: "graph.txt" });
    const before = fingerprint(live);
    const { test, questions } = countryQuestions();
    const runner = createCampaignRunner({ provider: hierarchyModel(), askProvider: createHeuristicProvider(), rules: mineGraphRules({ graph: live }) });
    const log: WorklogEntry[] = [];
    const result = await runCampaign({ live, questions, runner, onIteration: (_, entry) => void log.push(entry) });
    console.log(`countries_S1: ${result.trajectory}`);

    expectConsistentDecisions(result);
    expect(fingerprint(live)).toBe(before);
    const base = result.iterations[0];
    expect(base?.score.sub.answerability).toBe(0);
    // 24 questions, two proposals each, 20 actions an iteration: it takes several iterations.
    const truth = new Set(test.map(([c, r, region]) => `${c}|${r}|${region}`));
    const isTrue = ({ action }: { action: RefinementAction }) => action.type === "insert_edge" && truth.has(`${action.subject}|${action.relation}|${action.object}`);
    let previous = base?.score.sub.answerability ?? 0;
    for (const it of result.iterations.slice(1)) {
      if (it.decision === "NOTHING_TO_FIX") continue;
      expect(it.decision === "ACCEPT" || it.decision === "HALT_TARGET_MET").toBe(true);
      expect(it.score.sub.answerability).toBeGreaterThan(previous);
      previous = it.score.sub.answerability;
      // Every applied edge is a true held-out edge; every made-up one was held back as needing evidence.
      expect(it.actions.length).toBeGreaterThan(0);
      for (const a of it.actions) expect(isTrue(a) && a.evidence !== "needs_evidence").toBe(true);
      const madeUp = it.heldBack.filter((h) => !isTrue(h));
      expect(madeUp.length).toBeGreaterThan(0);
      for (const h of madeUp) expect(h.evidence).toBe("needs_evidence");
    }
    const last = result.iterations.filter((i) => isAccepted(i.decision)).pop();
    expect(result.bestIter).toBe(last?.iter);
    expect(result.bestActions).toEqual(result.iterations.flatMap((i) => (isAccepted(i.decision) ? i.actions.map((a) => a.action) : [])));
    expect(result.bestActions.length).toBe(test.length);
    expect(["nothing_left", "target_met", "cap"]).toContain(result.haltedBecause);
    // The worklog has an entry per iteration, in order, with the decision and its reasons.
    expect(log.map((e) => e.iter)).toEqual(result.iterations.map((i) => i.iter));
    expect(log.every((e) => e.reasons.length > 0)).toBe(true);
  }, 120_000);

  it("MuSiQue with the heuristic provider: runs to a halt with a correct decision at each iteration", async () => {
    const bundle = musique();
    const before = fingerprint(bundle.graph);
    const questions = bundle.questions.map((q, i) => ({ id: q.id ?? `q${i + 1}`, question: q.question, ...(q.answers ? { answers: q.answers } : {}) }));
    const runner = createCampaignRunner({ provider: createHeuristicProvider(), documents: bundle.documents, rules: mineGraphRules({ graph: bundle.graph }) });
    const t0 = performance.now();
    const result = await runCampaign({ live: bundle.graph, questions, runner });
    console.log(`MuSiQue (${questions.length} questions, heuristic): ${result.trajectory}; best iter ${result.bestIter}; ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    expectConsistentDecisions(result);
    expect(fingerprint(bundle.graph)).toBe(before);
    expect(["nothing_left", "target_met", "plateau", "cap"]).toContain(result.haltedBecause);
    const tried = result.iterations.flatMap((i) => [...i.actions, ...i.heldBack]);
    expect(tried.length).toBeGreaterThan(0);
    // Nothing without evidence entered the sandbox.
    for (const it of result.iterations) for (const a of it.actions) expect(a.evidence).not.toBe("needs_evidence");
    // No action is tried twice.
    const texts = result.iterations.flatMap((i) => [...i.actions, ...i.heldBack.filter((h) => !h.reason.startsWith("does not apply"))].map((a) => a.text));
    expect(new Set(texts).size).toBe(texts.length);
  }, 300_000);
});
