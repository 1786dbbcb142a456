/**
 * Test support for the loop: the real data sets as graphs (cached per test file) and a scripted
 * provider whose answers are given per task. Test-only: reads files through lib/test/data.
 */
import type { KnowledgeGraph, Triple } from "../graph/model";
import type { CorpusDocument } from "../import/corpus";
import type { ParsedBundle } from "../import/parse-bundle";
import { parseBundle } from "../import/parse-bundle";
import { parseGraphifyJson } from "../import/parse-graphify";
import { parseTriples } from "../import/parse-triples";
import { readData } from "../test/data";
import { documentIdsForTriples } from "./prompts";
import type { CompletionRequest, CompletionResult, LlmProvider, LoopTask } from "./types";

let musiqueCache: ParsedBundle | undefined;
let metaqaCache: KnowledgeGraph | undefined;
let httpxCache: { graph: KnowledgeGraph; documents: CorpusDocument[] } | undefined;

export function musique(): ParsedBundle {
  musiqueCache ??= parseBundle({
    corpus: { name: "corpus.jsonl", text: readData("musique", "corpus.jsonl") },
    triples: { name: "triples.jsonl", text: readData("musique", "triples.jsonl") },
    questions: { name: "questions.jsonl", text: readData("musique", "questions.jsonl") },
  });
  return musiqueCache;
}

export function metaqa(): KnowledgeGraph {
  metaqaCache ??= parseTriples(readData("metaqa", "kb.txt"), { source: "kb.txt" });
  return metaqaCache;
}

/** The httpx graphify graph with its raw source files as documents (docId = the nodes' source_file). */
export function httpx(): { graph: KnowledgeGraph; documents: CorpusDocument[] } {
  if (!httpxCache) {
    const graph = parseGraphifyJson(readData("graphify", "httpx", "graph.json"));
    const files = new Set<string>();
    for (const n of graph.nodes.values()) if (n.sourceFile) files.add(n.sourceFile);
    const documents: CorpusDocument[] = [...files].map((docId) => {
      const name = docId.split("/").pop() ?? docId;
      return { docId, kind: "file", title: null, path: `httpx/raw/${name}`, text: readData("graphify", "httpx", "raw", name) };
    });
    httpxCache = { graph, documents };
  }
  return httpxCache;
}

/** A `loadDocuments` over an in-memory corpus: the documents behind the triples, as a store would return them. */
export function documentLoader(graph: KnowledgeGraph, documents: readonly CorpusDocument[]): (triples: Triple[]) => Promise<CorpusDocument[]> {
  const byId = new Map(documents.map((d) => [d.docId, d]));
  return async (triples) =>
    documentIdsForTriples({ graph, triples })
      .map((id) => byId.get(id))
      .filter((d): d is CorpusDocument => d !== undefined);
}

export type ScriptAnswer = string | Error | ((request: CompletionRequest) => string);

export interface ScriptedProvider extends LlmProvider {
  readonly requests: CompletionRequest[];
}

/** Answers each task's calls from its list, in order; an Error entry is thrown; running out throws. */
export function scriptedProvider(script: Partial<Record<LoopTask, ScriptAnswer[]>>, model = "scripted"): ScriptedProvider {
  const used: Record<LoopTask, number> = { judge: 0, abduction: 0, refinement: 0 };
  const requests: CompletionRequest[] = [];
  return {
    name: "replay",
    model,
    isLlm: true,
    requests,
    async complete(request: CompletionRequest): Promise<CompletionResult> {
      requests.push(request);
      const list = script[request.task] ?? [];
      const answer = list[used[request.task]++];
      if (answer === undefined) throw new Error(`script has no answer ${used[request.task]} for ${request.task}`);
      if (answer instanceof Error) throw answer;
      const text = typeof answer === "function" ? answer(request) : answer;
      return { text, usage: { promptTokens: 10, completionTokens: 2, totalTokens: 12 } };
    },
  };
}
