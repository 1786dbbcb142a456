/**
 * The answer a loop run's subgraph gives: when a step was judged answerable, the heuristic Ask
 * (no model) runs over that step's triples only, so the run page can state what the graph
 * answers, with the chain behind it. Labelled as the heuristic's on the page: the judge said
 * "answerable", this says "with what".
 */
import { runAsk } from "../../ask/run-ask";
import type { AskTrace } from "../../ask/types";
import { KnowledgeGraph } from "../../graph/model";
import { findSqlRunGraph, loadGraph, sqlSubgraphOfEdges } from "../graphs";
import { getRun } from "./runs";

export interface StepAnswer {
  runId: string;
  /** The step judged answerable. */
  step: number;
  /** Always the heuristic planner over the step's triples (never an LLM). */
  method: "heuristic_ask_over_step_triples";
  trace: AskTrace;
}

// Finished runs never change: their answer is computed once per process.
const globalForAnswers = globalThis as unknown as { refineryStepAnswers?: Map<string, StepAnswer | null> };
const answers = (globalForAnswers.refineryStepAnswers ??= new Map<string, StepAnswer | null>());
const CACHE_SIZE = 200;

/** The step's edges as a graph of their own (nodes copied from the run's version). */
function subgraphOf(full: KnowledgeGraph, edgeKeys: readonly string[]): KnowledgeGraph {
  const sub = new KnowledgeGraph(full.meta);
  for (const key of edgeKeys) {
    const edge = full.edges.get(key);
    if (!edge || sub.edges.has(key)) continue;
    for (const id of [edge.source, edge.target]) {
      const node = full.getNode(id);
      if (node && !sub.nodes.has(id)) sub.addNode({ ...node, aliases: [...node.aliases] });
    }
    if (sub.nodes.has(edge.source) && sub.nodes.has(edge.target)) sub.addEdge({ ...edge });
  }
  return sub;
}

/** Null while the run goes on or when no step was judged answerable. */
export async function answerRunStep(runId: string): Promise<StepAnswer | null> {
  if (answers.has(runId)) return answers.get(runId) ?? null;
  const run = await getRun(runId);
  const step = run.stepRecords.find((s) => s.answerable);
  const isSettled = run.status !== "running";
  if (!step) {
    if (isSettled) remember(runId, null);
    return null;
  }
  // Over REFINERY_SQL_RETRIEVAL_EDGES on PostgreSQL only the step's edges are read, not the version.
  const sql = await findSqlRunGraph(run.graph, run.graphVersion);
  const graph = sql ? await sqlSubgraphOfEdges(sql.source, step.edgeKeys) : subgraphOf((await loadGraph(run.graph, run.graphVersion)).graph, step.edgeKeys);
  const trace = await runAsk({ graph, question: run.question, graphName: run.graph, graphVersion: run.graphVersion, corpusFallback: false });
  const answer: StepAnswer = { runId, step: step.step, method: "heuristic_ask_over_step_triples", trace };
  if (isSettled) remember(runId, answer);
  return answer;
}

function remember(runId: string, answer: StepAnswer | null): void {
  answers.set(runId, answer);
  while (answers.size > CACHE_SIZE) {
    const oldest = answers.keys().next().value;
    if (oldest === undefined) break;
    answers.delete(oldest);
  }
}
