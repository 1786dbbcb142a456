/**
 * The plan's logic functions over answer sets: Intersect, Union, Negation(main, …). Members are
 * the same when they are the same node, or, for names found only in text, the same normalised
 * label. Order follows the first set (its ranking), then the others for Union.
 */
import { normalizeLabel } from "../graph/normalize";
import type { AskEntity, PlanStep } from "./types";

function keyOf(e: AskEntity): string {
  return e.id !== null ? `id:${e.id}` : `label:${normalizeLabel(e.label)}`;
}

export type CombineResult = { ok: true; entities: AskEntity[] } | { ok: false; error: string };

export function combineAnswerSets({
  step,
  stepAnswers,
}: {
  step: Extract<PlanStep, { op: "intersect" | "union" | "negation" }>;
  stepAnswers: Readonly<Record<string, readonly AskEntity[]>>;
}): CombineResult {
  const refs = step.op === "negation" ? [step.main, ...step.args] : step.args;
  const sets: (readonly AskEntity[])[] = [];
  for (const ref of refs) {
    const set = stepAnswers[ref];
    if (!set) return { ok: false, error: `${step.id}: ${ref} has not been answered` };
    sets.push(set);
  }
  const [first = [], ...others] = sets;
  const otherKeys = others.map((s) => new Set(s.map(keyOf)));
  if (step.op === "intersect") return { ok: true, entities: first.filter((e) => otherKeys.every((k) => k.has(keyOf(e)))) };
  if (step.op === "negation") return { ok: true, entities: first.filter((e) => !otherKeys.some((k) => k.has(keyOf(e)))) };
  const seen = new Set<string>();
  const out: AskEntity[] = [];
  for (const e of sets.flat()) {
    const k = keyOf(e);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(e);
  }
  return { ok: true, entities: out };
}
