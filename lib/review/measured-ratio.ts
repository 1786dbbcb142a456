/**
 * A likelihood ratio measured on held-out facts, with its lower confidence bound (issue #10).
 *
 * The review's graph signals are ratios of two shares measured at mining: k of n held-out true
 * facts against j of m other objects of the relation. The add-½ point estimate of that ratio is
 * noisy when the counts are small (5 of 50 against 0 of 50 reads ×11), so the learned predictor
 * (whose band holds about five true facts by construction) counts as evidence only when the ratio
 * is large *with confidence*: the lower bound below is the one-sided 90% Wilson lower bound of k/n
 * divided by the one-sided 90% Wilson upper bound of j/m. The level was fixed once, never fitted.
 * Applied to every graph signal it was tried and dropped (docs/review-rules.md): on the check sets
 * it removed as many true MEDIUMs as made-up ones, since the other signals' counts are not thin.
 */

/** z of a one-sided 90% bound. */
export const RATIO_CONFIDENCE_Z = 1.2816;

/** The confidence level of `lower`, in words. */
export const RATIO_CONFIDENCE = "90%";

/** A bounded ratio this large speaks for the action (positive evidence). */
export const POSITIVE_RATIO = 2;

export interface MeasuredRatio {
  /** (k + ½)/(n + 1) ÷ (j + ½)/(m + 1). */
  ratio: number;
  /** Wilson lower bound of k/n ÷ Wilson upper bound of j/m (one-sided, RATIO_CONFIDENCE each); 1 when nothing was measured. */
  lower: number;
  k: number;
  n: number;
  j: number;
  m: number;
}

/** One-sided Wilson score bound of the proportion k/n. */
export function wilsonBound(k: number, n: number, side: "lower" | "upper", z = RATIO_CONFIDENCE_Z): number {
  if (n <= 0) return side === "lower" ? 0 : 1;
  const p = Math.min(1, Math.max(0, k / n));
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const spread = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  const b = (side === "lower" ? centre - spread : centre + spread) / (1 + z2 / n);
  return Math.min(1, Math.max(0, b));
}

/** The ratio of k of n (true facts) to j of m (other objects), with its lower bound. */
export function measuredRatio(k: number, n: number, j: number, m: number): MeasuredRatio {
  const ratio = n > 0 && m > 0 ? (k + 0.5) / (n + 1) / ((j + 0.5) / (m + 1)) : 1;
  const lower = n > 0 && m > 0 ? wilsonBound(k, n, "lower") / wilsonBound(j, m, "upper") : 1;
  return { ratio, lower, k, n, j, m };
}

/** "×4.2, at least ×2.4 (90%; 18 of 40 vs 18 of 160)" */
export function ratioText(r: MeasuredRatio): string {
  return `×${r.ratio.toFixed(1)}, at least ×${r.lower.toFixed(1)} at ${RATIO_CONFIDENCE} confidence (${r.k} of ${r.n} vs ${r.j} of ${r.m})`;
}
