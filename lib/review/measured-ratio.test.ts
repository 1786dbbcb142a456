import { describe, expect, it } from "vitest";
import { metaqa } from "../loop/test-support";
import { predictByEmbedding } from "./embed-graph";
import { POSITIVE_RATIO, measuredRatio, wilsonBound } from "./measured-ratio";
import { mineGraphRules } from "./mine-graph-rules";
import { createNameResolver } from "./resolve-action";
import { reviewActions } from "./review-actions";

describe("a measured likelihood ratio with its lower 90% confidence bound", () => {
  it("bounds each share one-sidedly (Wilson) and divides the true share's lower bound by the other's upper bound", () => {
    expect(wilsonBound(0, 50, "lower")).toBe(0);
    expect(wilsonBound(0, 50, "upper")).toBeGreaterThan(0.025);
    expect(wilsonBound(0, 50, "upper")).toBeLessThan(0.04);
    expect(wilsonBound(25, 50, "lower")).toBeLessThan(0.5);
    expect(wilsonBound(25, 50, "upper")).toBeGreaterThan(0.5);
    // Five of fifty true facts against none of fifty other objects reads ×11, but is not surely ×2.
    const thin = measuredRatio(5, 50, 0, 50);
    expect(thin.ratio).toBeCloseTo(11, 5);
    expect(thin.lower).toBeGreaterThan(1.5);
    expect(thin.lower).toBeLessThan(POSITIVE_RATIO);
    // The same shares on ten times the facts are.
    expect(measuredRatio(50, 500, 0, 500).lower).toBeGreaterThan(POSITIVE_RATIO);
    // Nothing measured: no evidence either way.
    expect(measuredRatio(0, 0, 0, 0)).toMatchObject({ ratio: 1, lower: 1 });
  });
});

describe("the learned predictor speaks only when its bounded ratio is ≥ ×2 (MetaQA)", () => {
  const graph = metaqa();
  const rules = mineGraphRules({ graph });

  it("a made-up writer ranked well on a band of five held-out facts (×11, at least ×1.8) is LOW, the reason shown", () => {
    // Hoop Dreams was not written by John Singleton (not a fact of kb.txt).
    expect(graph.outEdges("Hoop Dreams").some((e) => e.target === "John Singleton")).toBe(false);
    const ix = rules.index;
    const p = predictByEmbedding(ix, rules.embedding!, "written by", ix.numberOf.get("Hoop Dreams") ?? -1, ix.numberOf.get("John Singleton") ?? -1);
    // The point estimate alone (≥ ×2) made it positive evidence and the edge MEDIUM.
    expect(p?.likelihoodRatio).toBeGreaterThanOrEqual(POSITIVE_RATIO);
    expect(p?.bound).toMatchObject({ k: 5, n: 50, j: 0, m: 50 });
    expect(p?.bound.lower).toBeLessThan(POSITIVE_RATIO);
    const [review] = reviewActions({
      graph,
      actions: [{ type: "insert_edge", subject: "Hoop Dreams", relation: "written_by", object: "John Singleton" }],
      documents: new Map(),
      resolve: createNameResolver({ graph }),
      rules,
    });
    expect(review?.confidence).toBe("LOW");
    const signal = review?.signals?.find((s) => s.summary.includes("ComplEx"));
    expect(signal?.summary).toContain("×11.0, at least ×1.8 at 90% confidence (5 of 50 vs 0 of 50)");
    expect(signal?.positive).toBeUndefined();
    expect(review?.reasons.at(-1)).toContain("no evidence for it");
  });
});
