/**
 * Ask the graph (Graph-RFT, seed 002): one question → one `AskTrace`.
 *
 * CONTRACT (H6's storage / API / page / CLI build on it; extend additively):
 *   runAsk(options: RunAskOptions) → Promise<AskTrace>      never throws for model or tool trouble:
 *     a broken run is `status: "failed"` with `error: { step, message }`; it throws only for bad
 *     input (AppError INVALID_INPUT: empty question) and for the caller's abort.
 *   provider: an `AskModel` (any lib/loop `LlmProvider` fits). `isLlm: false` or omitted → the
 *     heuristic planner (no model; its trace says so: `isLlm: false`, provider "heuristic").
 *   documents: the graph's corpus (passages, source files); web_search searches it first through
 *     a MiniSearch index built once per graph and document list (cached).
 *   webSearch: an optional real web search, asked only when the corpus has nothing.
 *   toolBudget (default 12): tool calls allowed; corpusFallback (default true): whether
 *     web_search may run at all; formatRetries (default 1): corrective retries per model turn.
 *   now: a clock in ms (default performance.now) for the timings.
 */
import { AppError } from "../errors";
import type { KnowledgeGraph } from "../graph/model";
import { normalizeLabel } from "../graph/normalize";
import { resolveName } from "../graph/resolve-name";
import type { CorpusDocument } from "../import/corpus";
import type { ChatMessage } from "../loop/types";
import { HEURISTIC_MODEL } from "../providers/heuristic";
import { buildAskCorrection, buildAskPrompt } from "./build-ask-prompt";
import { combineAnswerSets } from "./combine-answer-sets";
import { type AskToolbox, createAskToolbox, TOOL_TAGS } from "./create-ask-toolbox";
import { extractPassageAnswers } from "./extract-passage-answers";
import { type AskAction, type AskTurnParse, parseAskTurn } from "./parse-ask-output";
import { planHeuristicAsk } from "./plan-heuristic-ask";
import { findGraphRelation, resolveAskHead, splitToolArguments } from "./resolve-ask-head";
import type { AskAnswer, AskEntity, AskModel, AskToolCall, AskTrace, PlanStep, WebSearch } from "./types";

export interface RunAskOptions {
  graph: KnowledgeGraph;
  question: string;
  provider?: AskModel;
  documents?: readonly CorpusDocument[];
  webSearch?: WebSearch;
  toolBudget?: number;
  corpusFallback?: boolean;
  formatRetries?: number;
  /** Stored in the trace as `graph` / `version`. */
  graphName?: string;
  graphVersion?: number;
  now?: () => number;
  signal?: AbortSignal;
}

export const DEFAULT_TOOL_BUDGET = 12;
export const DEFAULT_FORMAT_RETRIES = 1;

const MAX_ANSWERS = 50;
const NO_ANSWER = /^(none|unknown|no answer|n\/a|not found|nothing|i don't know|cannot be determined)\.?$/i;

/** Facts the executor collects while a run goes. */
interface RunState {
  think: string;
  planText: string;
  plan: PlanStep[];
  transcript: AskTrace["transcript"];
  modelMs: number;
  turns: number;
}

export async function runAsk(options: RunAskOptions): Promise<AskTrace> {
  const question = options.question.trim();
  if (!question) throw new AppError("INVALID_INPUT", "the question is empty");
  const now = options.now ?? (() => performance.now());
  const started = now();
  const toolBudget = Math.max(1, Math.floor(options.toolBudget ?? DEFAULT_TOOL_BUDGET));
  const formatRetries = Math.max(0, Math.floor(options.formatRetries ?? DEFAULT_FORMAT_RETRIES));
  const corpusFallback = options.corpusFallback ?? true;
  const toolbox = createAskToolbox({
    graph: options.graph,
    corpusFallback,
    toolBudget,
    now,
    ...(options.documents ? { documents: options.documents } : {}),
    ...(options.webSearch ? { webSearch: options.webSearch } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const state: RunState = { think: "", planText: "", plan: [], transcript: [], modelMs: 0, turns: 0 };
  const provider = options.provider;
  const isLlm = provider?.isLlm === true;
  const outcome = isLlm && provider ? await runWithModel(options, provider, toolbox, state, formatRetries, toolBudget, now) : await runHeuristic(options, toolbox, state, now);

  const trace: AskTrace = {
    question,
    graph: options.graphName ?? "",
    version: options.graphVersion ?? 0,
    provider: isLlm && provider ? provider.name : "heuristic",
    model: isLlm && provider ? provider.model : (provider?.model ?? HEURISTIC_MODEL),
    status: outcome.error ? "failed" : outcome.answers.length > 0 ? "answered" : "no_answer",
    answers: outcome.answers.slice(0, MAX_ANSWERS),
    answerText: outcome.answerText,
    think: state.think,
    planText: state.planText,
    plan: state.plan,
    stepAnswers: toolbox.stepAnswers,
    calls: toolbox.calls,
    subgraph: toolbox.subgraph,
    transcript: state.transcript,
    error: outcome.error ?? null,
    timings: { totalMs: round(now() - started), modelMs: round(state.modelMs), toolMs: round(toolbox.toolMs()) },
    options: { corpusFallback, toolBudget, formatRetries },
    isLlm,
    turns: state.turns,
  };
  return trace;
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}

interface Outcome {
  answers: AskAnswer[];
  answerText: string;
  error?: { step: string; message: string };
}

// ---------------------------------------------------------------------------------------------
// The model speaks the protocol

async function runWithModel(
  options: RunAskOptions,
  provider: AskModel,
  toolbox: AskToolbox,
  state: RunState,
  formatRetries: number,
  toolBudget: number,
  now: () => number,
): Promise<Outcome> {
  const messages: ChatMessage[] = buildAskPrompt({ question: options.question });
  state.transcript.push(...messages);
  let budgetWarned = false;
  for (let turn = 1; ; turn++) {
    let parsed: AskTurnParse | null = null;
    let raw = "";
    for (let attempt = 0; attempt <= formatRetries; attempt++) {
      options.signal?.throwIfAborted();
      const t0 = now();
      try {
        const result = await provider.complete({ task: "ask", messages: [...messages], ...(options.signal ? { signal: options.signal } : {}) });
        raw = result.text;
      } catch (error) {
        if (options.signal?.aborted) throw error;
        state.modelMs += now() - t0;
        return { answers: [], answerText: "", error: { step: `turn ${turn}`, message: `the model call failed: ${error instanceof Error ? error.message : String(error)}` } };
      }
      state.modelMs += now() - t0;
      state.turns++;
      state.transcript.push({ role: "assistant", content: raw });
      parsed = parseAskTurn(raw, { needPlan: state.plan.length === 0 });
      if (parsed.ok) break;
      messages.push({ role: "assistant", content: raw });
      if (attempt < formatRetries) {
        const correction = buildAskCorrection({ problem: parsed.error });
        messages.push({ role: "user", content: correction });
        state.transcript.push({ role: "user", content: correction });
      }
    }
    if (!parsed?.ok) return { answers: [], answerText: "", error: { step: `turn ${turn}`, message: `unusable model output after ${formatRetries + 1} attempt(s): ${parsed?.error ?? "no output"}` } };
    const { turn: t } = parsed;
    if (t.think && !state.think) state.think = t.think;
    if (t.planText !== null && state.plan.length === 0) {
      state.planText = t.planText;
      state.plan = t.plan;
    }
    // The model's words up to its action only: what it wrote after (an invented result) is dropped.
    messages.push({ role: "assistant", content: raw.slice(0, t.actionEnd) });

    if (t.action.kind === "answer") {
      applyLogicSteps(state.plan, toolbox);
      return answersFromModel(options.graph, t.action.text, t.action.items, toolbox);
    }
    if (toolbox.budgetLeft() <= 0) {
      if (budgetWarned) return { answers: [], answerText: "", error: { step: `turn ${turn}`, message: `the tool budget of ${toolBudget} calls is used up and the model still did not answer` } };
      budgetWarned = true;
      const warning = `The tool budget (${toolBudget} calls) is used up: give your final <answer> now from what you have found.`;
      messages.push({ role: "user", content: warning });
      state.transcript.push({ role: "user", content: warning });
      continue;
    }
    const call = await runAction(options.graph, t.action, state.plan, toolbox);
    const tag = TOOL_TAGS[call.tool];
    const content = `<${tag}>\n${call.output}\n</${tag}>`;
    messages.push({ role: "user", content });
    state.transcript.push({ role: "tool", content });
  }
}

async function runAction(graph: KnowledgeGraph, action: Exclude<AskAction, { kind: "answer" }>, plan: readonly PlanStep[], toolbox: AskToolbox): Promise<AskToolCall> {
  if (action.kind === "web_search") return toolbox.webSearch({ query: action.query, planStep: null });
  const split = splitToolArguments({ graph, argsText: action.argsText, stepAnswers: toolbox.stepAnswers }) ?? { head: action.head, relation: action.relation };
  const planStep = matchPlanStep({ graph, plan, head: split.head, relation: split.relation, toolbox, forNeighbors: action.kind === "neighbor_search" });
  const args = { argsText: action.argsText, head: split.head, relation: split.relation, planStep };
  return action.kind === "relation_search" ? toolbox.relationSearch(args) : toolbox.neighborSearch(args);
}

/**
 * The plan step a tool call serves: a SearchKG step whose head is the call's head (the same
 * `Ans_j`, the same node, or a member of the `Ans_j` it searches from: models often call once
 * per member). Unanswered steps first, then the one whose relation the call names.
 */
function matchPlanStep({
  graph,
  plan,
  head,
  relation,
  toolbox,
  forNeighbors,
}: {
  graph: KnowledgeGraph;
  plan: readonly PlanStep[];
  head: string;
  relation: string;
  toolbox: AskToolbox;
  forNeighbors: boolean;
}): string | null {
  const resolved = resolveAskHead({ graph, head, stepAnswers: toolbox.stepAnswers });
  const ids = new Set(resolved.ok ? resolved.entities.map((e) => e.id) : []);
  const ref = resolved.ok ? resolved.ref : null;
  const wanted = findGraphRelation({ graph, name: relation });
  const matches = plan.filter((s): s is Extract<PlanStep, { op: "search" }> => {
    if (s.op !== "search") return false;
    if ("ref" in s.head) {
      if (ref !== null) return s.head.ref === ref;
      const members = toolbox.stepAnswers[s.head.ref] ?? [];
      return members.some((m) => ids.has(m.id));
    }
    const r = resolveAskHead({ graph, head: s.head.entity, stepAnswers: toolbox.stepAnswers });
    return r.ok && r.entities.some((e) => ids.has(e.id));
  });
  const score = (s: Extract<PlanStep, { op: "search" }>) =>
    (forNeighbors && toolbox.stepAnswers[s.id] === undefined ? 2 : 0) + (wanted !== null && findGraphRelation({ graph, name: s.relation }) === wanted ? 1 : 0);
  const best = [...matches].sort((a, b) => score(b) - score(a))[0];
  return best?.id ?? null;
}

/** Intersect / Union / Negation steps, in plan order, once their inputs are answered. */
function applyLogicSteps(plan: readonly PlanStep[], toolbox: AskToolbox): void {
  for (const step of plan) {
    if (step.op === "search") continue;
    const combined = combineAnswerSets({ step, stepAnswers: toolbox.stepAnswers });
    if (combined.ok) toolbox.stepAnswers[step.id] = combined.entities;
  }
}

/** The model's <answer> items as graph nodes where they name one; evidence from the run. */
function answersFromModel(graph: KnowledgeGraph, text: string, items: readonly string[], toolbox: AskToolbox): Outcome {
  // Found by the graph: in a step's answer set or returned by any neighbour search of the run.
  const inSteps = new Set<string>();
  for (const set of Object.values(toolbox.stepAnswers)) for (const e of set) if (e.id) inSteps.add(e.id);
  for (const c of toolbox.calls) for (const e of c.entities ?? []) inSteps.add(e.id);
  const passages = toolbox.calls.flatMap((c) => c.passages ?? []);
  const out: AskAnswer[] = [];
  const seen = new Set<string>();
  const push = (label: string, id: string | null) => {
    const key = id ?? `text:${normalizeLabel(label)}`;
    if (seen.has(key)) return;
    seen.add(key);
    const score = Math.round((1 / (out.length + 1)) * 1000) / 1000;
    const triples = id ? toolbox.evidence.get(id) : undefined;
    const norm = normalizeLabel(label);
    const passage = passages.find((p) => normalizeLabel(p.quote).includes(norm));
    if (id && inSteps.has(id) && triples?.length) out.push({ label, id, score, via: "graph", evidence: { triples } });
    else if (passage) out.push({ label, id, score, via: "corpus", evidence: { passage: { docId: passage.docId, quote: passage.quote } } });
    else out.push({ label, id, score, via: "model" });
  };
  for (const item of items) {
    if (NO_ANSWER.test(item)) continue;
    const node = answerNode(graph, item);
    if (node) {
      push(node.label, node.id);
      continue;
    }
    // "A, B, C" with no name among them: a list written with commas.
    const parts = item.split(",").map((p) => p.trim()).filter(Boolean);
    const nodes = parts.length > 1 ? parts.map((p) => answerNode(graph, p)) : [];
    if (nodes.length > 1 && nodes.every((n) => n !== null)) for (const n of nodes) push(n.label, n.id);
    else push(item, null);
  }
  return { answers: out, answerText: text };
}

function answerNode(graph: KnowledgeGraph, name: string): { id: string; label: string } | null {
  const r = resolveName({ graph, name, limit: 0 });
  const top = r.status === "exact" ? r.best : r.status === "ambiguous" ? r.candidates[0] : undefined;
  return top ? { id: top.id, label: top.label } : null;
}

// ---------------------------------------------------------------------------------------------
// The heuristic planner: the same protocol, written by rules

const HEURISTIC_TAG = "[heuristic planner: rule-based, not an LLM]";

async function runHeuristic(options: RunAskOptions, toolbox: AskToolbox, state: RunState, now: () => number): Promise<Outcome> {
  const { graph } = options;
  const question = options.question.trim();
  options.signal?.throwIfAborted();
  const t0 = now();
  const plan = planHeuristicAsk({ graph, question });
  state.modelMs += now() - t0;
  state.think = `${HEURISTIC_TAG} ${plan.reason}`;
  state.plan = plan.steps;
  state.planText = plan.steps.map(formatPlanStep).join("\n");
  state.transcript.push(...buildAskPrompt({ question }));
  let pending = `<think>${state.think}</think>\n<plan>\n${state.planText}\n</plan>\n`;
  const say = (action: string) => {
    state.turns++;
    state.transcript.push({ role: "assistant", content: pending + action });
    pending = "";
  };
  const show = (call: AskToolCall) => {
    const tag = TOOL_TAGS[call.tool];
    state.transcript.push({ role: "tool", content: `<${tag}>\n${call.output}\n</${tag}>` });
  };

  let finalSet: AskEntity[] = [];
  let failedAt: string | null = null;
  for (const step of plan.steps) {
    if (toolbox.budgetLeft() < 2) {
      failedAt = step.id;
      break;
    }
    const head = "ref" in step.head ? step.head.ref : step.head.entity;
    say(`<relation_search> ${head}, ${plan.stepWords[step.id] ?? step.relation} </relation_search>`);
    show(toolbox.relationSearch({ head, relation: plan.stepWords[step.id] ?? step.relation, planStep: step.id }));
    say(`<neighbor_search> ${head}, ${step.relation} </neighbor_search>`);
    const call = toolbox.neighborSearch({ head, relation: step.relation, planStep: step.id });
    show(call);
    finalSet = toolbox.stepAnswers[step.id] ?? [];
    if (finalSet.length === 0) {
      failedAt = step.id;
      break;
    }
  }
  const exclude = new Set(plan.questionNodeIds);
  const fromGraph = failedAt === null ? finalSet.filter((e) => e.id === null || !exclude.has(e.id)) : [];
  if (fromGraph.length > 0) {
    const answers = fromGraph.map((e, i): AskAnswer => {
      const triples = e.id ? toolbox.evidence.get(e.id) : undefined;
      return { label: e.label, id: e.id, score: Math.round((1 / (i + 1)) * 1000) / 1000, via: "graph", ...(triples ? { evidence: { triples } } : {}) };
    });
    const answerText = listText(answers);
    say(`<answer>${answerText}</answer>`);
    return { answers, answerText };
  }

  // No fitting neighbour in the graph: the corpus, when this ask may use it.
  if (options.corpusFallback !== false && toolbox.budgetLeft() > 0 && (options.documents?.length || options.webSearch)) {
    say(`<web_search> ${question} </web_search>`);
    const call = await toolbox.webSearch({ query: question, planStep: failedAt });
    show(call);
    const found = extractPassageAnswers({ graph, question, passages: call.passages ?? [], exclude });
    if (found.length > 0) {
      const answers = found.map((a): AskAnswer => ({ label: a.label, id: a.id, score: a.score, via: "corpus", evidence: { passage: a.passage } }));
      const answerText = listText(answers);
      say(`<answer>${answerText}</answer>`);
      return { answers, answerText };
    }
  }
  const answerText = plan.steps.length === 0 ? `No answer: ${plan.reason}` : `No answer: the graph has no neighbor for ${failedAt ?? "the plan"} and no passage states it.`;
  say(`<answer>none</answer>`);
  return { answers: [], answerText };
}

function listText(answers: readonly AskAnswer[]): string {
  const shown = answers.slice(0, 10).map((a) => a.label);
  return shown.join("; ") + (answers.length > shown.length ? `; … ${answers.length - shown.length} more` : "");
}

/** A plan step as the protocol writes it. */
export function formatPlanStep(step: PlanStep): string {
  if (step.op === "search") {
    const head = "ref" in step.head ? step.head.ref : step.head.entity;
    return `${step.id} = SearchKG(t=${step.targetType} | h=${head}, r=${step.relation})`;
  }
  if (step.op === "negation") return `${step.id} = Negation(${[step.main, ...step.args].join(", ")})`;
  return `${step.id} = ${step.op === "intersect" ? "Intersect" : "Union"}(${step.args.join(", ")})`;
}
