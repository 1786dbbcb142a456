import { describe, expect, it } from "vitest";
import { parseTriples } from "../import/parse-triples";
import { linksOnPair } from "./disjoint-relations";
import { normalizeRelation } from "./graph-evidence";
import { mineGraphRules } from "./mine-graph-rules";
import { reviewActions } from "./review-actions";

/**
 * A kinship-style graph (built here, the mechanism's own fixture; the real examples are FB15k-237
 * in mine-graph-rules.test.ts and the held-out kinship split in docs/review-rules.md): 48 people,
 * every ordered pair carries exactly one term. Within a household (i ≡ j mod 4) the older is
 * `elder_of` the younger and the younger `younger_of` the elder; across households the symmetric
 * `kin_0`, `kin_1`, `kin_2` by (i + j) mod 3.
 */
function kinshipGraph(leaveOut: ReadonlySet<string>): string {
  const lines: string[] = [];
  for (let i = 0; i < 48; i++) {
    for (let j = 0; j < 48; j++) {
      if (i === j) continue;
      const term = i % 4 === j % 4 ? (i < j ? "elder_of" : "younger_of") : `kin_${(i + j) % 3}`;
      const line = `p${i}\t${term}\tp${j}`;
      if (!leaveOut.has(line)) lines.push(line);
    }
  }
  return lines.join("\n");
}

describe("disjoint relations: a pair already linked by a relation this one never shares a pair with", () => {
  const heldOut = "p1\tkin_0\tp2";
  const graph = parseTriples(kinshipGraph(new Set([heldOut])), { source: "kinship-fixture.txt" });
  const rules = mineGraphRules({ graph });
  const ix = rules.index;
  const atomOf = (relation: string, reverse: boolean) => 2 * (ix.keyNumber.get(normalizeRelation(relation)) as number) + (reverse ? 1 : 0);
  const n = (id: string) => ix.numberOf.get(id) as number;

  it("reads the links on a pair in both directions, seen from the subject, leaving the judged one out", () => {
    expect(linksOnPair(ix, n("p0"), n("p4")).sort()).toEqual([atomOf("elder_of", false), atomOf("younger_of", true)].sort());
    expect(linksOnPair(ix, n("p0"), n("p4"), atomOf("elder_of", false))).toEqual([atomOf("younger_of", true)]);
    // The held-out pair carries only the symmetric term's other direction.
    expect(linksOnPair(ix, n("p1"), n("p2"))).toEqual([atomOf("kin_0", true)]);
  });

  it("chooses the other terms, never a link the relation's own pairs carry (kin_0 is symmetric)", () => {
    const stats = rules.disjoint.get(normalizeRelation("kin_0"));
    expect(stats).toBeDefined();
    if (!stats) return;
    const chosen = new Set(stats.chosen.keys());
    expect(chosen.has(atomOf("kin_1", false))).toBe(true);
    expect(chosen.has(atomOf("elder_of", false))).toBe(true);
    expect(chosen.has(atomOf("kin_0", true))).toBe(false);
    // Measured on the half that did not choose: no true pair carries one, most random pairs do.
    expect(stats.trueLinked).toBe(0);
    expect(stats.randomLinked / stats.randomSamples).toBeGreaterThan(0.5);
  });

  it("a made-up term between linked people is LOW with the stored link cited; the held-out true term is not flagged", () => {
    const [madeUp, held] = reviewActions({
      graph,
      documents: new Map(),
      rules,
      actions: [
        { type: "insert_edge", subject: "p0", relation: "kin_1", object: "p4" },
        { type: "insert_edge", subject: "p1", relation: "kin_0", object: "p2" },
      ],
    });
    const signal = madeUp?.signals?.find((s) => s.kind === "disjoint");
    expect(signal?.contribution).toBeLessThanOrEqual(-2);
    expect(signal?.summary).toMatch(
      /^p0 and p4 are already linked \(p0 --elder_of--> p4; p4 --younger_of--> p0\), and kin_1 \(almost\) never shares a pair with those links: such a link is on 0% of \d+ held-out true kin_1 pairs and \d+(\.\d)?% of \d+ random pairs \(×[\d.]+, at most ×[\d.]+ at 90% confidence\)$/,
    );
    // It points at the pair's first stored link as the review lists it (each once, not chained).
    expect(madeUp?.evidence[signal?.evidence ?? -1]).toMatchObject({ kind: "edge", path: [{ subject_id: "p0", relation: "elder_of", object_id: "p4" }] });
    expect(madeUp?.evidence.filter((e) => e.kind === "edge" && e.path?.length === 2)).toEqual([]);
    expect(madeUp?.confidence).toBe("LOW");
    expect(held?.signals?.some((s) => s.kind === "disjoint")).toBe(false);
    expect(held?.confidence).not.toBe("LOW");
  });

  it("`disjointSamples: 0` leaves the signal out", () => {
    const off = mineGraphRules({ graph, limits: { disjointSamples: 0 } });
    expect(off.disjoint.size).toBe(0);
    const [review] = reviewActions({ graph, documents: new Map(), rules: off, actions: [{ type: "insert_edge", subject: "p0", relation: "kin_1", object: "p4" }] });
    expect(review?.signals?.some((s) => s.kind === "disjoint")).toBe(false);
  });
});
