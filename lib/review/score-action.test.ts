import { describe, expect, it } from "vitest";
import { DEFAULT_THRESHOLDS, ScoreCard, decideLabel, labelFromScore, scoreOf } from "./score-action";

describe("score and label (issue #10)", () => {
  it("adds log-odds contributions to the prior; clamps one signal's part", () => {
    const card = new ScoreCard();
    expect(card.score()).toBeCloseTo(0.269, 3);
    card.add("text", 3, "a sentence states it", { strong: true });
    expect(card.score()).toBeCloseTo(0.881, 3);
    card.add("rule", 40, "an overconfident ratio");
    expect(card.signals[1]?.contribution).toBe(4);
    expect(scoreOf([])).toBe(0.269);
  });

  it("a signal is positive evidence only when it speaks for the action", () => {
    const card = new ScoreCard();
    card.add("code", -3, "the code does not show it", { strong: true });
    expect(card.signals[0]).toEqual({ kind: "code", contribution: -3, summary: "the code does not show it", strong: true });
  });

  it("no positive evidence is LOW whatever the score and thresholds", () => {
    const signals = [{ kind: "signature" as const, contribution: 4, summary: "fits the relation's usual kinds" }];
    expect(labelFromScore({ score: scoreOf(signals), signals, thresholds: { high: 0, medium: 0 } })).toBe("LOW");
  });

  it("LOW with a score at MEDIUM's threshold says what the score rests on", () => {
    // FB15k-237 (eval:review, seed 0): Fordham University school_type Catholic school, a true
    // test edge, rests on its signature alone: score 0.50, LOW.
    const signals = [
      {
        kind: "signature" as const,
        contribution: 1,
        summary:
          "fits the relation's usual subjects and objects (subject fits /education/educational_institution/school_type: it is object of /location/location/contains edge, like 89% of the relation's subjects (20% of all nodes); degree 42)",
      },
    ];
    const decided = decideLabel({ score: scoreOf(signals), signals });
    expect(decided.label).toBe("LOW");
    expect(decided.why).toBe(
      "no evidence for it (score 0.50); the score rests on what does not count as evidence for it (the kind of node, or a signal too weak): fits the relation's usual subjects and objects",
    );
    // Below the threshold nothing needs explaining.
    const against = [...signals, { kind: "rule" as const, contribution: -1.5, summary: "no mined path rule predicts it" }];
    expect(decideLabel({ score: scoreOf(against), signals: against }).why).toBe("no evidence for it (score 0.18); against: no mined path rule predicts it");
  });

  it("HIGH needs a strong signal and none strongly against; a cap keeps MEDIUM; blocking is LOW", () => {
    const weak = [{ kind: "text" as const, contribution: 3.5, summary: "co-mention", positive: true }];
    expect(labelFromScore({ score: scoreOf(weak), signals: weak })).toBe("MEDIUM");
    const strong = [{ kind: "text" as const, contribution: 3, summary: "states it", positive: true, strong: true }];
    expect(labelFromScore({ score: scoreOf(strong), signals: strong })).toBe("HIGH");
    const capped = decideLabel({ score: scoreOf(strong), signals: strong, cap: "the edge already exists" });
    expect(capped.label).toBe("MEDIUM");
    expect(capped.why).toMatch(/capped: the edge already exists/);
    const contested = [...strong, { kind: "name" as const, contribution: -0.1, summary: "different years", strong: true }];
    expect(labelFromScore({ score: scoreOf(contested), signals: contested })).toBe("MEDIUM");
    expect(labelFromScore({ score: 1, signals: strong, blocked: "warning AMBIGUOUS_NAME" })).toBe("LOW");
    expect(DEFAULT_THRESHOLDS.medium).toBeLessThan(DEFAULT_THRESHOLDS.high);
  });
});
