/**
 * DeepRefine-Skill's files (reference.md §1.2): `loop_trace_<id>.json` and
 * `refinement_actions_<id>.txt`, written from a RunTrace and read back, plus `loop validate`.
 *
 * Validation implements the skill's rules and closes its weak spots: constants are checked
 * against Refinery's own config (a trace cannot vouch for itself), every triple is checked (not
 * the first three), every triple must be an edge of the graph in its stored direction when a
 * graph is given, and a loop that stopped on "No" before max_hops is an error.
 */
import { z } from "zod";
import { AppError } from "../errors";
import type { KnowledgeGraph } from "../graph/model";
import { normalizeLabel } from "../graph/normalize";
import { formatActions, parseAbduction, parseJudge, parseRefinement } from "./parse-output";
import type { LoopConfig, RunTrace, StepRecord } from "./types";
import { DEFAULT_LOOP_CONFIG } from "./types";

// ---------------------------------------------------------------------------------------------
// The file, as the skill writes it

export interface DeepRefineTripleJson {
  subject: string;
  relation: string;
  object: string;
  /** Refinery's additions: the graph ids, so the triple is unambiguous on re-validation. */
  subject_id?: string;
  object_id?: string;
}

export interface DeepRefineStepJson {
  step: number;
  num_hops: number;
  base_top_k: number;
  query: string;
  retrieval: { method: string; evidence: string };
  retrieved_subgraph: DeepRefineTripleJson[];
  answerable: boolean;
  judgement_raw: string;
}

export interface DeepRefineTraceJson {
  schema_version: 1;
  mode: "agent-loop";
  query: string;
  query_id: string;
  constants: {
    max_hops: number;
    increment_hop: number;
    base_top_k: number;
    max_triple_num_by_step: number[];
    history_horizon_size: number;
  };
  interaction_history: DeepRefineStepJson[];
  error_abduction_reason: string | null;
  error_abduction_raw: string | null;
  refinement_action_file: string | null;
  early_exit: boolean | null;
}

export function deepRefineFileNames(queryId: string): { trace: string; refinement: string } {
  return { trace: `loop_trace_${queryId}.json`, refinement: `refinement_actions_${queryId}.txt` };
}

/** The `refinement_actions_<id>.txt` content: the parsed actions in canonical, re-parseable form. */
export function refinementActionsText(trace: Pick<RunTrace, "actions">): string {
  return `${formatActions(trace.actions)}\n`;
}

const TERMINAL = new Set<RunTrace["status"]>(["early_exit", "awaiting_review", "finished"]);

/**
 * The skill's trace object for a run, keys in the skill's order. `refinementActionFile` is
 * recorded only when the run reached refinement; `early_exit` is null for a run that did not
 * finish (failed, interrupted), as in a skill trace still in progress.
 */
export function traceToDeepRefineJson(
  trace: RunTrace,
  { refinementActionFile }: { refinementActionFile: string | null },
): DeepRefineTraceJson {
  return {
    schema_version: 1,
    mode: "agent-loop",
    query: trace.question,
    query_id: trace.queryId,
    constants: {
      max_hops: trace.config.maxHops,
      increment_hop: trace.config.incrementHop,
      base_top_k: trace.config.baseTopK,
      max_triple_num_by_step: [...trace.config.maxTripleNumByStep],
      history_horizon_size: trace.config.historyHorizon,
    },
    interaction_history: trace.steps.map((s) => ({
      step: s.step,
      num_hops: s.numHops,
      base_top_k: s.baseTopK,
      query: s.query,
      retrieval: { method: s.retrieval.method, evidence: s.retrieval.evidence },
      retrieved_subgraph: s.triples.map((t) => ({
        subject: t.subject,
        relation: t.relation,
        object: t.object,
        subject_id: t.subject_id,
        object_id: t.object_id,
      })),
      answerable: s.answerable,
      judgement_raw: s.judgementRaw,
    })),
    error_abduction_reason: trace.abduction,
    error_abduction_raw: trace.abductionRaw,
    refinement_action_file: trace.refinementRaw !== null ? refinementActionFile : null,
    early_exit: TERMINAL.has(trace.status) ? trace.earlyExit : null,
  };
}

// ---------------------------------------------------------------------------------------------
// Reading a trace file

/**
 * Tolerant on purpose: skill files are written by an agent by hand, so absent keys and extra keys
 * are accepted here and reported by `validateTrace` with the skill's messages. Only what cannot
 * be read at all (not JSON, a field of the wrong type) is a parse error.
 */
const opt = <T extends z.ZodType>(schema: T) => schema.nullish();
const tripleSchema = z.looseObject({
  subject: opt(z.string()),
  relation: opt(z.string()),
  object: opt(z.string()),
  subject_id: opt(z.string()),
  object_id: opt(z.string()),
});
const stepSchema = z.looseObject({
  step: opt(z.number()),
  num_hops: opt(z.number()),
  base_top_k: opt(z.number()),
  query: opt(z.string()),
  retrieval: opt(z.looseObject({ method: opt(z.string()), evidence: opt(z.string()) })),
  retrieved_subgraph: opt(z.array(tripleSchema)),
  answerable: opt(z.boolean()),
  judgement_raw: opt(z.string()),
});
const traceSchema = z.looseObject({
  schema_version: z.unknown(),
  mode: z.unknown(),
  query: z.string(),
  query_id: opt(z.string()),
  constants: opt(
    z.looseObject({
      max_hops: opt(z.number()),
      increment_hop: opt(z.number()),
      base_top_k: opt(z.number()),
      max_triple_num_by_step: opt(z.array(z.number())),
      history_horizon_size: opt(z.number()),
    }),
  ),
  interaction_history: z.array(stepSchema),
  error_abduction_reason: opt(z.string()),
  error_abduction_raw: opt(z.string()),
  refinement_action_file: opt(z.string()),
  early_exit: opt(z.boolean()),
});

const STEP_KEYS = ["step", "num_hops", "base_top_k", "query", "retrieved_subgraph", "answerable", "judgement_raw", "retrieval"] as const;

export interface LoadedTriple {
  subject: string | null;
  relation: string | null;
  object: string | null;
  subject_id: string | null;
  object_id: string | null;
}

export interface LoadedStep {
  step: number | null;
  numHops: number | null;
  baseTopK: number | null;
  query: string | null;
  retrieval: { method: string | null; evidence: string | null } | null;
  triples: LoadedTriple[] | null;
  answerable: boolean | null;
  judgementRaw: string | null;
  /** Required keys the file lacks (the skill's "missing field" errors). */
  missing: string[];
}

/** A trace file read back: RunTrace's names, with null wherever the file has nothing. */
export interface LoadedTrace {
  source: string;
  schemaVersion: unknown;
  mode: unknown;
  question: string;
  queryId: string | null;
  constants: {
    maxHops: number | null;
    incrementHop: number | null;
    baseTopK: number | null;
    maxTripleNumByStep: number[] | null;
    historyHorizon: number | null;
  } | null;
  steps: LoadedStep[];
  earlyExit: boolean | null;
  abduction: string | null;
  abductionRaw: string | null;
  refinementActionFile: string | null;
}

/** A parsed JSON value (e.g. `traceToDeepRefineJson`'s output) → LoadedTrace; errors name the field. */
export function loadDeepRefineTrace(value: unknown, { source = "loop_trace.json" }: { source?: string } = {}): LoadedTrace {
  const result = traceSchema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue?.path.length ? `field "${issue.path.join(".")}"` : "the trace";
    throw new AppError("INVALID_INPUT", `${source}: ${where}: ${issue?.message ?? "invalid"}`, {
      source,
      path: issue?.path.map(String) ?? [],
    });
  }
  const d = result.data;
  const c = d.constants;
  return {
    source,
    schemaVersion: d.schema_version,
    mode: d.mode,
    question: d.query,
    queryId: d.query_id ?? null,
    constants: c
      ? {
          maxHops: c.max_hops ?? null,
          incrementHop: c.increment_hop ?? null,
          baseTopK: c.base_top_k ?? null,
          maxTripleNumByStep: c.max_triple_num_by_step ?? null,
          historyHorizon: c.history_horizon_size ?? null,
        }
      : null,
    steps: d.interaction_history.map((s) => ({
      step: s.step ?? null,
      numHops: s.num_hops ?? null,
      baseTopK: s.base_top_k ?? null,
      query: s.query ?? null,
      retrieval: s.retrieval ? { method: s.retrieval.method ?? null, evidence: s.retrieval.evidence ?? null } : null,
      triples:
        s.retrieved_subgraph?.map((t) => ({
          subject: t.subject ?? null,
          relation: t.relation ?? null,
          object: t.object ?? null,
          subject_id: t.subject_id ?? null,
          object_id: t.object_id ?? null,
        })) ?? null,
      answerable: s.answerable ?? null,
      judgementRaw: s.judgement_raw ?? null,
      missing: STEP_KEYS.filter((k) => s[k] === undefined || s[k] === null),
    })),
    earlyExit: d.early_exit ?? null,
    abduction: d.error_abduction_reason ?? null,
    abductionRaw: d.error_abduction_raw ?? null,
    refinementActionFile: d.refinement_action_file ?? null,
  };
}

/** `loop_trace_<id>.json` text → LoadedTrace. PARSE_ERROR for bad JSON, INVALID_INPUT naming the field otherwise. */
export function parseDeepRefineTrace(text: string, { source = "loop_trace.json" }: { source?: string } = {}): LoadedTrace {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (e) {
    throw new AppError("PARSE_ERROR", `${source}: invalid JSON (${(e as Error).message})`, { source });
  }
  return loadDeepRefineTrace(value, { source });
}

// ---------------------------------------------------------------------------------------------
// Validation

export interface ValidateTraceOptions {
  /** A run of ours, or a file read back. */
  trace: RunTrace | LoadedTrace;
  /** What the constants must be: Refinery's config, never the file's own. */
  config?: LoopConfig;
  /** When given, every triple must be an edge of this graph in its stored direction. */
  graph?: KnowledgeGraph;
  /** The refinement file's content, when it is at hand. */
  refinementText?: string;
}

export interface ValidateTraceResult {
  ok: boolean;
  errors: string[];
}

// graph_rft_plan: step 1 from an Ask plan's subgraph (Refinery's planned retrieval, issue #11).
const STEP1_METHODS = new Set(["graphify_query", "graph_rft_plan"]);
const LATER_METHODS = new Set(["k_hop_expansion", "graphify_query+k_hop_expansion", "graphify_query"]);

function isRunTrace(trace: RunTrace | LoadedTrace): trace is RunTrace {
  return "calls" in trace;
}

function show(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

function tripleText(t: LoadedTriple): string {
  return `(${t.subject ?? "?"}, ${t.relation ?? "?"}, ${t.object ?? "?"})`;
}

/** Node ids one side of a triple may mean: its id when recorded (label must agree), else exact label matches. */
function sideIds(graph: KnowledgeGraph, label: string, id: string | null, side: "subject" | "object"): string[] | string {
  if (id !== null) {
    const node = graph.getNode(id);
    if (!node) return `${side} id ${show(id)} is not a node of the graph`;
    if (node.label !== label) return `${side} ${show(label)} is not the label of node ${show(id)} (${show(node.label)})`;
    return [id];
  }
  const ids = [...graph.idsByNormLabel(normalizeLabel(label))].filter((n) => graph.getNode(n)?.label === label);
  return ids.length > 0 ? ids : `${side} ${show(label)} is not a node label of the graph`;
}

/** Null when the triple is an edge of the graph in the stored direction, else why not. */
function checkTripleInGraph(graph: KnowledgeGraph, t: LoadedTriple & { subject: string; relation: string; object: string }): string | null {
  const s = sideIds(graph, t.subject, t.subject_id, "subject");
  if (typeof s === "string") return s;
  const o = sideIds(graph, t.object, t.object_id, "object");
  if (typeof o === "string") return o;
  const has = (from: string[], to: string[]) => {
    const targets = new Set(to);
    return from.some((id) => graph.outEdges(id).some((e) => targets.has(e.target) && e.relation === t.relation));
  };
  if (has(s, o)) return null;
  if (has(o, s)) return `the graph stores this edge the other way round (${t.object} → ${t.subject})`;
  return `no "${t.relation}" edge from ${show(t.subject)} to ${show(t.object)} in the graph`;
}

function sameText(a: string, b: string): boolean {
  return a.replace(/\s+/g, " ").trim() === b.replace(/\s+/g, " ").trim();
}

/**
 * `deeprefine loop validate`, stricter. Rules: schema_version 1 and mode "agent-loop"; the
 * constants equal `config`; 1..max_hops steps, each with every key, its number, num_hops and
 * base_top_k, the trace's query, a non-empty retrieval method (valid for its position) and
 * evidence, 1..cap+2 well-formed distinct triples (all of them, and each in the graph when one
 * is given), and a <judge> tag that agrees with `answerable`; Yes only on the last step; a
 * run that ends on No used every hop; one step is the early path with no abduction or
 * refinement; more steps need both (unless the last said Yes and `refineAfterFinalYes` is off,
 * when they need neither).
 */
export function validateTrace({
  trace: input,
  config = DEFAULT_LOOP_CONFIG,
  graph,
  refinementText,
}: ValidateTraceOptions): ValidateTraceResult {
  const trace = isRunTrace(input)
    ? loadDeepRefineTrace(
        traceToDeepRefineJson(input, { refinementActionFile: deepRefineFileNames(input.queryId).refinement }),
        { source: `run ${input.queryId}` },
      )
    : input;
  const errors: string[] = [];
  if (trace.schemaVersion !== 1) errors.push(`schema_version must be 1 (found ${show(trace.schemaVersion)})`);
  if (trace.mode !== "agent-loop") errors.push(`mode must be "agent-loop" (found ${show(trace.mode)})`);
  const question = trace.question.trim();
  if (!question) errors.push("missing query");

  const expected = {
    max_hops: config.maxHops,
    increment_hop: config.incrementHop,
    base_top_k: config.baseTopK,
    max_triple_num_by_step: config.maxTripleNumByStep,
    history_horizon_size: config.historyHorizon,
  };
  if (!trace.constants) {
    errors.push("constants missing");
  } else {
    const found = {
      max_hops: trace.constants.maxHops,
      increment_hop: trace.constants.incrementHop,
      base_top_k: trace.constants.baseTopK,
      max_triple_num_by_step: trace.constants.maxTripleNumByStep,
      history_horizon_size: trace.constants.historyHorizon,
    };
    for (const key of Object.keys(expected) as (keyof typeof expected)[]) {
      if (found[key] === null) errors.push(`constants.${key} missing`);
      else if (show(found[key]) !== show(expected[key])) {
        errors.push(`constants.${key} is ${show(found[key])} but Refinery's config has ${show(expected[key])}`);
      }
    }
  }

  const steps = trace.steps;
  if (steps.length === 0) {
    errors.push("interaction_history is empty: run hops 1..N first");
    return { ok: false, errors };
  }
  if (steps.length > config.maxHops) errors.push(`interaction_history has ${steps.length} steps; max_hops is ${config.maxHops}`);

  steps.forEach((s, idx) => {
    const n = idx + 1;
    const at = `step ${n}`;
    for (const key of s.missing) errors.push(`${at}: missing field "${key}"`);
    if (s.step !== null && s.step !== n) errors.push(`${at}: "step" is ${s.step}, expected ${n}`);
    const hops = (n - 1) * config.incrementHop;
    if (s.numHops !== null && s.numHops !== hops) errors.push(`${at}: num_hops is ${s.numHops}, expected ${hops}`);
    if (s.baseTopK !== null && s.baseTopK !== config.baseTopK) errors.push(`${at}: base_top_k is ${s.baseTopK}, expected ${config.baseTopK}`);
    if (s.query !== null && question && s.query.trim() !== question) errors.push(`${at}: query differs from the trace's query`);

    const method = s.retrieval?.method?.trim() ?? "";
    if (!method) errors.push(`${at}: retrieval.method required`);
    else if (!(n === 1 ? STEP1_METHODS : LATER_METHODS).has(method)) {
      errors.push(`${at}: retrieval.method ${show(method)} must be one of ${[...(n === 1 ? STEP1_METHODS : LATER_METHODS)].join(", ")}`);
    }
    if (!s.retrieval?.evidence?.trim()) errors.push(`${at}: retrieval.evidence required`);

    const cap = config.maxTripleNumByStep[idx] ?? config.maxTripleNumByStep[config.maxTripleNumByStep.length - 1] ?? config.baseTopK;
    const triples = s.triples ?? [];
    if (triples.length === 0) errors.push(`${at}: retrieved_subgraph must be a non-empty list`);
    // The skill's slack of 2 over the cap, for hand-written agent traces.
    else if (triples.length > cap + 2) errors.push(`${at}: ${triples.length} triples exceed the cap of ${cap} (max_triple_num_by_step)`);
    const seen = new Set<string>();
    triples.forEach((t, j) => {
      const label = `${at}: triple ${j + 1} ${tripleText(t)}`;
      if (!t.subject || !t.relation || !t.object) {
        errors.push(`${label}: needs a non-empty subject, relation and object`);
        return;
      }
      const key = JSON.stringify([t.subject_id ?? t.subject, t.relation, t.object_id ?? t.object]);
      if (seen.has(key)) errors.push(`${label}: duplicate triple`);
      seen.add(key);
      if (graph) {
        const problem = checkTripleInGraph(graph, { ...t, subject: t.subject, relation: t.relation, object: t.object });
        if (problem) errors.push(`${label}: ${problem}`);
      }
    });

    if (s.judgementRaw !== null) {
      const judged = parseJudge(s.judgementRaw);
      if (!judged.ok) errors.push(`${at}: judgement_raw must contain <judge>Yes</judge> or <judge>No</judge> (${judged.error})`);
      else if (s.answerable !== null && judged.answerable !== s.answerable) {
        errors.push(`${at}: answerable=${s.answerable} disagrees with the <judge> tag`);
      }
    }
    if (s.answerable === true && idx < steps.length - 1) errors.push(`${at}: answerable=true but the loop continued; it must stop at the first Yes`);
  });

  const last = steps[steps.length - 1] as LoadedStep;
  if (last.answerable === false && steps.length < config.maxHops) {
    errors.push(`the loop stopped at step ${steps.length} on No before max_hops (${config.maxHops})`);
  }
  const hasAbduction = Boolean(trace.abductionRaw?.trim() || trace.abduction?.trim());
  const hasRefinement = Boolean(trace.refinementActionFile || refinementText !== undefined);
  const early = steps.length <= 1;
  if (trace.earlyExit !== null && trace.earlyExit !== early) errors.push(`early_exit=${trace.earlyExit} but ${steps.length} step(s) give ${early}`);
  const skipRefinement = !early && last.answerable === true && !config.refineAfterFinalYes;
  if (early || skipRefinement) {
    const why = early ? "early_exit" : "last step said Yes and refineAfterFinalYes is off";
    if (early && last.answerable !== true) errors.push("early_exit: the single step must end with answerable=true");
    if (hasAbduction) errors.push(`${why}: must not run error abduction`);
    if (hasRefinement) errors.push(`${why}: must not propose refinement actions`);
  } else {
    const abduction = parseAbduction(trace.abductionRaw ?? "");
    if (!abduction.ok) errors.push(`missing error_abduction_raw with <abduction>...</abduction> (${abduction.error})`);
    if (!trace.abduction?.trim()) errors.push("missing error_abduction_reason (the text inside <abduction>)");
    else if (abduction.ok && !sameText(abduction.abduction, trace.abduction)) {
      errors.push("error_abduction_reason differs from the text inside <abduction> of error_abduction_raw");
    }
    if (!hasRefinement) errors.push("missing refinement_action_file (or refinement text)");
    if (refinementText !== undefined) {
      const parsed = parseRefinement(refinementText, { maxActions: config.maxActions });
      if (!parsed.ok) errors.push(`refinement text: ${parsed.error}`);
    }
  }
  return { ok: errors.length === 0, errors };
}

/**
 * A validated skill trace (and its refinement file) as one of our RunTraces, so it can be stored
 * and reviewed like a run made here. Call `validateTrace` first: this fills gaps with defaults.
 */
export function runTraceFromLoaded(loaded: LoadedTrace, { config, refinementText }: { config: LoopConfig; refinementText?: string }): RunTrace {
  const steps: StepRecord[] = loaded.steps.map((s, i) => ({
    step: s.step ?? i + 1,
    query: s.query ?? loaded.question,
    numHops: s.numHops ?? i * config.incrementHop,
    baseTopK: s.baseTopK ?? config.baseTopK,
    cap: config.maxTripleNumByStep[i] ?? config.maxTripleNumByStep[config.maxTripleNumByStep.length - 1] ?? 0,
    retrieval: {
      method: (s.retrieval?.method ?? (i === 0 ? "graphify_query" : "k_hop_expansion")) as StepRecord["retrieval"]["method"],
      evidence: s.retrieval?.evidence ?? "",
    },
    triples: (s.triples ?? []).map((t) => ({
      subject: t.subject ?? "",
      relation: t.relation ?? "",
      object: t.object ?? "",
      subject_id: t.subject_id ?? t.subject ?? "",
      object_id: t.object_id ?? t.object ?? "",
    })),
    edgeKeys: [],
    answerable: s.answerable ?? false,
    judgementRaw: s.judgementRaw ?? "",
    timings: { retrievalMs: 0, judgeMs: 0 },
  }));
  const parsed = refinementText === undefined ? null : parseRefinement(refinementText, { maxActions: config.maxActions });
  return {
    question: loaded.question,
    queryId: loaded.queryId ?? "",
    provider: { name: "replay", model: `imported from ${loaded.source}`, isLlm: true },
    config,
    steps,
    earlyExit: loaded.earlyExit ?? steps.length <= 1,
    abductionRaw: loaded.abductionRaw,
    abduction: loaded.abduction,
    refinementRaw: refinementText ?? null,
    actions: parsed?.ok ? parsed.actions : [],
    actionWarnings: parsed ? (parsed.ok ? parsed.warnings : [parsed.error]) : [],
    status: "finished",
    error: null,
    calls: [],
  };
}
