/**
 * The plausibility score of a reviewed action and its label (issue #10).
 *
 * Independent signals — text that states the relation, graph regularities mined from the graph
 * (path rules, relation signatures, functional relations), the code check, name evidence for
 * merges — each add a contribution in log-odds to a prior; the score is the logistic of the sum,
 * 0–1. Contributions rest on measured ratios where the graph gives them (a rule's recall on true
 * facts against its firing rate on random objects, a signature's likelihood ratio) and are clamped,
 * so no single measured ratio can decide alone.
 *
 * The label is read from the score with thresholds, but evidence gates it:
 * - blocking warnings → LOW;
 * - no signal that speaks for the action (`positive`) → LOW whatever the score: "both endpoints
 *   exist" is not evidence;
 * - HIGH needs a `strong` signal (a sentence stating it, the code confirming it, a confident
 *   rule) and no strong signal against;
 * - a cap (EDGE_EXISTS, a near-duplicate) keeps it at MEDIUM.
 * The default thresholds were chosen on the mix of the shared evaluation sets
 * (`npm run eval:review -- --fit`), each set checked on its own; docs/review-rules.md has the table.
 */
import type { Confidence, LabelThresholds, ScoreSignal, SignalKind } from "./types";

/** Chosen on the mix of countries_S1, fb15k237, MuSiQue and httpx (see the module header). */
export const DEFAULT_THRESHOLDS: Readonly<LabelThresholds> = Object.freeze({ high: 0.7, medium: 0.4 });

/** Log-odds before any evidence: an action is taken to be more likely wrong than right. */
export const PRIOR_LOGIT = -1;

/** The largest part one signal may play, either way (log-odds). */
const MAX_CONTRIBUTION = 4;

const round3 = (x: number) => Math.round(x * 1000) / 1000;

export function clampContribution(x: number): number {
  if (!Number.isFinite(x)) return x > 0 ? MAX_CONTRIBUTION : -MAX_CONTRIBUTION;
  return Math.max(-MAX_CONTRIBUTION, Math.min(MAX_CONTRIBUTION, x));
}

/** Collects the signals of one review. */
export class ScoreCard {
  readonly signals: ScoreSignal[] = [];

  add(kind: SignalKind, contribution: number, summary: string, extra: { evidence?: number; positive?: boolean; strong?: boolean } = {}): ScoreSignal {
    const signal: ScoreSignal = { kind, contribution: round3(clampContribution(contribution)), summary };
    if (extra.evidence !== undefined) signal.evidence = extra.evidence;
    // Only what speaks for the action is positive evidence; a strong signal may speak against.
    if ((extra.positive || extra.strong) && signal.contribution > 0) signal.positive = true;
    if (extra.strong) signal.strong = true;
    this.signals.push(signal);
    return signal;
  }

  has(kind: SignalKind): boolean {
    return this.signals.some((s) => s.kind === kind);
  }

  score(): number {
    return scoreOf(this.signals);
  }
}

export function scoreOf(signals: readonly ScoreSignal[]): number {
  const sum = signals.reduce((acc, s) => acc + s.contribution, PRIOR_LOGIT);
  return round3(1 / (1 + Math.exp(-sum)));
}

export function hasPositiveEvidence(signals: readonly ScoreSignal[]): boolean {
  return signals.some((s) => s.positive === true && s.contribution > 0);
}

/** A strong signal against: what rules HIGH out whatever else speaks for the action. */
export function hasStrongAgainst(signals: readonly ScoreSignal[]): boolean {
  return signals.some((s) => s.strong === true && s.contribution < 0);
}

export interface LabelDecision {
  label: Confidence;
  /** Why this label, in words, for the final reason. */
  why: string;
}

/** The label a score gets, with the evidence gates (see the module header). */
export function labelFromScore(options: Parameters<typeof decideLabel>[0]): Confidence {
  return decideLabel(options).label;
}

export function decideLabel({
  score,
  signals,
  blocked,
  cap,
  thresholds = DEFAULT_THRESHOLDS,
}: {
  score: number;
  signals: readonly ScoreSignal[];
  /** A blocking warning's codes (or true): LOW. */
  blocked?: boolean | string;
  /** Why the label may not exceed MEDIUM (EDGE_EXISTS, a near-duplicate), or null. */
  cap?: string | null;
  thresholds?: LabelThresholds;
}): LabelDecision {
  const s = score.toFixed(2);
  if (blocked) return { label: "LOW", why: typeof blocked === "string" ? blocked : "a blocking warning" };
  const positive = signals.filter((x) => x.positive === true && x.contribution > 0);
  if (positive.length === 0) {
    const against = signals.filter((x) => x.contribution < 0).map((x) => x.summary);
    // A score at or above MEDIUM's threshold with no evidence reads like a mistake: say what it rests on.
    const lifting = score >= thresholds.medium ? signals.filter((x) => x.contribution > 0).sort((p, q) => q.contribution - p.contribution)[0] : undefined;
    const rests = lifting ? `; the score rests on what does not count as evidence for it (the kind of node, or a signal too weak): ${firstClause(lifting.summary)}` : "";
    return { label: "LOW", why: `no evidence for it (score ${s})${against.length ? `; against: ${against.slice(0, 2).join("; ")}` : ""}${rests}` };
  }
  const strong = positive.filter((x) => x.strong === true);
  const strongAgainst = hasStrongAgainst(signals);
  const best = (strong[0] ?? positive[0]) as ScoreSignal;
  if (score >= thresholds.high && strong.length > 0 && !strongAgainst) {
    if (cap) return { label: "MEDIUM", why: `score ${s}: ${best.summary}, but capped: ${cap}` };
    return { label: "HIGH", why: `score ${s} ≥ ${thresholds.high}: ${best.summary}` };
  }
  if (score >= thresholds.medium) {
    const held = score >= thresholds.high ? (strongAgainst ? "; strong evidence against keeps it from HIGH" : strong.length === 0 ? "; nothing states it outright, so not HIGH" : "") : "";
    return { label: "MEDIUM", why: `score ${s} ≥ ${thresholds.medium}: ${best.summary}${held}${cap ? `; ${cap}` : ""}` };
  }
  return { label: "LOW", why: `score ${s} < ${thresholds.medium}: the evidence for it (${best.summary}) does not outweigh the rest` };
}

/** A signal's summary up to its first bracket or colon: "fits the relation's usual subjects and objects". */
function firstClause(summary: string): string {
  const cut = summary.search(/ \(|: /);
  const head = cut > 0 ? summary.slice(0, cut) : summary;
  return head.length > 120 ? `${head.slice(0, 119)}…` : head;
}
