import { describe, expect, it } from "vitest";
import type { DecisionOutcome, ScoredDecision } from "./calibrate-thresholds";
import { isValidThresholds, labelForDecision, refitThresholds } from "./calibrate-thresholds";

function decisions(outcome: DecisionOutcome, scores: number[], extra: Partial<ScoredDecision> = {}): ScoredDecision[] {
  return scores.map((score) => ({ score, outcome, hasPositiveEvidence: true, hasStrongEvidence: true, label: (score >= 0.5 ? "MEDIUM" : "LOW"), ...extra }));
}

const range = (from: number, to: number, n: number) => Array.from({ length: n }, (_, i) => from + ((to - from) * i) / Math.max(1, n - 1));

describe("refitThresholds", () => {
  it("proposes nothing below the minimum number of decisions, and says how many there are", () => {
    const refit = refitThresholds({ decisions: [...decisions("approved", range(0.6, 0.9, 8)), ...decisions("rejected", range(0.1, 0.3, 8))] });
    expect(refit.thresholds).toBeNull();
    expect(refit.decisions).toBe(16);
    expect(refit.reason).toContain("at least 20");
  });

  it("proposes nothing from decisions of one kind only (approvals alone would push everything up)", () => {
    const refit = refitThresholds({ decisions: [...decisions("approved", range(0.2, 0.9, 30)), ...decisions("rejected", [0.1, 0.2])] });
    expect(refit.thresholds).toBeNull();
    expect(refit.reason).toContain("2 refused");
  });

  it("separates accepted from refused decisions and reports the agreement before and after", () => {
    const refit = refitThresholds({ decisions: [...decisions("approved", range(0.62, 0.9, 15)), ...decisions("rejected", range(0.1, 0.42, 15))] });
    expect(refit.thresholds).not.toBeNull();
    const t = refit.thresholds ?? { high: 0, medium: 0 };
    expect(t.medium).toBeGreaterThan(0.42);
    expect(t.medium).toBeLessThanOrEqual(0.62);
    expect(refit.agreementAfter).toBe(1);
    expect(refit.agreementBefore).toBe(1);
    expect(isValidThresholds(t)).toBe(true);
    expect(refit.byLabel?.LOW).toEqual({ accepted: 0, refused: 15 });
  });

  it("keeps HIGH above a refused high-scoring action: its band must be accepted 97% of the time", () => {
    const refit = refitThresholds({
      decisions: [...decisions("approved", range(0.5, 0.95, 20)), ...decisions("reverted", [0.8]), ...decisions("rejected", range(0.05, 0.3, 10))],
    });
    const t = refit.thresholds;
    expect(t).not.toBeNull();
    expect(t?.high).toBeGreaterThan(0.8);
    expect(refit.high.isReachable).toBe(true);
    expect(refit.high.precision).toBeGreaterThanOrEqual(0.97);
    expect(refit.high.support).toBeGreaterThanOrEqual(5);
    // The reverted one counts as refused: it sits in MEDIUM, not HIGH.
    expect(labelForDecision({ score: 0.8, hasPositiveEvidence: true, hasStrongEvidence: true }, t ?? { high: 1, medium: 1 })).toBe("MEDIUM");
  });

  it("asks for a perfect score when no band reaches the precision floor", () => {
    const mixed = range(0.3, 0.9, 24).map((score, i): ScoredDecision => ({ score, outcome: (i % 3 === 0 ? "rejected" : "approved"), hasPositiveEvidence: true, hasStrongEvidence: true, label: "MEDIUM" }));
    const refit = refitThresholds({ decisions: mixed });
    expect(refit.thresholds?.high).toBe(1);
    expect(refit.high.isReachable).toBe(false);
    expect(refit.reason).toContain("1.00");
  });

  it("leaves decisions without positive evidence out: they stay LOW whatever the thresholds", () => {
    const base = [...decisions("approved", range(0.62, 0.9, 15)), ...decisions("rejected", range(0.1, 0.42, 15))];
    // High scores without positive evidence, all refused: were they fitted, MEDIUM would have to rise above 0.9.
    const floor = decisions("rejected", range(0.91, 0.99, 10), { hasPositiveEvidence: false, hasStrongEvidence: false });
    const withFloor = refitThresholds({ decisions: [...base, ...floor] });
    expect(withFloor.floorDecisions).toBe(10);
    expect(withFloor.decisions).toBe(30);
    expect(withFloor.thresholds).toEqual(refitThresholds({ decisions: base }).thresholds);
  });

  it("counts reviews without a score apart and never fits on them", () => {
    const refit = refitThresholds({ decisions: [...decisions("approved", range(0.62, 0.9, 15)), ...decisions("rejected", range(0.1, 0.42, 15)), ...decisions("approved", [Number.NaN, Number.NaN])] });
    expect(refit.unscoredDecisions).toBe(2);
    expect(refit.decisions).toBe(30);
  });

  it("counts only actions with strong evidence towards HIGH: the rest can be MEDIUM at most", () => {
    const strong = decisions("approved", range(0.62, 0.9, 15));
    // Accepted, high-scoring, but with partial evidence only: they cannot make a HIGH band.
    const partial = decisions("approved", range(0.62, 0.9, 15), { hasStrongEvidence: false });
    const refused = decisions("rejected", range(0.1, 0.42, 15));
    expect(refitThresholds({ decisions: [...strong, ...refused] }).high.support).toBe(15);
    const refit = refitThresholds({ decisions: [...partial, ...refused] });
    expect(refit.high.isReachable).toBe(false);
    expect(refit.byLabel?.HIGH).toEqual({ accepted: 0, refused: 0 });
    expect(refit.byLabel?.MEDIUM).toEqual({ accepted: 15, refused: 0 });
  });

  it("prefers the higher MEDIUM threshold among equally good ones", () => {
    // Accepted at 0.7+, refused at 0.2-: every cut in between agrees fully; the highest is kept.
    const refit = refitThresholds({ decisions: [...decisions("approved", range(0.7, 0.9, 15)), ...decisions("rejected", range(0.05, 0.2, 15))] });
    expect(refit.thresholds?.medium).toBe(0.45);
  });
});
