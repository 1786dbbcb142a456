/**
 * The "done when": runs over MuSiQue (bundle) and MetaQA questions finish with every
 * provider — heuristic, replay (of the heuristic's recording) and openai (a real local HTTP
 * server answering like a model) — with early exits where one step suffices, abduction and
 * parsed actions otherwise, and traces that pass validation against the graph.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KnowledgeGraph } from "../../graph/model";
import type { CorpusDocument } from "../../import/corpus";
import { validateTrace } from "../../loop/deeprefine-files";
import { runHopLoop } from "../../loop/run-hop-loop";
import { documentLoader, metaqa, musique } from "../../loop/test-support";
import type { LlmProvider, RunTrace } from "../../loop/types";
import { createHeuristicProvider } from "../../providers/heuristic";
import { createReplayProvider, recordingFromTrace } from "../../providers/replay";
import { readData } from "../../test/data";
import { createOpenAiProvider } from "./openai";
import type { TestLlmServer } from "./test-llm-server";
import { completion, startTestLlmServer } from "./test-llm-server";

let server: TestLlmServer;

/** A stand-in model: answerable once it has seen three steps, abduction and one action otherwise. */
function answer(body: { messages?: { content?: string }[] }) {
  const prompt = (body.messages ?? []).map((m) => m.content ?? "").join("\n");
  if (prompt.includes("<judge>")) {
    const triples = (prompt.match(/^\(/gm) ?? []).length;
    return completion(triples >= 15 || prompt.includes("Kismet") ? "<judge>Yes</judge>" : "<judge>No</judge>");
  }
  if (prompt.includes("<abduction>")) return completion("<abduction>Incompleteness: the bridge entity is missing.</abduction>");
  return completion('<refinement>insert_edge("Kismet", "directed_by", "William Dieterle")</refinement>');
}

beforeAll(async () => {
  server = await startTestLlmServer({ handler: (req) => answer(req.body as { messages?: { content?: string }[] }) });
});
afterAll(async () => {
  await server.close();
});

interface Dataset {
  name: string;
  graph: () => KnowledgeGraph;
  documents: () => CorpusDocument[];
  questions: () => string[];
}

const datasets: Dataset[] = [
  { name: "MuSiQue", graph: () => musique().graph, documents: () => musique().documents, questions: () => musique().questions.slice(0, 6).map((q) => q.question) },
  {
    name: "MetaQA",
    graph: metaqa,
    documents: () => [],
    questions: () =>
      readData("metaqa", "questions-2hop.jsonl")
        .trim()
        .split("\n")
        .slice(0, 6)
        .map((l) => (JSON.parse(l) as { question: string }).question.replace(/[[\]]/g, "")),
  },
];

const TERMINAL = new Set(["early_exit", "awaiting_review", "finished"]);

async function runAll(dataset: Dataset, provider: (question: string, i: number) => LlmProvider): Promise<RunTrace[]> {
  const graph = dataset.graph();
  const loadDocuments = documentLoader(graph, dataset.documents());
  const traces: RunTrace[] = [];
  for (const [i, question] of dataset.questions().entries()) {
    traces.push(await runHopLoop({ graph, question, queryId: `q${i}`, provider: provider(question, i), loadDocuments }));
  }
  return traces;
}

function expectFinishedAndValid(dataset: Dataset, traces: RunTrace[]): void {
  for (const trace of traces) {
    expect(trace.error, trace.question).toBeNull();
    expect(TERMINAL.has(trace.status), `${trace.question}: ${trace.status}`).toBe(true);
    if (trace.steps.length === 1) expect(trace.earlyExit).toBe(true);
    else expect(trace.abduction).not.toBeNull();
    const check = validateTrace({ trace, graph: dataset.graph() });
    expect(check.errors, trace.question).toEqual([]);
  }
}

describe.each(datasets)("$name with every provider", (dataset) => {
  it("heuristic, then replay of its recordings: identical traces", async () => {
    const heuristic = await runAll(dataset, () => createHeuristicProvider());
    expectFinishedAndValid(dataset, heuristic);
    const replayed = await runAll(dataset, (_q, i) => createReplayProvider({ recording: recordingFromTrace(heuristic[i] as RunTrace) }));
    expectFinishedAndValid(dataset, replayed);
    expect(replayed.map((t) => [t.status, t.steps.length, t.actions])).toEqual(heuristic.map((t) => [t.status, t.steps.length, t.actions]));
  });

  it("openai over HTTP: refinements with parsed actions", async () => {
    const provider = createOpenAiProvider({ baseUrl: server.url, model: "stand-in", temperature: 0, timeoutMs: 5000, maxRetries: 1, concurrency: 2 });
    const traces = await runAll(dataset, () => provider);
    expectFinishedAndValid(dataset, traces);
    expect(traces.some((t) => t.actions.length === 1)).toBe(true);
  });
});
