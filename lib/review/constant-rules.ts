/**
 * Rules with a constant, mined from the graph (issue #10): "nodes that have f have r → c".
 *
 * A path rule links subject and object through the graph; many true facts have no such path but
 * follow from what the subject is: people whose nationality is Ireland mostly have the religion
 * Catholicism, schools in one district share a school type, an ethnicity's people share other
 * traits. In the style of AnyBURL's rules with constants, the rule is
 *
 *     r(x, c) ⇐ f(x, d)        (or, with the subject constant, r(c, x) ⇐ f(x, d))
 *
 * where c is the proposed object (subject), f(x, d) one of the subject's (object's) own edges,
 * and its confidence is support / (body + 5): support = other nodes with f(x, d) that have
 * r(x, c), body = other nodes with f(x, d) (the +5 keeps a rule seen twice from counting as sure).
 * Rules are not enumerated ahead: for a query the best rule is found by meeting the two node sets
 * in the CSR index (cost: the subject's degree × the smaller set, capped).
 *
 * What a firing rule is worth is measured per relation at mining, never assumed: held-out true
 * facts (leave-one-out) against the same subject with **another fact's object of the same
 * relation** — as popular and of the same kind, so a fitting kind earns nothing. The evidence is
 * the likelihood ratio of *a rule about this confident* — true against other facts in the band of
 * confidences the query falls in, the bands cut by isotonic regression (`ratioBands`) — not of "a
 * rule at least this confident": that tail ratio is the mean ratio of every confidence above the
 * query's, so a weak rule borrowed the worth of the strong ones (MetaQA kb.txt: Lockout never
 * starred Charlie Sheen; `starred_actors(x, Charlie Sheen) ⇐ has_genre(x, Action)`, 6 of 885,
 * confidence 0.007, read ×21 because a third of held-out true facts have a rule at least that
 * confident against 1% of other objects; rules that weak hold for 2.5% of both: ×1.3).
 * It is also measured against the same subject with a uniformly random node (`bandsRandom`),
 * the made-up edge of issue #10: the review reads that ratio for inserts where the rule holds
 * often enough to predict the fact but not to single the object out (review-actions.ts). It
 * predicts, it never states, so it can make a proposal MEDIUM, never HIGH on its own.
 *
 * Pure: reads the mined RulesIndex; no I/O.
 */
import type { KnowledgeGraph, Triple } from "../graph/model";
import type { RulesIndex } from "./rules-index";
import { atomRange, flip, graphEnd, hasEntry, rng, stride, tripleOf } from "./rules-index";
import { measuredRatio, type MeasuredRatio } from "./measured-ratio";

/** Per relation: the best constant-rule confidences of held-out facts, both ascending. */
export interface ConstantRuleModel {
  relation: string;
  /** Held-out true facts of the relation (leave-one-out). */
  scoresTrue: number[];
  /** The fact's subject with the object of another, random fact of the relation, not linked to it. */
  scoresOther: number[];
  /** The bands of confidence whose ratio a query reads (`ratioBands` of the two lists), ascending. */
  bands: RatioBand[];
  /** The fact's subject with a uniformly random node, not linked to it by the relation (the made-up edge of issue #10). */
  scoresRandom: number[];
  /** `ratioBands` of true facts against random nodes. */
  bandsRandom: RatioBand[];
}

/** A band of confidences and the held-out true facts and other objects whose best rule falls in it. */
export interface RatioBand {
  /** Lowest and highest measured confidence in the band. */
  from: number;
  to: number;
  kTrue: number;
  kOther: number;
}

export interface ConstantRulePrediction {
  relation: string;
  /** Best rule confidence, 0 when no rule fires. */
  confidence: number;
  support: number;
  body: number;
  /** "object": r(x, object) ⇐ f(x, d) judged for the subject; "subject": r(subject, x) ⇐ f(x, d) for the object. */
  constant: "object" | "subject";
  /** The rule in words, e.g. `/people/person/religion(x, Catholicism) ⇐ /people/person/nationality(x, Ireland)`. */
  rule: string;
  /** The judged node's own edge that matches the body, stored direction. */
  body_edge: Triple | null;
  /** Other nodes the rule holds for: their body edge and their r-edge, stored direction. */
  examples: { label: string; edges: Triple[] }[];
  /** Shares of held-out true facts and of other objects whose best rule falls in the query's band. */
  trueShare: number;
  otherShare: number;
  /** The band of measured confidences the query falls in ([0, 0] when no rule fires). */
  band: [number, number];
  /** Shares of held-out true facts and of other objects with a rule at least this confident (shown, not weighed). */
  atLeastTrueShare: number;
  atLeastOtherShare: number;
  /** trueShare / otherShare, add-½ smoothed; 1 when no rule fires or nothing was measured. */
  likelihoodRatio: number;
  samples: number;
  /** Other objects measured. */
  otherSamples: number;
  /** True facts against random nodes in the query's band of the random comparison, with its lower bound. */
  random: MeasuredRatio | null;
}

/** Other objects measured per held-out true fact. */
const OTHERS_PER_FACT = 4;

/** The smoothing constant of the confidence (AnyBURL's "pc"). */
const CONFIDENCE_PENALTY = 5;
const MIN_SUPPORT = 2;
/** Node visits per query (marking X, scanning bodies) before the search stops with the best rule so far. */
const MAX_WORK = 30_000;

interface BestRule {
  conf: number;
  support: number;
  body: number;
  constant: "object" | "subject";
  /** The judged node v, the constant c, v's body entry (atom, d). */
  v: number;
  c: number;
  atom: number;
  d: number;
}

/**
 * The most confident rule with a constant predicting r(s, o), s and o node numbers (o may be
 * -1: an object not in the graph — then only nothing). The fact itself never supports itself:
 * the judged node is left out of every count and r between s and o is no body.
 */
export function bestConstantRule(ix: RulesIndex, s: number, r: number, o: number): BestRule | null {
  if (s < 0 || o < 0 || r < 0) return null;
  const mark = marks(ix);
  let best: BestRule | null = null;
  let work = 0;
  for (const constant of ["object", "subject"] as const) {
    const c = constant === "object" ? o : s;
    const v = constant === "object" ? s : o;
    // X: nodes x with r(x, c) (object constant) or r(c, x) (subject constant), marked for O(1) membership.
    const fromC = constant === "object" ? 2 * r + 1 : 2 * r;
    const [xs, xe] = atomRange(ix, c, fromC);
    const nX = xe - xs - (hasEntry(ix, c, fromC, v) ? 1 : 0);
    if (nX < MIN_SUPPORT) continue;
    const epoch = ++mark.epoch;
    for (let i = xs; i < xe; i++) mark.stamp[ix.nbr[i] as number] = epoch;
    mark.stamp[v] = 0;
    work += nX;
    const lo = ix.off[v] as number;
    const hi = graphEnd(ix, v); // "has a namesake" is no body: the index's own link is a path-rule atom only
    for (let j = lo; j < hi && work < MAX_WORK; j++) {
      const a = ix.atom[j] as number;
      const d = ix.nbr[j] as number;
      if (d === c && a >> 1 === r) continue; // the judged fact (either direction) is no body
      const [fs, fe] = atomRange(ix, d, flip(a));
      const body = fe - fs - 1; // v itself has f(v, d)
      if (body < MIN_SUPPORT) continue;
      if (best && Math.min(nX, body) / (body + CONFIDENCE_PENALTY) <= best.conf) continue;
      let support = 0;
      for (let i = fs; i < fe; i++) if (mark.stamp[ix.nbr[i] as number] === epoch) support++;
      work += body;
      if (support < MIN_SUPPORT) continue;
      const conf = support / (body + CONFIDENCE_PENALTY);
      if (!best || conf > best.conf) best = { conf, support, body, constant, v, c, atom: a, d };
    }
  }
  return best;
}

/** Per index: a stamp per node, so "is x in X" is one array read (epochs avoid clearing). */
const markScratch = new WeakMap<RulesIndex, { stamp: Int32Array; epoch: number }>();
function marks(ix: RulesIndex): { stamp: Int32Array; epoch: number } {
  let m = markScratch.get(ix);
  if (!m || m.epoch > 2_000_000_000) {
    m = { stamp: new Int32Array(ix.n), epoch: 0 };
    markScratch.set(ix, m);
  }
  return m;
}

/**
 * Measures, per relation, how confident the best constant rule is for held-out true facts and
 * for the same subject with another fact's object. Yields between relations (resumable mining).
 */
export function* mineConstantModels(
  ix: RulesIndex,
  samples: number,
  random: () => number,
): Generator<number, Map<string, ConstantRuleModel>> {
  const out = new Map<string, ConstantRuleModel>();
  const R = ix.keys.length;
  // Its own stream, so drawing random nodes leaves the other objects' draws as they were.
  const randomNode = rng(0x5bd1e995);
  for (let r = 0; r < R; r++) {
    const S = ix.factS[r] as Int32Array;
    const O = ix.factO[r] as Int32Array;
    const scoresTrue: number[] = [];
    const scoresOther: number[] = [];
    const scoresRandom: number[] = [];
    if (S.length >= 2) {
      for (const i of stride(S.length, samples)) {
        const s = S[i] as number;
        const o = O[i] as number;
        const conf = bestConstantRule(ix, s, r, o)?.conf ?? 0;
        scoresTrue.push(conf);
        // Several other objects per true fact: the other side's tail (few of them reach a
        // confidence) is what the ratio divides by, and one draw per fact leaves it at 0 of 40
        // by chance (×17 for a rule right 1% of the time on MetaQA).
        let drawn = 0;
        for (let tries = 0; tries < 4 * OTHERS_PER_FACT && drawn < OTHERS_PER_FACT; tries++) {
          const other = O[Math.floor(random() * O.length)] as number;
          if (other === o || other === s || hasEntry(ix, s, 2 * r, other)) continue;
          const otherConf = bestConstantRule(ix, s, r, other)?.conf ?? 0;
          scoresOther.push(otherConf);
          drawn++;
        }
        // And uniformly random nodes: what a made-up object drawn from the whole graph looks like.
        drawn = 0;
        for (let tries = 0; tries < 4 * OTHERS_PER_FACT && drawn < OTHERS_PER_FACT; tries++) {
          const u = Math.floor(randomNode() * ix.n);
          if (u === o || u === s || hasEntry(ix, s, 2 * r, u)) continue;
          scoresRandom.push(bestConstantRule(ix, s, r, u)?.conf ?? 0);
          drawn++;
        }
      }
    }
    for (const a of [scoresTrue, scoresOther, scoresRandom]) a.sort((x, y) => x - y);
    out.set(ix.keys[r] as string, {
      relation: ix.display[r] as string,
      scoresTrue,
      scoresOther,
      bands: ratioBands(scoresTrue, scoresOther),
      scoresRandom,
      bandsRandom: ratioBands(scoresTrue, scoresRandom),
    });
    yield (r + 1) / R;
  }
  return out;
}

/**
 * Bands of confidence over which the share of true facts among the measured ones (true and other
 * weighed equally, 1/n and 1/m) never falls as confidence rises: pool-adjacent-violators, the
 * isotonic regression of Zadrozny & Elkan's calibration. Equal confidences share a band. A band's
 * ratio is then a density ratio — how much likelier a rule about this confident is for a true fact
 * than for another object — and it never falls as confidence rises. No parameter: where the
 * measured facts do not separate, the bands merge and the ratio is about 1.
 */
export function ratioBands(scoresTrue: readonly number[], scoresOther: readonly number[]): RatioBand[] {
  const nT = scoresTrue.length;
  const nO = scoresOther.length;
  if (nT === 0 || nO === 0) return [];
  const points = [...scoresTrue.map((x) => ({ x, t: 1 })), ...scoresOther.map((x) => ({ x, t: 0 }))].sort((a, b) => a.x - b.x || b.t - a.t);
  // Balanced share of true in a band: (kT/nT) / (kT/nT + kO/nO), compared by cross-multiplying.
  const below = (a: RatioBand, b: RatioBand) => a.kTrue * nO * (b.kTrue * nO + b.kOther * nT) < b.kTrue * nO * (a.kTrue * nO + a.kOther * nT);
  const bands: RatioBand[] = [];
  for (const p of points) {
    const last = bands[bands.length - 1];
    if (last && last.to === p.x) {
      if (p.t) last.kTrue++;
      else last.kOther++;
    } else bands.push({ from: p.x, to: p.x, kTrue: p.t, kOther: 1 - p.t });
    for (;;) {
      const b = bands[bands.length - 1] as RatioBand;
      const a = bands[bands.length - 2];
      if (!a || below(a, b)) break;
      bands.splice(bands.length - 2, 2, { from: a.from, to: b.to, kTrue: a.kTrue + b.kTrue, kOther: a.kOther + b.kOther });
    }
  }
  return bands;
}

/** The band a confidence falls in: the last whose lowest confidence is ≤ it (between bands, the lower one). */
export function bandOf(bands: readonly RatioBand[], x: number): RatioBand | null {
  let lo = 0;
  let hi = bands.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((bands[mid] as RatioBand).from <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 ? (bands[lo - 1] as RatioBand) : null;
}

/** How many of the sorted scores are ≥ x. */
function countAtLeast(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return sorted.length - lo;
}

/** (k of n true vs j of m other), add-½ smoothed. */
function ratio(k: number, n: number, j: number, m: number): number {
  return ((k + 0.5) / (n + 1)) / ((j + 0.5) / (m + 1));
}

/** The best rule with a constant for (subject, relation, object), with its measured worth. */
export function predictByConstants({
  rules,
  graph,
  subject,
  relation,
  object,
  relationKey,
}: {
  rules: { index: RulesIndex; constants: ReadonlyMap<string, ConstantRuleModel> };
  graph: KnowledgeGraph;
  subject: string;
  relation: string;
  object: string;
  /** The relation's normalised key, as the mined rules store it. */
  relationKey: string;
}): ConstantRulePrediction {
  const ix = rules.index;
  const model = rules.constants.get(relationKey) ?? null;
  const r = ix.keyNumber.get(relationKey) ?? -1;
  const none: ConstantRulePrediction = {
    relation: model?.relation ?? relation,
    confidence: 0,
    support: 0,
    body: 0,
    constant: "object",
    rule: "",
    body_edge: null,
    examples: [],
    trueShare: 0,
    otherShare: 0,
    band: [0, 0],
    atLeastTrueShare: 0,
    atLeastOtherShare: 0,
    likelihoodRatio: 1,
    samples: model?.scoresTrue.length ?? 0,
    otherSamples: model?.scoresOther.length ?? 0,
    random: null,
  };
  const best = bestConstantRule(ix, ix.numberOf.get(subject) ?? -1, r, ix.numberOf.get(object) ?? -1);
  const band = model ? bandOf(model.bands, best?.conf ?? 0) : null;
  if (!best || !model || !band || model.scoresTrue.length === 0 || model.scoresOther.length === 0) return none;
  const nT = model.scoresTrue.length;
  const nO = model.scoresOther.length;
  const label = (u: number): string => {
    const id = ix.ids[u] ?? "";
    return graph.nodes.get(id)?.label ?? id;
  };
  const name = ix.display[r] as string;
  const bodyName = ix.display[best.atom >> 1] as string;
  const bodyText = best.atom & 1 ? `${bodyName}(${label(best.d)}, x)` : `${bodyName}(x, ${label(best.d)})`;
  const head = best.constant === "object" ? `${name}(x, ${label(best.c)})` : `${name}(${label(best.c)}, x)`;
  // Examples: other nodes with the body edge and the head edge.
  const fromC = best.constant === "object" ? 2 * r + 1 : 2 * r;
  const [fs, fe] = atomRange(ix, best.d, flip(best.atom));
  const examples: { label: string; edges: Triple[] }[] = [];
  for (let i = fs; i < fe && examples.length < 3; i++) {
    const x = ix.nbr[i] as number;
    if (x === best.v || x === best.c || !hasEntry(ix, x, flip(fromC), best.c)) continue;
    examples.push({ label: label(x), edges: [tripleOf(graph, ix, x, best.atom, best.d), tripleOf(graph, ix, x, flip(fromC), best.c)] });
  }
  return {
    relation: name,
    confidence: best.conf,
    support: best.support,
    body: best.body,
    constant: best.constant,
    rule: `${head} ⇐ ${bodyText}`,
    body_edge: tripleOf(graph, ix, best.v, best.atom, best.d),
    examples,
    trueShare: band.kTrue / nT,
    otherShare: band.kOther / nO,
    band: [band.from, band.to],
    atLeastTrueShare: countAtLeast(model.scoresTrue, best.conf) / nT,
    atLeastOtherShare: countAtLeast(model.scoresOther, best.conf) / nO,
    likelihoodRatio: ratio(band.kTrue, nT, band.kOther, nO),
    samples: nT,
    otherSamples: nO,
    random: randomRatio(model, best.conf),
  };
}

/** True facts against random nodes in the band of the random comparison that `conf` falls in. */
function randomRatio(model: ConstantRuleModel, conf: number): MeasuredRatio | null {
  const band = bandOf(model.bandsRandom, conf);
  if (!band || model.scoresTrue.length === 0 || model.scoresRandom.length === 0) return null;
  return measuredRatio(band.kTrue, model.scoresTrue.length, band.kOther, model.scoresRandom.length);
}
