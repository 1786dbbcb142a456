import { describe, expect, it } from "vitest";
import type { ActionReview } from "../review/types";
import { challengeAction, guardDevilsAdvocate } from "./devils-advocate";
import type { DaFinding } from "./types";

const f = (id: string, round: number, severity: DaFinding["severity"], rebuttalScore: number, conceded: boolean, extra: Partial<DaFinding> = {}): DaFinding => ({ id, round, severity, challenge: "c", rebuttalScore, rebuttal: "r", conceded, ...extra });

describe("guardDevilsAdvocate", () => {
  it("is clear with no findings", () => {
    expect(guardDevilsAdvocate([])).toEqual({ standing: [], refused: [], blocked: false });
  });
  it("accepts a concession at rebuttal ≥ 4", () => {
    const g = guardDevilsAdvocate([f("a", 1, "CRITICAL", 4, true)]);
    expect(g).toMatchObject({ standing: [], refused: [], blocked: false });
  });
  it("refuses a concession below 4: the CRITICAL stands and blocks", () => {
    const g = guardDevilsAdvocate([f("a", 1, "CRITICAL", 3, true)]);
    expect(g.blocked).toBe(true);
    expect(g.refused).toEqual([{ id: "a", round: 1, reason: "rebuttal score 3 < 4" }]);
  });
  it("refuses a concession in the round right after a concession", () => {
    const g = guardDevilsAdvocate([f("a", 1, "MINOR", 5, true), f("b", 2, "CRITICAL", 5, true)]);
    expect(g.refused).toEqual([{ id: "b", round: 2, reason: "round 2 follows a round with a concession" }]);
    expect(g.blocked).toBe(true);
  });
  it("allows a concession again once a round passed without one", () => {
    const g = guardDevilsAdvocate([f("a", 1, "MINOR", 5, true), f("b", 2, "MINOR", 2, false), f("c", 3, "CRITICAL", 5, true)]);
    expect(g.blocked).toBe(false);
    expect(g.standing.map((x) => x.id)).toEqual(["b"]);
  });
  it("a refused concession does not count as a concession for the next round", () => {
    const g = guardDevilsAdvocate([f("a", 1, "MINOR", 2, true), f("b", 2, "CRITICAL", 4, true)]);
    expect(g.blocked).toBe(false);
  });
  it("judges a finding by its latest state: a CRITICAL withdrawn later does not block", () => {
    const g = guardDevilsAdvocate([f("a", 1, "CRITICAL", 2, false), f("a", 2, "CRITICAL", 2, false, { withdrawn: true })]);
    expect(g).toMatchObject({ standing: [], blocked: false });
  });
  it("a CRITICAL standing from an earlier round only blocks the round that raised it", () => {
    const g = guardDevilsAdvocate([f("a", 1, "CRITICAL", 2, false), f("b", 2, "MINOR", 2, false)]);
    expect(g.blocked).toBe(false);
    expect(g.standing.map((x) => x.id).sort()).toEqual(["a", "b"]);
  });
  it("non-critical standing findings never block", () => {
    expect(guardDevilsAdvocate([f("a", 1, "MAJOR", 1, false), f("b", 1, "MINOR", 3, true)]).blocked).toBe(false);
  });
  it("throws on a rebuttal score outside 1–5 (an error, not a decision)", () => {
    expect(() => guardDevilsAdvocate([f("a", 1, "MINOR", 6, false)])).toThrow(/not 1–5/);
    expect(() => guardDevilsAdvocate([f("a", 1, "MINOR", 0, false)])).toThrow(/not 1–5/);
  });
});

function review(partial: Partial<ActionReview>): ActionReview {
  return {
    index: 0,
    action: { type: "insert_edge", subject: "a", relation: "r", object: "b" },
    text: 'insert_edge("a", "r", "b")',
    confidence: "LOW",
    score: 0.2,
    signals: [],
    reasons: [],
    evidence: [],
    warnings: [],
    suggestions: [],
    resolved: {},
    ...partial,
  };
}

describe("challengeAction", () => {
  it("a stated action with nothing strong against: MINOR, rebuttal 5, conceded", () => {
    const d = challengeAction({ review: review({ confidence: "HIGH", score: 0.9, signals: [{ kind: "text", contribution: 3, summary: "p1 states it", positive: true, strong: true }] }), evidence: "supported", round: 1 });
    expect(d).toMatchObject({ severity: "MINOR", rebuttalScore: 5, conceded: true });
  });
  it("strong evidence against is CRITICAL; positive evidence at MEDIUM rebuts at 4", () => {
    const d = challengeAction({
      review: review({ confidence: "MEDIUM", score: 0.55, signals: [{ kind: "rule", contribution: 2, summary: "rule predicts", positive: true }, { kind: "functional", contribution: -2, summary: "already has another value", strong: true }] }),
      evidence: "supported",
      round: 2,
    });
    expect(d).toMatchObject({ severity: "CRITICAL", rebuttalScore: 4, conceded: true, challenge: "against it: already has another value" });
  });
  it("an attributed LOW action is MAJOR with rebuttal 3 and no concession", () => {
    const d = challengeAction({ review: review({}), evidence: "attributed", round: 1 });
    expect(d).toMatchObject({ severity: "MAJOR", rebuttalScore: 3, conceded: false });
  });
  it("a blocking warning is CRITICAL with rebuttal 1", () => {
    const d = challengeAction({ review: review({ warnings: [{ code: "AMBIGUOUS_NAME", message: "two nodes" }] }), evidence: "attributed", round: 1 });
    expect(d).toMatchObject({ severity: "CRITICAL", rebuttalScore: 3 });
    expect(challengeAction({ review: review({ warnings: [{ code: "SELF_LOOP", message: "x" }] }), evidence: "needs_evidence", round: 1 }).rebuttalScore).toBe(1);
  });
});
