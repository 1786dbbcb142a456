/**
 * The accept / revert decision of one campaign iteration (seed 003's score_delta), with the
 * reference scripts' flaws fixed (reference.md §4):
 * - ties use a tolerance, not float equality;
 * - the overall score is recomputed from the sub-scores (`overallOf`), never typed by a model;
 * - accepted HALT_* decisions count as accepted for the best iteration (`isAccepted`);
 * - an error is its own decision (ERROR), never a REVERT.
 *
 * Rules: a standing devil's-advocate CRITICAL forces REVERT. Otherwise overall up by more than
 * the tolerance → accept; within the tolerance → accept when the sum of sub-score deltas is
 * ≥ 0, else REVERT; down → REVERT. An accepted gain below `plateauThreshold` is small; an
 * accepted iteration at or above the target is HALT_TARGET_MET (takes precedence), one that
 * completes `plateauStreak` small gains in a row is HALT_PLATEAU.
 */
import type { Band, CampaignThresholds, Decision, SubScoreKey, SubScores } from "./types";
import { DEFAULT_THRESHOLDS, SUB_SCORE_KEYS } from "./types";

const round1 = (x: number) => Math.round(x * 10) / 10;

export function bandOf(overall: number): Band {
  if (overall >= 80) return "Accept";
  if (overall >= 65) return "Minor";
  if (overall >= 50) return "Major";
  return "Reject";
}

/** Unweighted mean of the sub-scores that exist (accuracy is absent without gold answers). */
export function overallOf(sub: SubScores): number {
  const values = SUB_SCORE_KEYS.map((k) => sub[k]).filter((v): v is number => typeof v === "number" && Number.isFinite(v));
  if (values.length === 0) return 0;
  return round1(values.reduce((a, b) => a + b, 0) / values.length);
}

/** Sum of sub-score deltas over the sub-scores both sides have. */
export function subScoreDelta(prev: SubScores, curr: SubScores): number {
  let sum = 0;
  for (const k of SUB_SCORE_KEYS as readonly SubScoreKey[]) {
    const a = prev[k];
    const b = curr[k];
    if (typeof a === "number" && typeof b === "number") sum += b - a;
  }
  return round1(sum);
}

export function isAccepted(decision: Decision): boolean {
  return decision === "ACCEPT" || decision === "HALT_PLATEAU" || decision === "HALT_TARGET_MET";
}

export interface DecideIterationOptions {
  prev: { overall: number; sub: SubScores };
  curr: { overall: number; sub: SubScores };
  /** Small accepted gains in a row before this iteration. */
  consecutiveSmall: number;
  /** A standing CRITICAL devil's-advocate finding (guardDevilsAdvocate().blocked). */
  daBlocked?: boolean;
  thresholds?: CampaignThresholds;
}

export interface IterationDecision {
  decision: Decision;
  accepted: boolean;
  delta: number;
  subDelta: number;
  consecutiveSmall: number;
  reason: string;
}

export function decideIteration({ prev, curr, consecutiveSmall, daBlocked = false, thresholds = DEFAULT_THRESHOLDS }: DecideIterationOptions): IterationDecision {
  const delta = round1(curr.overall - prev.overall);
  const subDelta = subScoreDelta(prev.sub, curr.sub);
  const from = `${prev.overall.toFixed(1)} → ${curr.overall.toFixed(1)}`;
  if (daBlocked) {
    return { decision: "REVERT", accepted: false, delta, subDelta, consecutiveSmall: 0, reason: `a standing CRITICAL devil's-advocate finding blocks the iteration (${from})` };
  }
  const tie = Math.abs(curr.overall - prev.overall) <= thresholds.tieTolerance;
  let why: string;
  if (tie) {
    if (subDelta < 0) {
      return { decision: "REVERT", accepted: false, delta, subDelta, consecutiveSmall: 0, reason: `overall tied within ${thresholds.tieTolerance} (${from}) and the sub-scores fell by ${(-subDelta).toFixed(1)} in sum` };
    }
    why = `overall tied within ${thresholds.tieTolerance} (${from}), sub-score sum ${subDelta >= 0 ? "+" : ""}${subDelta.toFixed(1)}`;
  } else if (curr.overall > prev.overall) {
    why = `overall up ${from}`;
  } else {
    return { decision: "REVERT", accepted: false, delta, subDelta, consecutiveSmall: 0, reason: `overall down ${from}` };
  }
  const small = delta < thresholds.plateauThreshold;
  const streak = small ? consecutiveSmall + 1 : 0;
  if (curr.overall >= thresholds.target) {
    return { decision: "HALT_TARGET_MET", accepted: true, delta, subDelta, consecutiveSmall: streak, reason: `${why}; ${curr.overall.toFixed(1)} reaches the target ${thresholds.target}` };
  }
  if (streak >= thresholds.plateauStreak) {
    return { decision: "HALT_PLATEAU", accepted: true, delta, subDelta, consecutiveSmall: streak, reason: `${why}; ${streak} gains below ${thresholds.plateauThreshold} in a row` };
  }
  return { decision: "ACCEPT", accepted: true, delta, subDelta, consecutiveSmall: streak, reason: why };
}

/**
 * The best iteration: the highest overall among the baseline and the accepted iterations
 * (HALT_* included); an earlier iteration wins a tie, it holds fewer changes.
 */
export function findBestIteration(iterations: ReadonlyArray<{ iter: number; decision: Decision; score: { overall: number } }>): number {
  let best: { iter: number; overall: number } | null = null;
  for (const it of iterations) {
    if (it.decision !== "BASELINE" && !isAccepted(it.decision)) continue;
    if (!best || it.score.overall > best.overall) best = { iter: it.iter, overall: it.score.overall };
  }
  return best?.iter ?? 0;
}

export function formatTrajectory(iterations: ReadonlyArray<{ iter: number; decision: Decision; score: { overall: number; band: Band } }>, haltedBecause?: string): string {
  const words: Partial<Record<Decision, string>> = {
    ACCEPT: "accept",
    REVERT: "revert",
    HALT_PLATEAU: "accept; halt: plateau",
    HALT_TARGET_MET: "accept; halt: target met",
    NOTHING_TO_FIX: "nothing to fix",
    ERROR: "error",
  };
  const parts = iterations.map((it) => {
    const base = `iter${it.iter} ${it.score.overall.toFixed(1)} ${it.score.band}`;
    const word = words[it.decision];
    return word ? `${base} (${word})` : base;
  });
  const last = iterations[iterations.length - 1];
  const explicit = last && (last.decision === "HALT_PLATEAU" || last.decision === "HALT_TARGET_MET");
  return parts.join(" → ") + (haltedBecause && !explicit ? ` (halt: ${haltedBecause.replace(/_/g, " ")})` : "");
}
