import { describe, expect, it } from "vitest";
import { parseTripleLines, parseTriples } from "../import/parse-triples";
import { readData } from "../test/data";
import { predictByConstants } from "./constant-rules";
import { mineGraphRules } from "./mine-graph-rules";

describe("rules with a constant (countries_S1: the test countries' regions, absent from graph.txt)", () => {
  const graph = parseTriples(readData("countries_S1", "graph.txt"), { source: "graph.txt" });
  const test = parseTripleLines(readData("countries_S1", "test.txt"), "test.txt");
  const rules = mineGraphRules({ graph });
  const predict = (subject: string, object: string) => predictByConstants({ rules, graph, subject, relation: "locatedIn", object, relationKey: "locatedin" });

  it("the true region is predicted from what the country's neighbours are located in, with the measured ratio", () => {
    const regions = [...new Set(test.map((t) => t.object))];
    let better = 0;
    for (const t of test) {
      const p = predict(t.subject, t.object);
      const wrong = regions.filter((r) => r !== t.object).map((r) => predict(t.subject, r).confidence);
      if (p.confidence > Math.max(...wrong)) better++;
    }
    // The true region beats every wrong region of the same level for most test countries.
    expect(better).toBeGreaterThanOrEqual(test.length * 0.75);
  });

  it("names the rule, the counts, stored body edges and like nodes; the judged fact is never its own evidence", () => {
    const t = test[0] as { subject: string; object: string };
    const p = predict(t.subject, t.object);
    expect(p.confidence).toBeGreaterThan(0);
    expect(p.rule).toMatch(new RegExp(`^locatedIn\\(x, ${t.object}\\) ⇐ `));
    expect(p.support).toBeGreaterThanOrEqual(2);
    expect(p.body).toBeGreaterThanOrEqual(p.support);
    expect(p.body_edge?.subject_id === t.subject || p.body_edge?.object_id === t.subject).toBe(true);
    for (const x of p.examples) {
      for (const e of x.edges) expect(graph.outEdges(e.subject_id).some((g) => g.target === e.object_id && g.relation === e.relation)).toBe(true);
      expect(x.edges.some((e) => e.subject_id === t.subject || e.object_id === t.subject)).toBe(false);
    }
    expect(p.samples).toBeGreaterThan(0);
    expect(p.likelihoodRatio).toBeGreaterThan(0);
  });

  it("an object or relation the graph does not have, and a graph without the fact's kind, predict nothing", () => {
    expect(predict("eritrea", "no_such_region").confidence).toBe(0);
    expect(predictByConstants({ rules, graph, subject: "eritrea", relation: "flowsInto", object: "africa", relationKey: "flowsinto" }).likelihoodRatio).toBe(1);
    const tiny = parseTriples("a\tr\tb\n", { source: "tiny.txt" });
    const none = mineGraphRules({ graph: tiny });
    expect(predictByConstants({ rules: none, graph: tiny, subject: "a", relation: "r", object: "b", relationKey: "r" }).confidence).toBe(0);
  });
});
