import { describe, expect, it } from "vitest";
import { bandOf, decideIteration, findBestIteration, formatTrajectory, isAccepted, overallOf } from "./decide-iteration";
import type { SubScores } from "./types";

const sub = (answerability: number, accuracy: number | null, efficiency: number, hygiene: number): SubScores => ({ answerability, accuracy, efficiency, hygiene });
const at = (s: SubScores) => ({ overall: overallOf(s), sub: s });

describe("bands and overall", () => {
  it("derives the band from the number at the edges", () => {
    expect([bandOf(80), bandOf(79.9), bandOf(65), bandOf(64.9), bandOf(50), bandOf(49.9)]).toEqual(["Accept", "Minor", "Minor", "Major", "Major", "Reject"]);
  });
  it("computes the overall as the mean of the sub-scores that exist", () => {
    expect(overallOf(sub(60, 40, 80, 100))).toBe(70);
    expect(overallOf(sub(60, null, 90, 90))).toBe(80);
  });
});

describe("decideIteration", () => {
  const prev = at(sub(50, 50, 50, 50)); // 50
  it("accepts when the overall goes up", () => {
    const d = decideIteration({ prev, curr: at(sub(70, 50, 50, 50)), consecutiveSmall: 0 });
    expect(d).toMatchObject({ decision: "ACCEPT", accepted: true, delta: 5, consecutiveSmall: 0 });
  });
  it("reverts when the overall goes down", () => {
    expect(decideIteration({ prev, curr: at(sub(40, 50, 50, 50)), consecutiveSmall: 2 })).toMatchObject({ decision: "REVERT", accepted: false, consecutiveSmall: 0 });
  });
  it("accepts a tie within the tolerance when the sub-score sum is ≥ 0", () => {
    // 50 → 50.25: within 0.5, sub-scores +1 in sum.
    const d = decideIteration({ prev, curr: { overall: 50.25, sub: sub(51, 50, 50, 50) }, consecutiveSmall: 0 });
    expect(d).toMatchObject({ decision: "ACCEPT", accepted: true, consecutiveSmall: 1 });
  });
  it("reverts a tie when the sub-score sum is negative", () => {
    const d = decideIteration({ prev, curr: { overall: 50.2, sub: sub(52, 50, 50, 47) }, consecutiveSmall: 0 });
    expect(d).toMatchObject({ decision: "REVERT", accepted: false, subDelta: -1 });
  });
  it("treats a float difference below the tolerance as a tie, not as a loss", () => {
    const d = decideIteration({ prev: { overall: 0.1 + 0.2, sub: sub(1, null, 0, 0) }, curr: { overall: 0.3, sub: sub(1, null, 0, 0) }, consecutiveSmall: 0 });
    expect(d.decision).toBe("ACCEPT");
  });
  it("a drop just beyond the tolerance is a revert", () => {
    expect(decideIteration({ prev, curr: { overall: 49.4, sub: sub(60, 50, 50, 50) }, consecutiveSmall: 0 }).decision).toBe("REVERT");
  });
  it("halts on a plateau after the streak of small gains, keeping the iteration", () => {
    const curr = { overall: 50.8, sub: sub(53.2, 50, 50, 50) };
    expect(decideIteration({ prev, curr, consecutiveSmall: 1 })).toMatchObject({ decision: "ACCEPT", consecutiveSmall: 2 });
    expect(decideIteration({ prev, curr, consecutiveSmall: 2 })).toMatchObject({ decision: "HALT_PLATEAU", accepted: true, consecutiveSmall: 3 });
  });
  it("a large gain resets the small-gain streak", () => {
    expect(decideIteration({ prev, curr: at(sub(90, 50, 50, 50)), consecutiveSmall: 2 })).toMatchObject({ decision: "ACCEPT", consecutiveSmall: 0 });
  });
  it("halts when the target is met, before the plateau", () => {
    const d = decideIteration({ prev: { overall: 79.6, sub: sub(79.6, null, 79.6, 79.6) }, curr: { overall: 80, sub: sub(80, null, 80, 80) }, consecutiveSmall: 2 });
    expect(d).toMatchObject({ decision: "HALT_TARGET_MET", accepted: true });
  });
  it("a standing CRITICAL forces a revert whatever the score", () => {
    expect(decideIteration({ prev, curr: at(sub(100, 100, 100, 100)), consecutiveSmall: 0, daBlocked: true })).toMatchObject({ decision: "REVERT", accepted: false });
  });
  it("honours custom thresholds", () => {
    const thresholds = { target: 60, plateauThreshold: 1, plateauStreak: 3, tieTolerance: 0 };
    expect(decideIteration({ prev, curr: { overall: 50.1, sub: sub(50.4, 50, 50, 50) }, consecutiveSmall: 0, thresholds }).decision).toBe("ACCEPT");
    expect(decideIteration({ prev, curr: at(sub(90, 50, 50, 50)), consecutiveSmall: 0, thresholds }).decision).toBe("HALT_TARGET_MET");
  });
});

describe("best iteration and trajectory", () => {
  const iters = [
    { iter: 0, decision: "BASELINE" as const, score: { overall: 58, band: "Major" as const } },
    { iter: 1, decision: "ACCEPT" as const, score: { overall: 67.3, band: "Minor" as const } },
    { iter: 2, decision: "HALT_TARGET_MET" as const, score: { overall: 81, band: "Accept" as const } },
  ];
  it("counts accepted HALT decisions for the best iteration", () => {
    expect(isAccepted("HALT_TARGET_MET") && isAccepted("HALT_PLATEAU")).toBe(true);
    expect(findBestIteration(iters)).toBe(2);
  });
  it("never picks a reverted or failed iteration, whatever its score", () => {
    const lost = [iters[0]!, { iter: 1, decision: "REVERT" as const, score: { overall: 99 } }, { iter: 2, decision: "ERROR" as const, score: { overall: 99 } }];
    expect(findBestIteration(lost)).toBe(0);
  });
  it("writes the trajectory with bands and the halt", () => {
    expect(formatTrajectory(iters)).toBe("iter0 58.0 Major → iter1 67.3 Minor (accept) → iter2 81.0 Accept (accept; halt: target met)");
    expect(formatTrajectory(iters.slice(0, 2), "cap")).toBe("iter0 58.0 Major → iter1 67.3 Minor (accept) (halt: cap)");
  });
});
