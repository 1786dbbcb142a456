/**
 * The devil's advocate (seed 003's DA reviewer and concession_guard), applied to proposed graph
 * actions: each action that passed the claim-evidence gate is challenged against its review's
 * evidence, the evidence's answer gets a rebuttal score 1–5, and the guard decides which
 * concessions stand.
 *
 * Guard rules: a concession stands only with a rebuttal score ≥ 4 and never in the round right
 * after a round with a standing concession (so the DA cannot cave every round); a refused
 * concession leaves the finding standing. Fixing the reference (reference.md §4), every finding
 * is judged by its LATEST state across rounds: a CRITICAL conceded validly or withdrawn later no
 * longer blocks. A standing CRITICAL in the latest round blocks the iteration.
 */
import { hasStrongAgainst } from "../review/score-action";
import type { ActionReview } from "../review/types";
import type { DaFinding, DaGuardResult, EvidenceClass, Severity } from "./types";

export const MIN_CONCESSION_SCORE = 4;

/** Warnings that make an action wrong as written (the review labels it LOW for them). */
const CRITICAL_WARNINGS = new Set(["AMBIGUOUS_NAME", "DELETE_MISSING", "SELF_LOOP", "UNPARSEABLE", "GENERIC_OBJECT", "GENERIC_NAME"]);

/**
 * The challenge of one action. Severity from what speaks against it: strong evidence against
 * (two definitions, a functional conflict, a broken signature) or a blocking warning is
 * CRITICAL; a LOW label is MAJOR; anything else MINOR. The rebuttal is the evidence for it:
 * 5 a strong signal and nothing strong against, 4 positive evidence with a score at or above
 * the MEDIUM threshold, 3 a cited source only, 2 weak positive evidence, 1 nothing.
 */
export function challengeAction({ review, evidence, round, mediumThreshold = 0.4 }: { review: ActionReview; evidence: EvidenceClass; round: number; mediumThreshold?: number }): DaFinding {
  const signals = review.signals ?? [];
  const score = review.score ?? 0;
  const against = signals.filter((s) => s.contribution < 0).sort((a, b) => a.contribution - b.contribution);
  const criticalWarning = review.warnings.find((w) => CRITICAL_WARNINGS.has(w.code));
  const strongAgainst = hasStrongAgainst(signals);
  const severity: Severity = strongAgainst || criticalWarning ? "CRITICAL" : review.confidence === "LOW" ? "MAJOR" : "MINOR";
  const challenge = criticalWarning
    ? `${criticalWarning.code}: ${criticalWarning.message}`
    : against[0]
      ? `against it: ${against[0].summary}`
      : `is "${review.text}" stated anywhere, or only plausible?`;
  const positive = signals.filter((s) => s.positive === true && s.contribution > 0);
  const strong = positive.find((s) => s.strong === true);
  let rebuttalScore: number;
  let rebuttal: string;
  if (strong && !strongAgainst) {
    rebuttalScore = 5;
    rebuttal = strong.summary;
  } else if (positive.length > 0 && score >= mediumThreshold) {
    rebuttalScore = 4;
    rebuttal = (positive[0] ?? strong)?.summary ?? "positive evidence";
  } else if (evidence === "attributed") {
    rebuttalScore = 3;
    rebuttal = "a cited source mentions it, without stating it";
  } else if (positive.length > 0) {
    rebuttalScore = 2;
    rebuttal = `weak: ${positive[0]?.summary ?? ""} (score ${score.toFixed(2)})`;
  } else {
    rebuttalScore = 1;
    rebuttal = "no evidence for it";
  }
  return { id: review.text, round, severity, challenge, rebuttalScore, rebuttal, conceded: rebuttalScore >= MIN_CONCESSION_SCORE };
}

/**
 * Judge the DA's log (every round's findings, in order). Deterministic: the same log gives the
 * same result. Throws on a malformed log (a rebuttal score outside 1–5): an error, not a REVERT.
 */
export function guardDevilsAdvocate(log: readonly DaFinding[]): DaGuardResult {
  for (const f of log) {
    if (!Number.isInteger(f.rebuttalScore) || f.rebuttalScore < 1 || f.rebuttalScore > 5) {
      throw new Error(`devil's advocate finding ${JSON.stringify(f.id)} round ${f.round}: rebuttal score ${f.rebuttalScore} is not 1–5`);
    }
  }
  const rounds = [...new Set(log.map((f) => f.round))].sort((a, b) => a - b);
  const refused: DaGuardResult["refused"] = [];
  /** Latest state per finding id: standing or not. */
  const latest = new Map<string, { finding: DaFinding; standing: boolean }>();
  let previousRound: number | null = null;
  let concededInPrevious = false;
  for (const round of rounds) {
    const consecutive = previousRound !== null && round === previousRound + 1 && concededInPrevious;
    let concededHere = false;
    for (const f of log.filter((x) => x.round === round)) {
      if (f.withdrawn) {
        latest.set(f.id, { finding: f, standing: false });
        continue;
      }
      let standing = true;
      if (f.conceded) {
        if (f.rebuttalScore < MIN_CONCESSION_SCORE) refused.push({ id: f.id, round, reason: `rebuttal score ${f.rebuttalScore} < ${MIN_CONCESSION_SCORE}` });
        else if (consecutive) refused.push({ id: f.id, round, reason: `round ${round} follows a round with a concession` });
        else {
          standing = false;
          concededHere = true;
        }
      }
      latest.set(f.id, { finding: f, standing });
    }
    concededInPrevious = concededHere;
    previousRound = round;
  }
  const standing = [...latest.values()].filter((x) => x.standing).map((x) => x.finding);
  const lastRound = rounds[rounds.length - 1];
  // Only a finding raised (or re-raised) in the latest round can block it: one whose action is
  // no longer proposed is judged by its latest state, which is not this round's business.
  const blocked = standing.some((f) => f.severity === "CRITICAL" && f.round === lastRound);
  return { standing, refused, blocked };
}
