/**
 * The tools of one ask, shared by the LLM executor and the heuristic planner so both leave the
 * same kind of trace: each call is numbered, timed, budgeted and recorded with its structured
 * result; the triples it returned join the subgraph; a neighbour search that serves a plan step
 * adds its entities to that step's answer set.
 */
import type { KnowledgeGraph, Triple } from "../graph/model";
import type { CorpusDocument } from "../import/corpus";
import { findGraphRelation, resolveAskHead, splitToolArguments } from "./resolve-ask-head";
import { formatPassages, searchText } from "./search-corpus";
import { formatNeighbors, searchNeighbors } from "./search-neighbors";
import { formatRelations, searchRelations } from "./search-relations";
import type { AskEntity, AskToolCall, AskToolName, WebSearch } from "./types";

export const TOOL_TAGS: Record<AskToolName, string> = {
  relation_search: "relation_information",
  neighbor_search: "neighbor_information",
  web_search: "web_information",
};

export interface AskToolbox {
  readonly calls: AskToolCall[];
  readonly stepAnswers: Record<string, AskEntity[]>;
  /** Triples of every neighbour search, for the subgraph drawing; no duplicates. */
  readonly subgraph: Triple[];
  /** Triples that reached each answer entity (by node id). */
  readonly evidence: Map<string, Triple[]>;
  readonly budgetLeft: () => number;
  readonly toolMs: () => number;
  relationSearch(args: { argsText?: string; head: string; relation: string; planStep?: string | null }): AskToolCall;
  neighborSearch(args: { argsText?: string; head: string; relation: string; planStep?: string | null }): AskToolCall;
  webSearch(args: { query: string; planStep?: string | null }): Promise<AskToolCall>;
}

export interface CreateAskToolboxOptions {
  graph: KnowledgeGraph;
  documents?: readonly CorpusDocument[];
  webSearch?: WebSearch;
  corpusFallback: boolean;
  toolBudget: number;
  now: () => number;
  signal?: AbortSignal;
}

export function createAskToolbox(options: CreateAskToolboxOptions): AskToolbox {
  const { graph, now } = options;
  const calls: AskToolCall[] = [];
  const stepAnswers: Record<string, AskEntity[]> = {};
  const subgraph: Triple[] = [];
  const seenTriples = new Set<string>();
  const evidence = new Map<string, Triple[]>();
  let toolMs = 0;

  const record = (call: Omit<AskToolCall, "n" | "ms">, started: number): AskToolCall => {
    const ms = Math.round((now() - started) * 100) / 100;
    toolMs += ms;
    const full: AskToolCall = { n: calls.length + 1, ...call, ms };
    calls.push(full);
    return full;
  };

  const headAndRelation = (args: { argsText?: string; head: string; relation: string }) =>
    args.argsText === undefined ? { head: args.head, relation: args.relation } : (splitToolArguments({ graph, argsText: args.argsText, stepAnswers }) ?? { head: args.head, relation: args.relation });

  return {
    calls,
    stepAnswers,
    subgraph,
    evidence,
    budgetLeft: () => options.toolBudget - calls.length,
    toolMs: () => toolMs,

    relationSearch(args) {
      const started = now();
      const { head, relation } = headAndRelation(args);
      const input = { head, relation };
      const planStep = args.planStep ?? null;
      const heads = resolveAskHead({ graph, head, stepAnswers });
      if (!heads.ok) return record({ tool: "relation_search", input, planStep, output: heads.error, relations: [], error: heads.error }, started);
      const relations = searchRelations({ graph, heads: heads.entities, text: relation });
      return record(
        {
          tool: "relation_search",
          input,
          planStep,
          output: formatRelations({ heads: heads.entities, relations }),
          relations: relations.map((r) => ({ relation: r.relation, score: Math.round(r.score * 1000) / 1000 })),
          ...(relations.length === 0 ? { error: "the entity has no relations" } : {}),
        },
        started,
      );
    },

    neighborSearch(args) {
      const started = now();
      const { head, relation: written } = headAndRelation(args);
      const input = { head, relation: written };
      const planStep = args.planStep ?? null;
      const heads = resolveAskHead({ graph, head, stepAnswers });
      if (!heads.ok) return record({ tool: "neighbor_search", input, planStep, output: heads.error, entities: [], triples: [], error: heads.error }, started);
      // A relation the graph does not have by that name: the ranker's best among h's relations,
      // said so in the output, rather than an empty result the model cannot act on.
      let relation = findGraphRelation({ graph, name: written });
      let note = "";
      if (relation === null) {
        const own = searchRelations({ graph, heads: heads.entities, text: written, limit: 1 })[0];
        const best = own && own.score > 0 ? own.relation : null;
        if (best === null) {
          const error = `the graph has no relation "${written}" at ${heads.entities.length === 1 ? heads.entities[0]?.label : head}`;
          return record({ tool: "neighbor_search", input, planStep, output: error, entities: [], triples: [], error }, started);
        }
        relation = best;
        note = `No relation named "${written}"; using ${best}.\n`;
      }
      const result = searchNeighbors({ graph, heads: heads.entities, relation });
      for (const t of result.triples) {
        const key = `${t.subject_id}\u0000${t.relation}\u0000${t.object_id}`;
        if (!seenTriples.has(key)) {
          seenTriples.add(key);
          subgraph.push(t);
        }
        for (const id of [t.subject_id, t.object_id]) {
          const list = evidence.get(id);
          if (!list) evidence.set(id, [t]);
          else if (list.length < 5 && !list.includes(t)) list.push(t);
        }
      }
      if (planStep) {
        const set = (stepAnswers[planStep] ??= []);
        const have = new Set(set.map((e) => e.id));
        for (const e of result.entities) if (!have.has(e.id)) set.push({ id: e.id, label: e.label });
      }
      return record(
        {
          tool: "neighbor_search",
          input,
          planStep,
          output: note + formatNeighbors({ heads: heads.entities, relation, result }),
          entities: result.entities.map((e) => ({ id: e.id, label: e.label })),
          triples: result.triples,
          ...(result.entities.length === 0 ? { error: `no neighbors through ${relation}` } : {}),
        },
        started,
      );
    },

    async webSearch({ query, planStep = null }) {
      const started = now();
      const input = { query };
      if (!options.corpusFallback) {
        const error = "web search is off for this ask (corpus fallback disabled)";
        return record({ tool: "web_search", input, planStep, output: error, passages: [], error }, started);
      }
      if (!options.documents?.length && !options.webSearch) {
        const error = "this graph has no corpus and no web search is configured";
        return record({ tool: "web_search", input, planStep, output: error, passages: [], error }, started);
      }
      const passages = await searchText({
        graph,
        query,
        ...(options.documents ? { documents: options.documents } : {}),
        ...(options.webSearch ? { webSearch: options.webSearch } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      return record({ tool: "web_search", input, planStep, output: formatPassages(passages), passages, ...(passages.length === 0 ? { error: "no passage found" } : {}) }, started);
    },
  };
}
