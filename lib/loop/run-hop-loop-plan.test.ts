/**
 * Step 1 by the planned retrieval (`graph_rft_plan`, issue #11) on real MetaQA questions asked
 * as a person would (brackets stripped): the Ask plan's chains to the answers fill the small
 * step-1 cap, every triple is a graph edge with its key, later steps still expand, and a plan
 * that finds nothing or fails hands step 1 back to the keyword query.
 */
import { describe, expect, it } from "vitest";
import { runAsk } from "../ask/run-ask";
import type { KnowledgeGraph } from "../graph/model";
import { readData } from "../test/data";
import { orderPlanTriples } from "./order-plan-triples";
import { runHopLoop } from "./run-hop-loop";
import { documentLoader, metaqa, scriptedProvider } from "./test-support";
import type { PlanRetrieval } from "./types";

const NO = "<judge>No</judge>";
const YES = "<judge>Yes</judge>";

const planned: PlanRetrieval = async ({ question, graph, signal }) => {
  const trace = await runAsk({ graph, question, corpusFallback: false, signal });
  return { triples: orderPlanTriples(trace), evidence: `Ask plan (${trace.plan.length} sub-problems)` };
};

interface Question {
  question: string;
  answers: string[];
}

function questions(file: string, count: number, offset: number): Question[] {
  return readData("metaqa", file)
    .split("\n")
    .filter((l) => l.trim())
    .slice(offset, offset + count)
    .map((l) => JSON.parse(l) as Question)
    .map((q) => ({ ...q, question: q.question.replace(/[[\]]/g, "") }));
}

function loop(graph: KnowledgeGraph, question: string, judge: string[], options: { step1?: "graphify_query" | "graph_rft_plan"; planRetrieval?: PlanRetrieval }) {
  return runHopLoop({
    graph,
    question,
    provider: scriptedProvider({ judge, abduction: ["<abduction>missing</abduction>"], refinement: ["<refinement></refinement>"] }),
    queryId: "q",
    loadDocuments: documentLoader(graph, []),
    ...options,
  });
}

describe("runHopLoop with graph_rft_plan at step 1", () => {
  const graph = metaqa();

  it("takes the plan's chains, as graph edges with their keys, up to the cap; step 2 expands as before", async () => {
    const trace = await loop(graph, "which person directed the movies starred by John Krasinski", [NO, YES], { step1: "graph_rft_plan", planRetrieval: planned });
    const [first, second] = trace.steps;
    expect(first?.retrieval.method).toBe("graph_rft_plan");
    expect(first?.retrieval.evidence).toMatch(/^Ask plan \(2 sub-problems\): 5 of \d+ plan triples \(cap 5\)/);
    expect(first?.triples).toHaveLength(5);
    first?.triples.forEach((t, i) => {
      const edge = graph.edges.get(first.edgeKeys[i] ?? "");
      expect([edge?.source, edge?.relation, edge?.target]).toEqual([t.subject_id, t.relation, t.object_id]);
    });
    // The keyword query's five triples are all about the actor; the plan reaches directors at once.
    expect(first?.triples.some((t) => t.relation === "directed_by" && t.subject !== "Brief Interviews with Hideous Men")).toBe(true);
    expect(second?.retrieval.method).toBe("k_hop_expansion");
    expect(second?.edgeKeys.slice(0, 5)).toEqual(first?.edgeKeys);
  });

  it("puts a gold answer in step 1 more often than the keyword query on held-out 2-hop questions", async () => {
    // Questions 1000-1039 of the shared file: not the ones quoted in the issue or tuned on.
    const sample = questions("questions-2hop.jsonl", 40, 1000);
    let plannedHits = 0;
    let keywordHits = 0;
    for (const q of sample) {
      const gold = new Set(q.answers.map((a) => a.toLowerCase()));
      const hit = (t: { subject: string; object: string }) => gold.has(t.subject.toLowerCase()) || gold.has(t.object.toLowerCase());
      const withPlan = await loop(graph, q.question, [YES], { step1: "graph_rft_plan", planRetrieval: planned });
      const withQuery = await loop(graph, q.question, [YES], {});
      if (withPlan.steps[0]?.triples.some(hit)) plannedHits++;
      if (withQuery.steps[0]?.triples.some(hit)) keywordHits++;
    }
    expect(plannedHits).toBeGreaterThan(keywordHits);
  }, 120_000);

  it("falls back to the keyword query when the plan finds no triple or fails, saying so", async () => {
    const empty: PlanRetrieval = async () => ({ triples: [], evidence: "Ask plan (0 sub-problems)" });
    const none = await loop(graph, "which person directed the movies starred by John Krasinski", [YES], { step1: "graph_rft_plan", planRetrieval: empty });
    expect(none.steps[0]?.retrieval.method).toBe("graphify_query");
    expect(none.steps[0]?.retrieval.evidence).toMatch(/^Ask plan \(0 sub-problems\): no triple of the graph; keyword query used instead/);
    expect(none.steps[0]?.triples.length).toBe(5);

    const broken: PlanRetrieval = () => Promise.reject(new Error("planner exploded"));
    const failed = await loop(graph, "which person directed the movies starred by John Krasinski", [YES], { step1: "graph_rft_plan", planRetrieval: broken });
    expect(failed.status).toBe("early_exit");
    expect(failed.steps[0]?.retrieval.evidence).toMatch(/^planned retrieval failed: planner exploded; keyword query used instead/);
  });

  it("drops plan triples that are not edges of the graph, and accepts one reported the other way round", async () => {
    const edge = [...graph.edges.values()][0];
    if (!edge) throw new Error("empty graph");
    const real = graph.toTriple(edge);
    const reversed = { subject: real.object, relation: real.relation, object: real.subject, subject_id: real.object_id, object_id: real.subject_id };
    const invented = { ...real, relation: "not_a_relation_of_metaqa" };
    const odd: PlanRetrieval = async () => ({ triples: [invented, reversed], evidence: "Ask plan (1 sub-problem)" });
    const trace = await loop(graph, "anything", [YES], { step1: "graph_rft_plan", planRetrieval: odd });
    expect(trace.steps[0]?.triples).toEqual([real]);
    expect(trace.steps[0]?.edgeKeys).toEqual([edge.key]);
  });

  it("refuses graph_rft_plan without a planRetrieval function", async () => {
    await expect(loop(graph, "anything", [YES], { step1: "graph_rft_plan" })).rejects.toMatchObject({ code: "INVALID_INPUT" });
  });
});
