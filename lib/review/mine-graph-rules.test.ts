import zlib from "node:zlib";
import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import type { KnowledgeGraph, Triple } from "../graph/model";
import { parseTripleLines, parseTriples } from "../import/parse-triples";
import { dataPath, readData } from "../test/data";
import { graphFromGraphifyDocument } from "../import/parse-graphify";
import type { RefinementAction } from "../loop/types";
import { reviewActions } from "./review-actions";
import {
  createGraphRulesMiner,
  functionalConflict,
  mineGraphRules,
  predictByNeighbours,
  predictBySameSource,
  predictEdge,
  relationSignatureFit,
  type MinedGraphRules,
} from "./mine-graph-rules";

/** Each triple is a stored edge, and the path runs from `from` to `to`. */
function expectStoredPath(graph: KnowledgeGraph, path: Triple[], from: string, to: string): void {
  let at = from;
  for (const t of path) {
    const stored = graph.outEdges(t.subject_id).some((e) => e.target === t.object_id && e.relation === t.relation);
    expect(stored, `${t.subject_id} ${t.relation} ${t.object_id} is stored`).toBe(true);
    expect([t.subject_id, t.object_id]).toContain(at);
    at = t.subject_id === at ? t.object_id : t.subject_id;
  }
  expect(at).toBe(to);
}

const ins = (subject: string, relation: string, object: string): RefinementAction => ({ type: "insert_edge", subject, relation, object });

/** Deterministic pseudo-random picks for made-up objects. */
function picker(seed: number): (n: number) => number {
  let a = seed;
  return (n) => {
    a = (a * 1103515245 + 12345) % 2147483648;
    return Math.floor((a / 2147483648) * n);
  };
}

describe("countries_S1: locatedIn edges removed from the graph", () => {
  let graph: KnowledgeGraph;
  let rules: MinedGraphRules;
  const tests = parseTripleLines(readData("countries_S1", "test.txt"));
  beforeAll(() => {
    graph = parseTriples(readData("countries_S1", "graph.txt"));
    rules = mineGraphRules({ graph });
  });

  it("mines the neighbour rule with support and confidence", () => {
    const located = rules.rulesByHead.get("locatedin") ?? [];
    const neighbour = located.find((r) => r.text === "neighborOf(x,z) ∧ locatedIn(z,y) ⇒ locatedIn(x,y)");
    expect(neighbour).toBeDefined();
    expect(neighbour?.support).toBeGreaterThan(100);
    expect(neighbour?.confidence).toBeGreaterThan(0.3);
    expect(neighbour?.pcaConfidence).toBeGreaterThanOrEqual(neighbour?.confidence ?? 1);
    // neighborOf is symmetric in the data: the inverse length-1 rule is nearly certain.
    const symmetric = rules.rulesByHead.get("neighborof")?.find((r) => r.text === "neighborOf(y,x) ⇒ neighborOf(x,y)");
    expect(symmetric?.confidence).toBeGreaterThan(0.9);
  });

  it("predicts nearly every removed edge with a stored path, and no made-up region of the same country", () => {
    const regions = [...new Set(tests.map((t) => t.object))];
    let predicted = 0;
    let wrongPredicted = 0;
    for (const t of tests) {
      const p = predictEdge({ rules, graph, subject: t.subject, relation: t.relation, object: t.object });
      if (p.firing.length > 0) {
        predicted++;
        const top = p.firing[0];
        expect(top?.paths.length).toBeGreaterThan(0);
        for (const path of top?.paths ?? []) expectStoredPath(graph, path, t.subject, t.object);
        expect(p.summary).toContain("predict");
        expect(p.best).toBeGreaterThan(0.3);
        expect(p.likelihoodRatio).toBeGreaterThan(10);
      }
      // A real region, but not this country's.
      const wrong = regions.find((r) => r !== t.object && !graph.outEdges(t.subject).some((e) => e.target === r)) as string;
      const q = predictEdge({ rules, graph, subject: t.subject, relation: t.relation, object: wrong });
      if (q.firing.length > 0) wrongPredicted++;
      else expect(q.likelihoodRatio).toBeLessThan(0.5);
    }
    expect(predicted).toBeGreaterThanOrEqual(22);
    expect(wrongPredicted).toBeLessThanOrEqual(4);
  });

  it("a random entity as object breaks locatedIn's range; the true region fits", () => {
    const ids = [...graph.nodes.keys()];
    const pick = picker(3);
    let broken = 0;
    for (const t of tests) {
      expect(relationSignatureFit({ rules, graph, subject: t.subject, relation: t.relation, object: t.object }).fits).toBe(true);
      let o = ids[pick(ids.length)] as string;
      while (o === t.object) o = ids[pick(ids.length)] as string;
      const fit = relationSignatureFit({ rules, graph, subject: t.subject, relation: t.relation, object: o });
      if (!fit.fits) {
        broken++;
        expect(fit.object?.likelihoodRatio).toBeLessThan(0.5);
        expect(fit.summary).toMatch(/object breaks locatedIn's usual objects: it has none of the features \d+% of them have/);
      }
    }
    expect(broken).toBeGreaterThanOrEqual(tests.length / 2);
  });

  it("leaves the judged edge out of its own evidence (reviewing a delete)", () => {
    const edge = [...graph.edges.values()].find((e) => e.relation === "neighborOf") as { source: string; target: string; key: string };
    const p = predictEdge({ rules, graph, subject: edge.source, relation: "neighborOf", object: edge.target });
    const symmetric = p.firing.find((f) => f.rule.text === "neighborOf(y,x) ⇒ neighborOf(x,y)");
    // The reverse edge predicts it; the edge itself never appears in a path.
    expect(symmetric?.paths[0]).toEqual([graph.toTriple(graph.outEdges(edge.target).find((e) => e.target === edge.source) as never)]);
    for (const f of p.firing) {
      for (const path of f.paths) expect(path.some((t) => t.subject_id === edge.source && t.object_id === edge.target && t.relation === "neighborOf")).toBe(false);
    }
    // Leaving out the reverse edge too removes that rule's evidence.
    const reverse = graph.outEdges(edge.target).find((e) => e.target === edge.source && e.relation === "neighborOf");
    const q = predictEdge({ rules, graph, subject: edge.source, relation: "neighborOf", object: edge.target, excludeEdgeKeys: [reverse?.key ?? ""] });
    expect(q.firing.some((f) => f.rule.text === "neighborOf(y,x) ⇒ neighborOf(x,y)")).toBe(false);
  });

  it("mines length-3 rules (by default; length3Samples 0 leaves them out) and shows their stored paths, measured only where no shorter rule fires", () => {
    const long3 = rules;
    const located = long3.rulesByHead.get("locatedin") ?? [];
    const without = mineGraphRules({ graph, limits: { length3Samples: 0 } });
    expect((without.rulesByHead.get("locatedin") ?? []).some((r) => r.body.length === 3)).toBe(false);
    const long = located.find((r) => r.text === "neighborOf(z,x) ∧ locatedIn(z,w) ∧ locatedIn(w,y) ⇒ locatedIn(x,y)");
    expect(long?.body).toHaveLength(3);
    expect(long?.confidence).toBeGreaterThan(0.3);
    // A made-up region of the eval: Bulgaria is not in Asia, but its neighbour Turkey is in
    // Western Asia, which is in Asia — the rule fires, with a stored three-edge path.
    const p = predictEdge({ rules: long3, graph, subject: "bulgaria", relation: "locatedIn", object: "asia" });
    const firing = p.firing.find((f) => f.rule.text === long?.text);
    expect(firing).toBeDefined();
    expectStoredPath(graph, firing?.paths[0] ?? [], "bulgaria", "asia");
    // Shorter rules predict nearly every true locatedIn fact, so too few true facts lack them
    // for length-3 rules to be measured on: they do not speak for locatedIn here.
    const stats = long3.ruleStats.get("locatedin");
    expect(stats?.longRules).toBeGreaterThan(0);
    expect(stats?.longTrueSamples).toBeLessThan(10);
  });

  it("mines the same rules in slices as at once, reporting progress", () => {
    const miner = createGraphRulesMiner({ graph });
    expect(() => miner.result()).toThrow();
    let steps = 0;
    let last = 0;
    while (!miner.step(0)) {
      steps++;
      expect(miner.progress).toBeGreaterThanOrEqual(last);
      expect(miner.progress).toBeLessThan(1);
      last = miner.progress;
    }
    expect(steps).toBeGreaterThan(10);
    expect(miner.done).toBe(true);
    const sliced = miner.result();
    const text = (m: MinedGraphRules) => [...m.rulesByHead.values()].flat().map((r) => `${r.text} ${r.support} ${r.confidence.toFixed(6)}`);
    expect(text(sliced)).toEqual(text(rules));
    expect(sliced.stats.ms).toBeGreaterThanOrEqual(0);
  });

  it("a relation or node the graph lacks gets no evidence either way", () => {
    const p = predictEdge({ rules, graph, subject: "france", relation: "capitalOf", object: "europe" });
    expect(p.firing).toEqual([]);
    expect(p.summary).toMatch(/not in the graph/);
    const fit = relationSignatureFit({ rules, graph, subject: "atlantis", relation: "locatedIn", object: "europe" });
    expect(fit.subject?.likelihoodRatio).toBe(1);
    expect(fit.subject?.summary).toMatch(/new node/);
  });
});

describe("FB15k-237 sample: true held-out edges vs the same subject and relation with a random object", () => {
  let graph: KnowledgeGraph;
  let rules: MinedGraphRules;
  let tests: { subject: string; relation: string; object: string }[];
  beforeAll(() => {
    const gunzip = (file: string) => zlib.gunzipSync(fs.readFileSync(dataPath("fb15k237", file))).toString("utf8");
    // The first 100k training triples (the file is in no particular order) keep the test fast.
    graph = parseTriples(gunzip("train.tsv.gz").split("\n").slice(0, 100_000).join("\n"));
    rules = mineGraphRules({ graph });
    const all = parseTripleLines(gunzip("test.tsv.gz")).filter((t) => graph.nodes.has(t.subject) && graph.nodes.has(t.object));
    tests = all.filter((_, i) => i % 20 === 0).slice(0, 400);
  }, 180_000);

  it("rules fire far more often for true edges, and random objects break the range far more often", () => {
    const ids = [...graph.nodes.keys()];
    const pick = picker(11);
    let trueFire = 0;
    let fakeFire = 0;
    let trueBreak = 0;
    let fakeBreak = 0;
    for (const t of tests) {
      const fake = ids[pick(ids.length)] as string;
      const p = predictEdge({ rules, graph, ...t });
      const q = predictEdge({ rules, graph, ...t, object: fake });
      if (p.firing.length > 0) {
        trueFire++;
        for (const path of p.firing[0]?.paths ?? []) expectStoredPath(graph, path, t.subject, t.object);
      }
      if (q.firing.length > 0) fakeFire++;
      if (!relationSignatureFit({ rules, graph, ...t }).fits) trueBreak++;
      if (!relationSignatureFit({ rules, graph, ...t, object: fake }).fits) fakeBreak++;
    }
    const n = tests.length;
    expect(n).toBeGreaterThan(200);
    // A 100k-triple sample is sparser than the full graph (55% there): fewer rules fire.
    expect(trueFire / n).toBeGreaterThan(0.15);
    expect(trueFire).toBeGreaterThan(5 * Math.max(1, fakeFire));
    expect(fakeBreak / n).toBeGreaterThan(0.6);
    expect(trueBreak / n).toBeLessThan(0.1);
  });

  it("shared neighbours and like subjects single out true edges against objects as popular (another fact's object)", () => {
    const pick = picker(17);
    const objectsOf = new Map<string, string[]>();
    for (const e of graph.edges.values()) objectsOf.set(e.relation, [...(objectsOf.get(e.relation) ?? []), e.target]);
    const linked = (s: string, r: string, o: string) => graph.outEdges(s).some((e) => e.relation === r && e.target === o);
    let trueHits = 0;
    let fakeHits = 0;
    let fakes = 0;
    let shown = 0;
    for (const t of tests) {
      const p = predictByNeighbours({ rules, graph, ...t });
      if (Math.max(p.likelihoodRatio, p.similarLikelihoodRatio) >= 2) trueHits++;
      for (const n of p.shared) {
        expectStoredPath(graph, n.path, t.subject, t.object);
        expect(p.summary).toContain(n.label);
        shown++;
      }
      for (const n of p.similar) {
        expectStoredPath(graph, [...n.via, n.edge], t.subject, t.object);
        expect([n.edge.subject_id, n.edge.object_id]).toEqual([n.id, t.object]);
      }
      const pool = objectsOf.get(t.relation) ?? [];
      const fake = pool[pick(pool.length)] as string;
      if (fake === t.object || fake === t.subject || linked(t.subject, t.relation, fake)) continue;
      fakes++;
      const q = predictByNeighbours({ rules, graph, ...t, object: fake });
      if (Math.max(q.likelihoodRatio, q.similarLikelihoodRatio) >= 2) fakeHits++;
    }
    expect(shown).toBeGreaterThan(20);
    expect(fakes).toBeGreaterThan(200);
    // Measured against objects as popular as true ones, the ratio is what the signal is worth:
    // true edges reach ×2 more than twice as often as made-up ones of the right kind (77 of 400
    // vs 24 of 320 with the ratio of the score's band; "at least this much" read ×2 for 95 of 400
    // vs 45 of 320, a ×1.7 it claimed to be ×2 or more).
    expect(trueHits / tests.length).toBeGreaterThan(2 * (fakeHits / fakes));
    expect(trueHits / tests.length).toBeGreaterThan(0.15);
  });

  it("the judged fact is never its own shared-neighbour evidence", () => {
    const judged = (e: { source: string; relation: string; target: string }) => predictByNeighbours({ rules, graph, subject: e.source, relation: e.relation, object: e.target });
    const edge = [...graph.edges.values()].slice(0, 5_000).find((e) => judged(e).sharedCount > 0 && judged(e).similar.length > 0);
    expect(edge).toBeDefined();
    if (!edge) return;
    const p = judged(edge);
    const isJudged = (t: Triple) => t.subject_id === edge.source && t.object_id === edge.target && t.relation === edge.relation;
    for (const n of p.shared) {
      expect([edge.source, edge.target]).not.toContain(n.id);
      expect(n.path.some(isJudged)).toBe(false);
    }
    for (const n of p.similar) {
      expect(n.id).not.toBe(edge.source);
      expect(n.via.some(isJudged)).toBe(false);
      // The judged object is never the middle node of "shares the subject's neighbours".
      expect(n.via[0]?.subject_id === edge.target || n.via[0]?.object_id === edge.target).toBe(false);
    }
  });

  it("measures per relation how often rules fire for true edges vs random objects", () => {
    const stats = [...rules.ruleStats.values()].filter((s) => s.rules > 0 && s.sampledFacts >= 50);
    expect(stats.length).toBeGreaterThan(50);
    const recall = stats.reduce((a, s) => a + s.ruleRecall, 0) / stats.length;
    const random = stats.reduce((a, s) => a + s.randomFireRate, 0) / stats.length;
    expect(recall).toBeGreaterThan(5 * random);
  });

  it("measures recall on facts the rules were not found on: the held-out test facts fire about as often as measured", () => {
    // Before, recall was measured on the facts that chose the rules and overstated by 8–20
    // points; "no rule fires" then counted against true facts more than it should.
    let fired = 0;
    let expected = 0;
    let n = 0;
    for (const t of tests) {
      const p = predictEdge({ rules, graph, ...t });
      if (!p.relationStats || p.relationStats.rules === 0 || t.subject === t.object) continue;
      n++;
      expected += p.relationStats.ruleRecall;
      if (p.firing.some((f) => f.rule.body.length <= 2)) fired++;
    }
    expect(n).toBeGreaterThan(200);
    expect(Math.abs(expected / n - fired / n)).toBeLessThan(0.1);
  });

  it("disjoint links: a country never contains a person who holds its nationality, and held-out true facts are not flagged", () => {
    const contains = "/location/location/contains";
    const nationality = "/people/person/nationality";
    const stats = rules.disjoint.get(contains);
    expect(stats).toBeDefined();
    if (!stats) return;
    // "y --nationality--> x", seen from the country x: chosen on one half, measured on the other.
    const chosen = [...stats.chosen.keys()].map((a) => `${rules.index.display[a >> 1]}${a & 1 ? " (reverse)" : ""}`);
    expect(chosen).toContain(`${nationality} (reverse)`);
    expect(stats.trueLinked / stats.trueSamples).toBeLessThan(0.01);
    expect(stats.randomLinked / stats.randomSamples).toBeGreaterThan(0.02);
    // A made-up edge between a country and one of its nationals: the stored link is the evidence.
    const national = [...graph.edges.values()].find((e) => e.relation === nationality && !graph.outEdges(e.target).some((c) => c.relation === contains && c.target === e.source));
    expect(national).toBeDefined();
    if (!national) return;
    const [review] = reviewActions({ graph, actions: [ins(national.target, contains, national.source)], rules, documents: new Map() });
    const signal = review?.signals?.find((x) => x.kind === "disjoint");
    expect(signal?.contribution).toBeLessThan(-0.5);
    expect(signal?.positive).toBeFalsy();
    expect(signal?.summary).toContain(`--${nationality}--> `);
    expect(signal?.summary).toMatch(/ of \d+ held-out true \/location\/location\/contains pairs and \d+(\.\d)?% of \d+ random pairs \(×[\d.]+, at most ×[\d.]+ at 90% confidence\)$/);
    const cited = review?.evidence[signal?.evidence ?? -1];
    expect(cited?.path?.[0]).toMatchObject({ subject_id: national.source, relation: nationality, object_id: national.target });
    expect(review?.confidence).toBe("LOW");
    // The held-out test facts (true, absent from the sample): the signal almost never speaks against them.
    const flagged = reviewActions({ graph, actions: tests.map((t) => ins(t.subject, t.relation, t.object)), rules, documents: new Map() }).filter((r) => r.signals?.some((x) => x.kind === "disjoint")).length;
    expect(flagged).toBeLessThanOrEqual(Math.ceil(tests.length * 0.02));
  });

  it("a person's gender is functional: a second gender conflicts and names the stored one", () => {
    const gender = "/people/person/gender";
    const stats = rules.functional.get(gender);
    expect(stats?.isFunctional).toBe(true);
    const edge = [...graph.edges.values()].find((e) => e.relation === gender) as { source: string; target: string };
    const other = [...graph.edges.values()].find((e) => e.relation === gender && e.target !== edge.target)?.target as string;
    const check = functionalConflict({ rules, graph, subject: edge.source, relation: gender, object: other });
    expect(check.conflict).toBe(true);
    expect(check.otherObjects.map((t) => t.object_id)).toEqual([edge.target]);
    expect(check.summary).toMatch(/is functional \(\d+% of its [\d,]+ subjects have one object\); the subject already has/);
    // Reviewing the stored edge itself (a delete): no conflict with itself.
    expect(functionalConflict({ rules, graph, subject: edge.source, relation: gender, object: edge.target }).conflict).toBe(false);
  });
});

describe("MetaQA (WikiMovies): a third graph, other relations", () => {
  let graph: KnowledgeGraph;
  let rules: MinedGraphRules;
  beforeAll(() => {
    // The file is grouped by film: its first 40k lines are whole films with all their edges.
    // One cast edge removed, to be proposed again (the same-name rule below).
    const lines = readData("metaqa", "kb.txt").split("\n").slice(0, 40_000);
    graph = parseTriples(lines.filter((l) => l !== "Chopper|starred_actors|Eric Bana").join("\n"));
    rules = mineGraphRules({ graph });
  }, 180_000);

  it("release_year is functional as measured; a second year conflicts, a cast list does not", () => {
    const year = rules.functional.get("release year");
    expect(year?.isFunctional).toBe(true);
    expect(year?.multiObjectShare).toBeGreaterThan(0); // remakes share titles: measured, not assumed zero
    expect(rules.functional.get("starred actors")?.isFunctional).toBe(false);
    const film = [...graph.edges.values()].find((e) => e.relation === "release_year" && graph.outEdges(e.source).filter((o) => o.relation === "release_year").length === 1);
    const otherYear = [...graph.edges.values()].find((e) => e.relation === "release_year" && e.target !== film?.target)?.target as string;
    const check = functionalConflict({ rules, graph, subject: film?.source as string, relation: "release_year", object: otherYear });
    expect(check.conflict).toBe(true);
    expect(check.otherObjects.map((t) => t.object)).toEqual([film?.target]);
    const actor = [...graph.edges.values()].find((e) => e.relation === "starred_actors") as { source: string };
    expect(functionalConflict({ rules, graph, subject: actor.source, relation: "starred_actors", object: otherYear }).conflict).toBe(false);
  });

  it("a film as release year breaks the range; a year fits", () => {
    const e = [...graph.edges.values()].find((x) => x.relation === "release_year") as { source: string; target: string };
    const films = [...graph.edges.values()].filter((x) => x.relation === "directed_by").map((x) => x.source);
    const otherFilm = films.find((f) => f !== e.source) as string;
    expect(relationSignatureFit({ rules, graph, subject: e.source, relation: "release_year", object: e.target }).fits).toBe(true);
    const wrong = relationSignatureFit({ rules, graph, subject: e.source, relation: "release_year", object: otherFilm });
    expect(wrong.fits).toBe(false);
    expect(wrong.object?.likelihoodRatio).toBeLessThan(0.2);
  });

  it("a tag that is an actor's name: has_tags(x,z) ∧ same name(z,y) ⇒ starred_actors(x,y) is mined, measured and fires", () => {
    // Chopper is tagged "eric bana"; its cast edge to Eric Bana was removed: two nodes, one name (case aside).
    const rule = rules.rulesByHead.get("starred actors")?.find((r) => r.text === "has_tags(x,z) ∧ same name(z,y) ⇒ starred_actors(x,y)");
    expect(rule?.confidence).toBeGreaterThan(0.1);
    expect(rule?.support).toBeGreaterThan(100);
    const p = predictEdge({ rules, graph, subject: "Chopper", relation: "starred_actors", object: "Eric Bana" });
    const firing = p.firing.find((f) => f.rule.text === rule?.text);
    expect(firing?.paths[0]?.map((t) => [t.subject, t.relation, t.object])).toEqual([
      ["Chopper", "has_tags", "eric bana"],
      ["eric bana", "same name", "Eric Bana"],
    ]);
    // The link is the index's own, never a relation of the graph, and a made-up cast member gets nothing from it.
    expect([...graph.edges.values()].some((e) => e.relation === "same name")).toBe(false);
    expect(predictEdge({ rules, graph, subject: "Chopper", relation: "starred_actors", object: "Jason Statham" }).firing.some((f) => f.rule.text === rule?.text)).toBe(false);
    // Reviewed: the measured rule speaks for the removed edge; the made-up cast member stays LOW.
    const [bana, statham] = reviewActions({ graph, actions: [ins("Chopper", "starred_actors", "Eric Bana"), ins("Chopper", "starred_actors", "Jason Statham")], documents: new Map(), rules });
    expect(bana?.confidence).not.toBe("LOW");
    expect(bana?.signals?.find((x) => x.kind === "rule" && x.positive)?.summary).toMatch(/best has_tags\(x,z\) ∧ same name\(z,y\) ⇒ starred_actors\(x,y\) \(confidence 0\.\d\d; \d+% of \d+ held-out true starred_actors facts have a best rule about this confident, \d+% of \d+ random objects: ×\d+/);
    expect(statham?.confidence).toBe("LOW");
  });

  it("writer-directors: written_by(x,y) ⇒ directed_by(x,y) is mined with a measured confidence", () => {
    const rule = rules.rulesByHead.get("directed by")?.find((r) => r.text === "written_by(x,y) ⇒ directed_by(x,y)");
    expect(rule?.confidence).toBeGreaterThan(0.2);
    expect(rule?.confidence).toBeLessThan(0.9);
  });
});

describe("same source file (graphify rsl-siege-manager: a file's `contains` edge removed)", () => {
  type Link = Record<string, unknown>;
  const doc = JSON.parse(readData("graphify", "rsl-siege-manager", "graph.json")) as { nodes: Array<Record<string, unknown>>; links: Link[] };
  const end = (l: Link, side: "source" | "target") => String(l[side === "source" ? "_src" : "_tgt"] ?? l[side]);
  // backend/alembic/env.py contains run_migrations_offline(), defined in the same file.
  const removed = doc.links.find((l) => l.relation === "contains" && end(l, "source") === "backend_alembic_env_py" && end(l, "target") === "alembic_env_run_migrations_offline");
  const graph = graphFromGraphifyDocument({ ...doc, links: doc.links.filter((l) => l !== removed) } as never);
  const rules = mineGraphRules({ graph, limits: { embeddingDim: 0 } });

  it("is measured per relation on its facts against other objects of the relation, and predicts the removed edge", () => {
    expect(removed).toBeDefined();
    const p = predictBySameSource({ rules, subject: "backend_alembic_env_py", relation: "contains", object: "alembic_env_run_migrations_offline" });
    expect(p?.file).toBe("backend/alembic/env.py");
    const stats = rules.sameSource.get("contains");
    expect(stats?.trueSamples).toBeGreaterThanOrEqual(20);
    // Most `contains` facts stay in one file; other objects of the relation rarely share the subject's.
    expect((stats?.trueSame ?? 0) / (stats?.trueSamples ?? 1)).toBeGreaterThan(0.5);
    expect((stats?.otherSame ?? 0) / (stats?.otherSamples ?? 1)).toBeLessThan(0.1);
    expect(p?.bound.lower).toBeGreaterThanOrEqual(2);
  });

  it("a relation with few measured facts weighs its path rules against several random objects per fact", () => {
    // One random object per fact left a small relation's rules weighed against a few dozen random
    // objects (and fewer on a dense graph, where most draws are already linked to the subject).
    const few = [...rules.ruleStats.values()].filter((st) => st.rules > 0 && st.sampledFacts >= 10 && st.sampledFacts < 100);
    expect(few.length).toBeGreaterThan(0);
    for (const st of few) expect(st.randomSamples, st.relation).toBeGreaterThan(3 * st.sampledFacts);
    const many = [...rules.ruleStats.values()].filter((st) => st.rules > 0 && st.sampledFacts >= 100);
    for (const st of many) expect(st.randomSamples, st.relation).toBeLessThanOrEqual(st.sampledFacts);
  });

  it("says nothing for a node of another file, for a relation that crosses files, or on a graph without source files", () => {
    const other = [...graph.nodes.values()].find((n) => n.fileType === "code" && n.sourceFile && n.sourceFile !== "backend/alembic/env.py" && n.id !== "backend_alembic_env_py");
    expect(predictBySameSource({ rules, subject: "backend_alembic_env_py", relation: "contains", object: other?.id ?? "" })).toBeNull();
    // imports_from links a file to another file: measured, and "same file" is never evidence for it.
    const imports = rules.sameSource.get("imports from");
    if (imports) expect(imports.trueSame / imports.trueSamples).toBeLessThan(0.2);
    const countries = mineGraphRules({ graph: parseTriples(readData("countries_S1", "graph.txt"), { source: "graph.txt" }), limits: { embeddingDim: 0 } });
    expect(countries.sameSource.size).toBe(0);
  });
});
