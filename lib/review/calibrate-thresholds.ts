/**
 * Re-fitting the score thresholds of one graph from what its reviewers decided (issue #10).
 *
 * Input: one entry per decided action — its plausibility score, whether the review found
 * positive evidence, the label it was given, and what people did with it. An approved action
 * that stayed applied counts as accepted; a vetoed or rejected one, and one approved but later
 * reverted, count as refused.
 *
 * The floor is not the thresholds' to move: an action without positive evidence is LOW whatever
 * the thresholds (the review applies that rule), so those decisions are left out of the fit and
 * reported separately — a re-fit never claims it could make them MEDIUM or HIGH.
 *
 * On the rest: HIGH gets the lowest threshold whose band (score ≥ high, among actions with strong
 * evidence — only those can be HIGH) was accepted at least `highPrecisionFloor` of the time, over
 * at least `minHighSupport` decisions; MEDIUM gets the
 * threshold (≤ high) that agrees with the most decisions (accepted ⇔ not LOW), the highest one
 * among ties, since a LOW too many costs a second look and a MEDIUM too many can let a made-up
 * fact through. Too few decisions, or decisions of only one kind, give no proposal at all.
 */
import type { DecisionOutcome } from "./count-decisions";
import type { Confidence, LabelThresholds } from "./types";

export type { DecisionOutcome };

export interface ScoredDecision {
  score: number;
  /** Some signal is evidence for the action (ScoreSignal.positive): without it, LOW whatever the score. */
  hasPositiveEvidence: boolean;
  /** Some signal states or strongly predicts the fact (ScoreSignal.strong): what HIGH needs. */
  hasStrongEvidence: boolean;
  /** The label the action carried when people decided. */
  label: Confidence;
  outcome: DecisionOutcome;
}

export interface RefitOptions {
  decisions: readonly ScoredDecision[];
  /** Decisions (scored, with positive evidence) the fit needs at least. */
  minDecisions?: number;
  /** Of those, at least this many accepted and this many refused. */
  minPerOutcome?: number;
  /** Share of HIGH-band decisions that must have been accepted. */
  highPrecisionFloor?: number;
  /** Decisions the HIGH band must rest on. */
  minHighSupport?: number;
}

export interface LabelOutcomes {
  accepted: number;
  refused: number;
}

export interface ThresholdRefit {
  /** The proposed thresholds, or null when the decisions do not support a fit (see `reason`). */
  thresholds: LabelThresholds | null;
  reason: string;
  /** Decisions the fit rests on: scored, with positive evidence. */
  decisions: number;
  accepted: number;
  refused: number;
  /** Decided actions without positive evidence: LOW whatever the thresholds, not part of the fit. */
  floorDecisions: number;
  /** Decided actions whose stored review has no score (reviews made before scores existed). */
  unscoredDecisions: number;
  minDecisions: number;
  minPerOutcome: number;
  /** Share of the fitted decisions the labels given at the time agreed with (accepted ⇔ not LOW). */
  agreementBefore: number | null;
  /** The same share under the proposed thresholds. */
  agreementAfter: number | null;
  high: { floor: number; minSupport: number; precision: number | null; support: number; isReachable: boolean };
  /** The fitted decisions by the label the proposed thresholds would give. */
  byLabel: Record<Confidence, LabelOutcomes> | null;
}

export const REFIT_DEFAULTS = { minDecisions: 20, minPerOutcome: 5, highPrecisionFloor: 0.97, minHighSupport: 5 } as const;

const isAccepted = (d: ScoredDecision) => d.outcome === "approved";

/** The label a decided action would get under thresholds, with the review's evidence floors. */
export function labelForDecision(d: Pick<ScoredDecision, "score" | "hasPositiveEvidence" | "hasStrongEvidence">, thresholds: LabelThresholds): Confidence {
  if (!d.hasPositiveEvidence) return "LOW";
  if (d.hasStrongEvidence && d.score >= thresholds.high) return "HIGH";
  if (d.score >= thresholds.medium) return "MEDIUM";
  return "LOW";
}

export function isValidThresholds(t: LabelThresholds): boolean {
  return Number.isFinite(t.high) && Number.isFinite(t.medium) && t.medium >= 0 && t.high <= 1 && t.medium <= t.high;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** Cut points between the observed scores: a threshold on a midpoint does not hinge on one score's rounding. */
function candidateCuts(scores: number[]): number[] {
  const distinct = [...new Set(scores)].sort((a, b) => a - b);
  const cuts = new Set<number>();
  const first = distinct[0];
  if (first !== undefined) cuts.add(round3(first));
  for (let i = 1; i < distinct.length; i++) cuts.add(round3(((distinct[i - 1] as number) + (distinct[i] as number)) / 2));
  const last = distinct.at(-1);
  if (last !== undefined && last < 1) cuts.add(round3((last + 1) / 2));
  cuts.add(1);
  return [...cuts].sort((a, b) => a - b);
}

function agreement(decisions: readonly ScoredDecision[], labelOf: (d: ScoredDecision) => Confidence): number {
  if (decisions.length === 0) return 0;
  return decisions.filter((d) => (labelOf(d) !== "LOW") === isAccepted(d)).length / decisions.length;
}

export function refitThresholds(options: RefitOptions): ThresholdRefit {
  const minDecisions = options.minDecisions ?? REFIT_DEFAULTS.minDecisions;
  const minPerOutcome = options.minPerOutcome ?? REFIT_DEFAULTS.minPerOutcome;
  const floor = options.highPrecisionFloor ?? REFIT_DEFAULTS.highPrecisionFloor;
  const minSupport = options.minHighSupport ?? REFIT_DEFAULTS.minHighSupport;
  const scored = options.decisions.filter((d) => Number.isFinite(d.score) && d.score >= 0 && d.score <= 1);
  const fitted = scored.filter((d) => d.hasPositiveEvidence);
  const accepted = fitted.filter(isAccepted).length;
  const refused = fitted.length - accepted;
  const base: ThresholdRefit = {
    thresholds: null,
    reason: "",
    decisions: fitted.length,
    accepted,
    refused,
    floorDecisions: scored.length - fitted.length,
    unscoredDecisions: options.decisions.length - scored.length,
    minDecisions,
    minPerOutcome,
    agreementBefore: fitted.length > 0 ? agreement(fitted, (d) => d.label) : null,
    agreementAfter: null,
    high: { floor, minSupport, precision: null, support: 0, isReachable: false },
    byLabel: null,
  };
  if (fitted.length < minDecisions) {
    return { ...base, reason: `a re-fit needs at least ${minDecisions} decisions on scored actions with positive evidence; this graph has ${fitted.length}` };
  }
  if (accepted < minPerOutcome || refused < minPerOutcome) {
    return {
      ...base,
      reason: `a re-fit needs at least ${minPerOutcome} accepted and ${minPerOutcome} refused (rejected or reverted) decisions; this graph has ${accepted} accepted and ${refused} refused`,
    };
  }

  const cuts = candidateCuts(fitted.map((d) => d.score));
  let high = 1;
  let highStats = { precision: null as number | null, support: 0, isReachable: false };
  for (const cut of cuts) {
    const band = fitted.filter((d) => d.hasStrongEvidence && d.score >= cut);
    if (band.length < minSupport) continue;
    const precision = band.filter(isAccepted).length / band.length;
    if (precision >= floor) {
      high = cut;
      highStats = { precision, support: band.length, isReachable: true };
      break;
    }
  }
  if (!highStats.isReachable) {
    const band = fitted.filter((d) => d.hasStrongEvidence && d.score >= 1);
    highStats = { precision: band.length > 0 ? band.filter(isAccepted).length / band.length : null, support: band.length, isReachable: false };
  }

  let medium = 0;
  let best = -1;
  for (const cut of cuts) {
    if (cut > high) break;
    const score = agreement(fitted, (d) => labelForDecision(d, { high, medium: cut }));
    // `>=`: the highest cut among ties wins (the conservative one).
    if (score >= best) {
      best = score;
      medium = cut;
    }
  }
  const thresholds = { high, medium };
  const byLabel: Record<Confidence, LabelOutcomes> = { HIGH: { accepted: 0, refused: 0 }, MEDIUM: { accepted: 0, refused: 0 }, LOW: { accepted: 0, refused: 0 } };
  for (const d of fitted) byLabel[labelForDecision(d, thresholds)][isAccepted(d) ? "accepted" : "refused"]++;
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  const highText = highStats.isReachable
    ? `HIGH from ${high.toFixed(2)}: ${pct(highStats.precision ?? 0)} of its ${highStats.support} decisions were accepted (floor ${pct(floor)})`
    : `no score band of actions with strong evidence reached ${pct(floor)} accepted over ${minSupport} or more decisions, so HIGH needs a score of 1.00`;
  return {
    ...base,
    thresholds,
    agreementAfter: best,
    high: { floor, minSupport, ...highStats },
    byLabel,
    reason: `${highText}; MEDIUM from ${medium.toFixed(2)} agrees with ${pct(best)} of ${fitted.length} decisions`,
  };
}
