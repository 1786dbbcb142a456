/**
 * Parsers for a Graph-RFT model turn (seed 002). Model output is untrusted: every parser returns
 * a result or a typed error, never throws, never casts.
 *
 * Strict about tags, forgiving about whitespace and case inside them: `<plan>`, `< /plan >`,
 * `<PLAN>` are the same tag; `<relation_informations>` is not a tool call. Only the FIRST action
 * of a turn counts (a tool call or `<answer>`): models often go on to invent the tool's result
 * and an answer, which must not be trusted. A tool tag left open at the very end of the output
 * (a reply cut at a stop sequence) is accepted; open anywhere else it is an error.
 *
 * Names keep their commas: `h, r` is returned as written (`argsText`) with a split at the LAST
 * comma; the executor re-splits against the graph where the relation part is not a relation.
 */
import type { PlanHead, PlanStep } from "./types";

export type AskAction =
  | { kind: "relation_search" | "neighbor_search"; argsText: string; head: string; relation: string }
  | { kind: "web_search"; query: string }
  | { kind: "answer"; text: string; items: string[] };

export interface AskTurn {
  think: string | null;
  /** Null when the turn has no <plan>. */
  planText: string | null;
  plan: PlanStep[];
  action: AskAction;
  /** Where the action's closing tag ends in the raw output: what follows is not the model's to say. */
  actionEnd: number;
}

export type AskTurnParse = { ok: true; turn: AskTurn } | { ok: false; error: string };
export type PlanParse = { ok: true; plan: PlanStep[] } | { ok: false; error: string };

const TOOLS = ["relation_search", "neighbor_search", "web_search", "answer"] as const;
type ActionTag = (typeof TOOLS)[number];

function openRe(tag: string, flags = "i"): RegExp {
  return new RegExp(`<\\s*${tag}\\s*>`, flags);
}
function closeRe(tag: string, flags = "i"): RegExp {
  return new RegExp(`<\\s*/\\s*${tag}\\s*>`, flags);
}

/** First `<tag>…</tag>` block: its inner text and where it starts; null when absent. */
function firstBlock(raw: string, tag: string): { inner: string; start: number; end: number; closed: boolean } | null {
  const open = openRe(tag).exec(raw);
  if (!open) return null;
  const from = open.index + open[0].length;
  const close = closeRe(tag).exec(raw.slice(from));
  if (!close) return { inner: raw.slice(from), start: open.index, end: raw.length, closed: false };
  return { inner: raw.slice(from, from + close.index), start: open.index, end: from + close.index + close[0].length, closed: true };
}

function preview(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** `h, r` split at the last comma (entity names keep theirs); null without a comma. */
export function splitHeadRelation(text: string): { head: string; relation: string } | null {
  const flat = text.replace(/\s+/g, " ").trim().replace(/,\s*$/, "");
  const i = flat.lastIndexOf(",");
  if (i < 0) return null;
  const head = flat.slice(0, i).trim();
  const relation = flat.slice(i + 1).trim();
  if (!head || !relation) return null;
  return { head: stripQuotes(head), relation: stripQuotes(relation) };
}

function stripQuotes(text: string): string {
  const m = /^(["'“‘`])(.*)(["'”’`])$/.exec(text);
  return m ? (m[2] ?? "").trim() : text;
}

const REF = /^ans[_\s-]?(\d+)$/i;

/** `Ans1`, `ans_1`, `Ans 1` → "Ans1"; null for anything else. */
export function parseStepRef(text: string): string | null {
  const m = REF.exec(text.trim());
  return m ? `Ans${Number(m[1])}` : null;
}

/** Items of an <answer>: separated by `;`, `|` or lines; commas stay (names have them). */
export function splitAnswerItems(text: string): string[] {
  return text
    .split(/[;\n|]+/)
    .map((s) => s.replace(/^\s*(?:[-*•]|\d+[.)])\s+/, "").trim().replace(/\.$/, ""))
    .map(stripQuotes)
    .filter((s) => s !== "");
}

/** The action of a turn: the first tool tag or <answer> by position. */
function firstAction(raw: string): { ok: true; action: AskAction; end: number } | { ok: false; error: string } | null {
  let best: { tag: ActionTag; block: NonNullable<ReturnType<typeof firstBlock>> } | null = null;
  for (const tag of TOOLS) {
    const block = firstBlock(raw, tag);
    if (block && (!best || block.start < best.block.start)) best = { tag, block };
  }
  if (!best) return null;
  const { tag, block } = best;
  if (!block.closed) {
    const rest = block.inner;
    // Open to the end is a reply cut at a stop sequence; anything tag-like after it is not.
    if (tag === "answer" || /<\s*\/?\s*[a-z_]+\s*>/i.test(rest)) return { ok: false, error: `<${tag}> is not closed with </${tag}>` };
  }
  const inner = block.inner.trim();
  if (tag === "answer") {
    if (!inner) return { ok: false, error: "the <answer> is empty" };
    return { ok: true, action: { kind: "answer", text: inner, items: splitAnswerItems(inner) }, end: block.end };
  }
  if (tag === "web_search") {
    const query = inner.replace(/^,\s*|\s*,$/g, "").trim();
    if (!query) return { ok: false, error: "the <web_search> query is empty" };
    return { ok: true, action: { kind: "web_search", query }, end: block.end };
  }
  const split = splitHeadRelation(inner);
  if (!split) return { ok: false, error: `<${tag}> needs "h, r" (an entity or Ans_i, a comma, a relation), got "${preview(inner, 60)}"` };
  return { ok: true, action: { kind: tag, argsText: inner, ...split }, end: block.end };
}

/** One plan line: `Ans1 = SearchKG(t=film | h=Cradle of Fear, r=starred actors)`, `Ans3 = Intersect(Ans1, Ans2)`. */
function parsePlanLine(line: string, defined: ReadonlySet<string>): { ok: true; step: PlanStep } | { ok: false; error: string } {
  const text = line.replace(/^\s*(?:[-*•]|\d+[.)]|step\s*\d+\s*[:.])\s*/i, "").trim();
  const m = /^(ans[_\s-]?\d+)\s*(?:=|:|-)\s*([a-z_-]+)\s*\(([\s\S]*)\)\s*[.;]?$/i.exec(text);
  if (!m) return { ok: false, error: `"${preview(text, 60)}" is not "Ans_i = Function(…)"` };
  const id = parseStepRef(m[1] ?? "");
  if (!id) return { ok: false, error: `bad step name "${m[1] ?? ""}"` };
  if (defined.has(id)) return { ok: false, error: `${id} is defined twice` };
  const fn = (m[2] ?? "").toLowerCase().replace(/^ans-?/, "").replace(/[_-]/g, "");
  const body = (m[3] ?? "").trim();
  if (fn === "searchkg") {
    const bar = body.indexOf("|");
    const target = bar < 0 ? "" : body.slice(0, bar).trim();
    const rest = bar < 0 ? body : body.slice(bar + 1);
    const targetType = target.replace(/^t\s*=\s*/i, "").trim();
    const rAt = [...rest.matchAll(/,\s*r\s*=/gi)].pop();
    if (!rAt) return { ok: false, error: `${id}: SearchKG needs "h=…, r=…"` };
    const headText = rest.slice(0, rAt.index).trim().replace(/^h\s*=\s*/i, "").trim();
    const relation = stripQuotes(rest.slice(rAt.index + rAt[0].length).trim());
    if (!headText || !relation) return { ok: false, error: `${id}: SearchKG has an empty h or r` };
    const ref = parseStepRef(headText);
    if (ref && !defined.has(ref)) return { ok: false, error: `${id} uses ${ref} before it is defined` };
    const head: PlanHead = ref ? { ref } : { entity: stripQuotes(headText) };
    return { ok: true, step: { id, op: "search", targetType, head, relation } };
  }
  if (fn === "intersect" || fn === "union" || fn === "negation") {
    const args: string[] = [];
    for (const part of body.split(",")) {
      const ref = parseStepRef(part);
      if (!ref) return { ok: false, error: `${id}: ${fn} takes sub-problems (Ans_i), got "${preview(part, 30)}"` };
      if (!defined.has(ref)) return { ok: false, error: `${id} uses ${ref} before it is defined` };
      args.push(ref);
    }
    if (args.length < 2) return { ok: false, error: `${id}: ${fn} needs at least two sub-problems` };
    if (fn === "negation") return { ok: true, step: { id, op: "negation", main: args[0] ?? "", args: args.slice(1) } };
    return { ok: true, step: { id, op: fn, args } };
  }
  return { ok: false, error: `${id}: unknown function "${m[2] ?? ""}" (SearchKG, Intersect, Union, Negation)` };
}

/** The lines of a <plan> block; blank lines and prose lines without `Ans_i` are skipped. */
export function parsePlan(planText: string): PlanParse {
  const plan: PlanStep[] = [];
  const defined = new Set<string>();
  const lines = planText.split("\n");
  for (const [i, line] of lines.entries()) {
    if (!/ans[_\s-]?\d+\s*(?:=|:|-)/i.test(line)) continue;
    const parsed = parsePlanLine(line, defined);
    if (!parsed.ok) return { ok: false, error: `plan line ${i + 1}: ${parsed.error}` };
    plan.push(parsed.step);
    defined.add(parsed.step.id);
  }
  if (plan.length === 0) return { ok: false, error: "the <plan> has no step (Ans1 = SearchKG(t=… | h=…, r=…))" };
  return { ok: true, plan };
}

/**
 * A whole turn. `needPlan`: the conversation has no plan yet, so this turn must bring one.
 * The <plan> (and <think>) must come before the action: text after the action is ignored.
 */
export function parseAskTurn(raw: string, { needPlan }: { needPlan: boolean }): AskTurnParse {
  const thinkBlock = firstBlock(raw, "think");
  if (thinkBlock && !thinkBlock.closed) return { ok: false, error: "<think> is not closed with </think>" };
  const planBlock = firstBlock(raw, "plan");
  if (planBlock && !planBlock.closed) return { ok: false, error: "<plan> is not closed with </plan>" };
  // Tags quoted inside <think> or <plan> ("then I call <neighbor_search>") are not actions.
  const actionFrom = Math.max(thinkBlock?.end ?? 0, planBlock?.end ?? 0);
  const action = firstAction(raw.slice(actionFrom));
  if (!action) return { ok: false, error: "no tool call (<relation_search>, <neighbor_search>, <web_search>) and no <answer>" };
  if (!action.ok) return action;
  let plan: PlanStep[] = [];
  let planText: string | null = null;
  if (planBlock) {
    planText = planBlock.inner.trim();
    const parsed = parsePlan(planText);
    if (!parsed.ok) return parsed;
    plan = parsed.plan;
  } else if (needPlan && action.action.kind !== "answer") {
    return { ok: false, error: "no <plan>…</plan> before the first tool call" };
  }
  return { ok: true, turn: { think: thinkBlock ? thinkBlock.inner.trim() : null, planText, plan, action: action.action, actionEnd: actionFrom + action.end } };
}
