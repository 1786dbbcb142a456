/**
 * The DeepRefine hop loop (seed 000) for one question:
 *
 *   step 1      retrieve for the whole question (queryGraph, graphify-compatible), cap 5; or,
 *               with `step1: "graph_rft_plan"`, the triples an Ask plan used (injected
 *               `planRetrieval`), falling back to the query when the plan found none
 *   step k ≥ 2  expand the subgraph's entities by `incrementHop` hop(s), both directions, ranked
 *               by relevance to the question, up to cap [5,10,15,20][k-1]
 *   each step   LLM judge → <judge>Yes|No</judge>; stop at the first Yes
 *   1 step      early exit, no refinement
 *   > 1 step    abduction over the last `historyHorizon` steps → <abduction>, then refinement
 *               from the last step's subgraph + abduction + question + original text
 *               → <refinement>actions</refinement> (proposals only: nothing touches the graph)
 *
 * Step subgraphs ACCUMULATE: step k keeps every triple of step k-1 and adds the best new triples
 * of its entities' neighbourhood until the cap. The caps grow 5/10/15/20 for this reason (a fresh
 * 1-hop neighbourhood would not need a growing budget), DeepRefine's research code does the same
 * ("monotonic working-context expansion": keep prior triples, add 1-hop candidates up to the
 * cap), and the judge must see the first hop's facts together with the second's to answer a
 * two-hop question. So "the previous step's entities" are all entities of the subgraph so far,
 * which also lets a seed's unused neighbours compete with the new frontier's.
 *
 * The loop never throws for model or provider trouble: it returns the trace with status
 * "failed" / "interrupted" and the steps done so far, because the caller persists traces.
 * Errors thrown by `onEvent` (the caller's own persistence) do propagate.
 */
import { AppError } from "../errors";
import type { KnowledgeGraph, Triple } from "../graph/model";
import type { CorpusDocument } from "../import/corpus";
import { expandHops } from "../retrieve/expand-hops";
import { formatQueryText, queryGraph } from "../retrieve/query-graph";
import type { AbductionParse, JudgeParse, RefinementParse } from "./parse-output";
import { parseAbduction, parseJudge, parseRefinement } from "./parse-output";
import { buildAbductionPrompt, buildJudgePrompt, buildOriginalText, buildRefinementPrompt } from "./prompts";
import type {
  ChatMessage,
  LlmCallRecord,
  LlmProvider,
  LoopConfig,
  LoopEvent,
  LoopRetrieval,
  LoopTask,
  PlanRetrieval,
  RefinementAction,
  RunStatus,
  RunTrace,
  Step1Retrieval,
  StepRecord,
  TaskContext,
} from "./types";
import { DEFAULT_LOOP_CONFIG } from "./types";

export interface RunHopLoopOptions {
  graph: KnowledgeGraph;
  question: string;
  provider: LlmProvider;
  config?: LoopConfig;
  queryId: string;
  /** The passages / source files behind the final subgraph, for the refinement prompt's original text. */
  loadDocuments: (triples: Triple[]) => Promise<CorpusDocument[]>;
  /** Awaited: the caller can persist each step before the next one starts. */
  onEvent?: (e: LoopEvent) => void | Promise<void>;
  signal?: AbortSignal;
  /** Milliseconds clock, injectable for reproducible timings. */
  now?: () => number;
  /** Step 1's retrieval (default graphify_query); graph_rft_plan needs `planRetrieval`. */
  step1?: Step1Retrieval;
  planRetrieval?: PlanRetrieval;
  /**
   * Retrieval for graphs not held in memory (default: `queryGraph` / `expandHops` on `graph`).
   * `graph` is then the graph the steps start from (what the plan reads); after each retrieval
   * the loop works on the graph it returned.
   */
  retrieval?: LoopRetrieval;
}

/** graphify's budget unit is ~3 characters: 500 → a 1,500-character excerpt per step. */
const EVIDENCE_BUDGET = 500;
const EVIDENCE_MAX_CHARS = 1500;
/** How much of a bad output an LLM_FORMAT error quotes. */
const QUOTE_CHARS = 200;

export const CORRECTIVE_MESSAGES: Record<LoopTask, string> = {
  judge: "Your answer must be exactly <judge>Yes</judge> or <judge>No</judge>.",
  abduction: "Your answer must contain your analysis inside <abduction>...</abduction>.",
  refinement:
    'Your answer must contain the actions inside <refinement>...</refinement>, separated by |, for example <refinement>insert_edge("subject", "relation", "object")|replace_node("old entity", "new entity")</refinement>. Write <refinement></refinement> if no action is needed.',
};

/** Ends the run early; carries the final status. */
class StopRun extends Error {
  constructor(
    readonly status: "failed" | "interrupted",
    message: string,
  ) {
    super(message);
  }
}

function capAt(config: LoopConfig, step: number): number {
  const caps = config.maxTripleNumByStep;
  return caps[step - 1] ?? caps[caps.length - 1] ?? config.baseTopK;
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function checkConfig(config: LoopConfig): void {
  const bad = (what: string) => new AppError("INVALID_INPUT", `loop config: ${what}`);
  if (!Number.isInteger(config.maxHops) || config.maxHops < 1) throw bad("maxHops must be a positive integer");
  if (!Number.isInteger(config.incrementHop) || config.incrementHop < 1) throw bad("incrementHop must be a positive integer");
  if (config.maxTripleNumByStep.length === 0 || config.maxTripleNumByStep.some((c) => !Number.isInteger(c) || c < 1)) {
    throw bad("maxTripleNumByStep must list positive integers");
  }
  if (!Number.isInteger(config.historyHorizon) || config.historyHorizon < 1) throw bad("historyHorizon must be a positive integer");
  if (!Number.isInteger(config.maxActions) || config.maxActions < 0) throw bad("maxActions must be a non-negative integer");
  if (!Number.isInteger(config.formatRetries) || config.formatRetries < 0) throw bad("formatRetries must be a non-negative integer");
}

/** The accumulated subgraph: triples in order, their edge keys, and what must not come back. */
class Subgraph {
  readonly triples: Triple[] = [];
  readonly edgeKeys: string[] = [];
  /** Keys taken, plus keys of parallel duplicates of taken triples. */
  readonly excluded = new Set<string>();
  private readonly contents = new Set<string>();

  /**
   * Add candidates in rank order until `limit` triples are held. A parallel edge with the same
   * subject, relation and object is the same fact to the judge (MuSiQue extracted many facts
   * from several passages): it is skipped and never offered again.
   */
  take(triples: readonly Triple[], keys: readonly string[], limit: number): { triples: Triple[]; keys: string[] } {
    const added: Triple[] = [];
    const addedKeys: string[] = [];
    triples.forEach((t, i) => {
      const key = keys[i];
      if (key === undefined || this.excluded.has(key)) return;
      const content = JSON.stringify([t.subject_id, t.relation, t.object_id]);
      if (this.contents.has(content)) {
        this.excluded.add(key);
        return;
      }
      if (this.triples.length >= limit) return;
      this.contents.add(content);
      this.excluded.add(key);
      this.triples.push(t);
      this.edgeKeys.push(key);
      added.push(t);
      addedKeys.push(key);
    });
    return { triples: added, keys: addedKeys };
  }

  entities(): string[] {
    const out = new Set<string>();
    for (const t of this.triples) {
      out.add(t.subject_id);
      out.add(t.object_id);
    }
    return [...out];
  }
}

function distinctCount(triples: readonly Triple[]): number {
  return new Set(triples.map((t) => JSON.stringify([t.subject_id, t.relation, t.object_id]))).size;
}

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf("\n", max);
  return `${text.slice(0, cut > 0 ? cut : max)}\n…`;
}

export async function runHopLoop({
  graph: startGraph,
  question,
  provider,
  config = DEFAULT_LOOP_CONFIG,
  queryId,
  loadDocuments,
  onEvent,
  signal,
  now = () => performance.now(),
  step1 = "graphify_query",
  planRetrieval,
  retrieval,
}: RunHopLoopOptions): Promise<RunTrace> {
  checkConfig(config);
  if (step1 === "graph_rft_plan" && !planRetrieval) throw new AppError("INVALID_INPUT", "step 1 retrieval graph_rft_plan needs a planRetrieval function");
  const trace: RunTrace = {
    question,
    queryId,
    provider: { name: provider.name, model: provider.model, isLlm: provider.isLlm },
    config: { ...config, maxTripleNumByStep: [...config.maxTripleNumByStep] },
    steps: [],
    earlyExit: false,
    abductionRaw: null,
    abduction: null,
    refinementRaw: null,
    actions: [],
    actionWarnings: [],
    status: "running",
    error: null,
    calls: [],
  };
  const emit = async (e: LoopEvent) => {
    if (onEvent) await onEvent(e);
  };
  const checkAbort = (where: string) => {
    if (signal?.aborted) throw new StopRun("interrupted", `interrupted ${where}`);
  };

  /**
   * One task's call with format retries: a bad output goes back to the model as its own turn,
   * followed by a corrective instruction, up to `formatRetries` more attempts.
   */
  const call = async <T extends { ok: boolean }>(args: {
    task: LoopTask;
    step: number | null;
    messages: ChatMessage[];
    context: TaskContext;
    parse: (raw: string) => T;
    /** For messages: "at step 2", "after step 3". */
    where: string;
  }): Promise<{ parsed: Extract<T, { ok: true }>; raw: string; ms: number }> => {
    let messages = args.messages;
    let ms = 0;
    let last = { raw: "", error: "" };
    for (let attempt = 1; attempt <= config.formatRetries + 1; attempt++) {
      checkAbort(`before the ${args.task} call ${args.where}`);
      const t0 = now();
      let text: string;
      let usage: LlmCallRecord["usage"];
      try {
        const result = await provider.complete({ task: args.task, messages, context: args.context, signal });
        text = typeof result.text === "string" ? result.text : String(result.text);
        usage = result.usage;
      } catch (e) {
        const latencyMs = now() - t0;
        ms += latencyMs;
        const record: LlmCallRecord = { task: args.task, step: args.step, attempt, raw: "", latencyMs, error: errorText(e) };
        trace.calls.push(record);
        await emit({ type: "llm_call", call: record });
        if (signal?.aborted) throw new StopRun("interrupted", `interrupted during the ${args.task} call ${args.where}`);
        throw new StopRun("failed", `${provider.name} provider failed on the ${args.task} call ${args.where}: ${errorText(e)}`);
      }
      const latencyMs = now() - t0;
      ms += latencyMs;
      const record: LlmCallRecord = { task: args.task, step: args.step, attempt, raw: text, latencyMs };
      if (usage) record.usage = usage;
      trace.calls.push(record);
      await emit({ type: "llm_call", call: record });
      const parsed = args.parse(text);
      if (parsed.ok) return { parsed: parsed as Extract<T, { ok: true }>, raw: text, ms };
      last = { raw: text, error: (parsed as unknown as { error: string }).error };
      messages = [...messages, { role: "assistant", content: text }, { role: "user", content: CORRECTIVE_MESSAGES[args.task] }];
    }
    const attempts = config.formatRetries + 1;
    const quoted = last.raw.length > QUOTE_CHARS ? `${last.raw.slice(0, QUOTE_CHARS)}…` : last.raw;
    // RunTrace.error is a string: the AppError code leads it so callers can still tell a model
    // that ignores the format (LLM_FORMAT, HTTP 502) from a provider that is down.
    throw new StopRun(
      "failed",
      `LLM_FORMAT: the ${args.task} output ${args.where} is not in the required format after ${attempts} attempt${attempts === 1 ? "" : "s"} (${last.error}): ${JSON.stringify(quoted)}`,
    );
  };

  const sub = new Subgraph();
  /** The graph the loop works on: the run's whole graph, or the last injected retrieval's. */
  let graph = startGraph;
  const retrieve: LoopRetrieval = retrieval ?? {
    query: (options) => Promise.resolve({ result: queryGraph({ ...options, graph: startGraph }), graph: startGraph }),
    expand: (options) => Promise.resolve({ result: expandHops({ ...options, graph: startGraph }), graph: startGraph }),
  };
  const query = async (limit: number) => {
    const got = await retrieve.query({ question, limit });
    graph = got.graph;
    return got.result;
  };

  /**
   * Step 1 from the plan: its triples that are edges of this graph (in stored direction, by
   * their keys), up to the cap. A plan failure is not a run failure: the keyword query takes over.
   */
  const retrievePlanned = async (retrieve: PlanRetrieval, cap: number): Promise<{ taken: number; evidence: string }> => {
    let result: Awaited<ReturnType<PlanRetrieval>>;
    try {
      result = await retrieve({ question, graph, signal });
    } catch (e) {
      checkAbort("during the planned retrieval");
      return { taken: 0, evidence: `planned retrieval failed: ${errorText(e)}` };
    }
    const triples: Triple[] = [];
    const keys: string[] = [];
    for (const t of result.triples) {
      // Stored direction first; a tool may have reported an incoming edge the other way round.
      const edge =
        graph.outEdges(t.subject_id).find((e) => e.target === t.object_id && e.relation === t.relation) ??
        graph.outEdges(t.object_id).find((e) => e.target === t.subject_id && e.relation === t.relation);
      if (!edge) continue;
      triples.push(graph.toTriple(edge));
      keys.push(edge.key);
    }
    const taken = sub.take(triples, keys, cap);
    if (taken.triples.length === 0) return { taken: 0, evidence: `${result.evidence}: no triple of the graph` };
    const head = `${result.evidence}: ${taken.triples.length} of ${triples.length} plan triple${triples.length === 1 ? "" : "s"} (cap ${cap})`;
    return {
      taken: taken.triples.length,
      evidence: clip([head, ...taken.triples.map((t) => `EDGE ${t.subject} --${t.relation}--> ${t.object}`)].join("\n"), EVIDENCE_MAX_CHARS),
    };
  };

  let status: RunStatus = "running";
  try {
    for (let step = 1; step <= config.maxHops; step++) {
      checkAbort(`before step ${step}`);
      const cap = capAt(config, step);
      await emit({ type: "step_started", step, cap });

      const t0 = now();
      let method: StepRecord["retrieval"]["method"];
      let evidence: string;
      const planned = step === 1 && step1 === "graph_rft_plan" && planRetrieval ? await retrievePlanned(planRetrieval, cap) : null;
      if (planned && planned.taken > 0) {
        method = "graph_rft_plan";
        evidence = planned.evidence;
      } else if (step === 1) {
        method = "graphify_query";
        // Ask for more than the cap, more again while parallel duplicates leave it unfilled.
        let result = await query(cap * 2 + 5);
        while (result.triples.length >= cap * 2 + 5 && distinctCount(result.triples) < cap) {
          result = await query(result.triples.length * 4);
        }
        const taken = sub.take(result.triples, result.edgeKeys, cap);
        const text = formatQueryText(graph, { ...result, triples: taken.triples, edgeKeys: taken.keys }, EVIDENCE_BUDGET);
        evidence = text.trim()
          ? clip(text, EVIDENCE_MAX_CHARS)
          : `no node matched the question's terms (${result.terms.join(", ") || "none"})`;
        if (planned) evidence = `${planned.evidence}; keyword query used instead\n${evidence}`;
      } else {
        method = "k_hop_expansion";
        const entities = sub.entities();
        const added: Triple[] = [];
        // Each round excludes what the last one took or found duplicate, so it only stops when
        // the cap is reached or the neighbourhood has nothing new.
        while (sub.triples.length < cap && entities.length > 0) {
          const want = (cap - sub.triples.length) * 2 + 5;
          const got = await retrieve.expand({ entities, question, hops: config.incrementHop, cap: want, exclude: sub.excluded });
          graph = got.graph;
          const result = got.result;
          added.push(...sub.take(result.triples, result.edgeKeys, cap).triples);
          if (result.triples.length < want) break;
        }
        const names = entities.slice(0, 5).map((id) => graph.getNode(id)?.label ?? id);
        const head =
          `${config.incrementHop}-hop expansion from ${entities.length} entit${entities.length === 1 ? "y" : "ies"}` +
          (names.length ? ` (${names.join(", ")}${entities.length > names.length ? ", …" : ""})` : "") +
          `: ${added.length} new triple${added.length === 1 ? "" : "s"}, ${sub.triples.length} in the subgraph (cap ${cap})`;
        evidence = clip([head, ...added.map((t) => `EDGE ${t.subject} --${t.relation}--> ${t.object}`)].join("\n"), EVIDENCE_MAX_CHARS);
      }
      const retrievalMs = now() - t0;
      const triples = [...sub.triples];

      const judged = await call<JudgeParse>({
        task: "judge",
        step,
        messages: buildJudgePrompt({ question, triples }),
        context: { task: "judge", question, step, triples, graph },
        parse: parseJudge,
        where: `at step ${step}`,
      });
      const record: StepRecord = {
        step,
        query: question,
        numHops: (step - 1) * config.incrementHop,
        baseTopK: config.baseTopK,
        cap,
        retrieval: { method, evidence },
        triples,
        edgeKeys: [...sub.edgeKeys],
        answerable: judged.parsed.answerable,
        judgementRaw: judged.raw,
        timings: { retrievalMs, judgeMs: judged.ms },
      };
      trace.steps.push(record);
      await emit({ type: "step_finished", step: record });
      if (record.answerable) break;
    }

    const steps = trace.steps;
    const last = steps[steps.length - 1];
    if (!last || steps.length <= 1) {
      // The seed: one step (answerable at once) is an early exit with no refinement.
      trace.earlyExit = true;
      status = "early_exit";
    } else if (last.answerable && !config.refineAfterFinalYes) {
      status = "finished";
    } else {
      const history = steps.slice(-config.historyHorizon);
      const where = `after step ${last.step}`;
      const abducted = await call<AbductionParse>({
        task: "abduction",
        step: null,
        messages: buildAbductionPrompt({ history }),
        context: { task: "abduction", question, history, graph },
        parse: parseAbduction,
        where,
      });
      trace.abductionRaw = abducted.raw;
      trace.abduction = abducted.parsed.abduction;
      await emit({ type: "abduction", raw: abducted.raw, abduction: abducted.parsed.abduction });

      checkAbort("before loading the source text");
      let documents: CorpusDocument[];
      try {
        documents = await loadDocuments(last.triples);
      } catch (e) {
        throw new StopRun("failed", `loading the source text behind step ${last.step} failed: ${errorText(e)}`);
      }
      const originalText = buildOriginalText({ triples: last.triples, graph, documents });
      const refined = await call<RefinementParse>({
        task: "refinement",
        step: null,
        messages: buildRefinementPrompt({
          question,
          triples: last.triples,
          abduction: abducted.parsed.abduction,
          originalText,
          maxActions: config.maxActions,
        }),
        context: {
          task: "refinement",
          question,
          triples: last.triples,
          abduction: abducted.parsed.abduction,
          originalText,
          documents,
          graph,
          maxActions: config.maxActions,
        },
        parse: (raw) => parseRefinement(raw, { maxActions: config.maxActions }),
        where,
      });
      const actions: RefinementAction[] = refined.parsed.actions;
      trace.refinementRaw = refined.raw;
      trace.actions = actions;
      trace.actionWarnings = refined.parsed.warnings;
      await emit({ type: "refinement", raw: refined.raw, actions, warnings: refined.parsed.warnings });
      status = actions.length > 0 ? "awaiting_review" : "finished";
    }
  } catch (e) {
    if (!(e instanceof StopRun)) throw e;
    status = e.status;
    trace.error = e.message;
  }
  trace.status = status;
  await emit({ type: "finished", trace });
  return trace;
}
