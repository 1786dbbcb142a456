/**
 * Disjoint relations, mined from the graph (issue #10): "the pair is already linked by a
 * relation that this one (almost) never shares a pair with".
 *
 * Many graphs hold at most one relation between two nodes of certain kinds: a kinship term per
 * ordered pair of people, `locatedIn` and `neighborOf` between countries, a word's hypernym and
 * its hyponym. A made-up edge between two nodes that are already linked then contradicts what is
 * stored: `person12 term16 person31` when the graph says `person12 term8 person31`. In OWL terms
 * the two properties are disjoint (owl:propertyDisjointWith); here disjointness is never
 * declared, only measured, per relation r, on the graph's own facts:
 *
 * 1. sample up to `samples` facts of r and, for each, random nodes of the graph as objects (the
 *    same subject, a node r does not link it to); split both in two halves;
 * 2. on the first half, **choose** the links (relation and direction, seen from the subject) that
 *    r's own pairs carry less than a fifth as often as random pairs do (seen on ≥ 2 random pairs);
 * 3. on the other half, **measure** "the pair carries a chosen link": k of n true facts against
 *    j of m random pairs.
 *
 * The review weighs a proposal whose pair carries a chosen link by the upper 90% confidence bound
 * of that ratio (measured-ratio.ts: the conservative side for evidence against) and only when that
 * bound is below 1. It is only ever evidence against an insert: a link that r's facts share often
 * is a length-1 path rule's to say (mine-graph-rules.ts), and an unlinked pair says nothing.
 *
 * Pure: reads the mined RulesIndex; no I/O. Yields between relations (resumable mining).
 */
import type { KnowledgeGraph, Triple } from "../graph/model";
import type { RulesIndex } from "./rules-index";
import { flip, graphEnd, hasEntry, stride, tripleOf } from "./rules-index";
import { RATIO_CONFIDENCE_Z, measuredRatio, wilsonBound } from "./measured-ratio";

/** Per relation: the links chosen as disjoint with it, and what "the pair carries one" is worth. */
export interface DisjointStats {
  relation: string;
  /** Chosen links as CSR atoms seen from the subject (2·relation + 0 out, 1 in). */
  chosen: Set<number>;
  /** Measured on the other half: true facts carrying a chosen link, random pairs carrying one. */
  trueSamples: number;
  trueLinked: number;
  randomSamples: number;
  randomLinked: number;
}

export interface DisjointPrediction {
  relation: string;
  /** The stored edges between subject and object that carry a chosen link. */
  links: Triple[];
  stats: DisjointStats;
  /** (k + ½)/(n + 1) ÷ (j + ½)/(m + 1), as measuredRatio reads it. */
  ratio: number;
  /** Wilson upper bound of k/n ÷ Wilson lower bound of j/m (one-sided 90% each). */
  upper: number;
}

/** Facts a half must hold, on each side, before the relation's disjoint links say anything. */
const MIN_HALF = 20;
/** A link chosen as disjoint is this many times rarer on the relation's pairs than on random ones. */
const CHOOSE_RATIO = 0.2;
/** Random pairs drawn per sampled fact (at least this many in all per relation: up to 8 per fact). */
const RANDOM_PER_FACT = 2;
const MIN_RANDOM_PAIRS = 800;

/**
 * The CSR atoms on the pair (x, y) as seen from x (out: x → y, in: y → x), the graph's own edges
 * only (no "same name" links), read from the less connected end. `skip` is left out (the fact).
 */
export function linksOnPair(ix: RulesIndex, x: number, y: number, skip = -1): number[] {
  const dx = graphEnd(ix, x) - (ix.off[x] as number);
  const dy = graphEnd(ix, y) - (ix.off[y] as number);
  const fromX = dx <= dy;
  const u = fromX ? x : y;
  const v = fromX ? y : x;
  const out: number[] = [];
  const end = graphEnd(ix, u);
  for (let i = ix.off[u] as number; i < end; i++) {
    if (ix.nbr[i] !== v) continue;
    const a = fromX ? (ix.atom[i] as number) : flip(ix.atom[i] as number);
    if (a !== skip && !out.includes(a)) out.push(a);
  }
  return out;
}

/** Mines the disjoint links of every relation with enough facts. */
export function* measureDisjointRelations(ix: RulesIndex, samples: number, random: () => number): Generator<number, Map<string, DisjointStats>> {
  const out = new Map<string, DisjointStats>();
  const R = ix.keys.length;
  if (samples <= 0 || ix.n < 3) return out;
  for (let r = 0; r < R; r++) {
    if (r === ix.sameName) continue;
    const S = ix.factS[r] as Int32Array;
    const O = ix.factO[r] as Int32Array;
    const picked = stride(S.length, samples);
    if (picked.length < 2 * MIN_HALF) continue;
    const self = 2 * r;
    const per = Math.max(RANDOM_PER_FACT, Math.min(8, Math.ceil(MIN_RANDOM_PAIRS / picked.length)));
    const half: { trueLinks: number[][]; randomLinks: number[][] }[] = [
      { trueLinks: [], randomLinks: [] },
      { trueLinks: [], randomLinks: [] },
    ];
    picked.forEach((i, at) => {
      const x = S[i] as number;
      const h = half[at % 2] as (typeof half)[number];
      h.trueLinks.push(linksOnPair(ix, x, O[i] as number, self));
      for (let d = 0; d < per; d++) {
        // A node of the graph the relation does not link x to (drawn again up to 8 times).
        for (let tries = 0; tries < 8; tries++) {
          const z = Math.floor(random() * ix.n);
          if (z === x || hasEntry(ix, x, self, z)) continue;
          h.randomLinks.push(linksOnPair(ix, x, z, self));
          break;
        }
      }
    });
    const [choose, measure] = half as [(typeof half)[number], (typeof half)[number]];
    if (choose.randomLinks.length < MIN_HALF || measure.randomLinks.length < MIN_HALF) continue;
    const count = (lists: number[][]) => {
      const c = new Map<number, number>();
      for (const list of lists) for (const a of list) c.set(a, (c.get(a) ?? 0) + 1);
      return c;
    };
    const onTrue = count(choose.trueLinks);
    const onRandom = count(choose.randomLinks);
    const nC = choose.trueLinks.length;
    const mC = choose.randomLinks.length;
    const chosen = new Set<number>();
    for (const [a, j] of onRandom) {
      if (j >= 2 && measuredRatio(onTrue.get(a) ?? 0, nC, j, mC).ratio < CHOOSE_RATIO) chosen.add(a);
    }
    const carries = (list: readonly number[]) => list.some((a) => chosen.has(a));
    out.set(ix.keys[r] as string, {
      relation: ix.display[r] as string,
      chosen,
      trueSamples: measure.trueLinks.length,
      trueLinked: measure.trueLinks.filter(carries).length,
      randomSamples: measure.randomLinks.length,
      randomLinked: measure.randomLinks.filter(carries).length,
    });
    yield (r + 1) / R;
  }
  return out;
}

/**
 * Whether the pair (x, y) already carries a link disjoint with the relation, and what that is
 * worth. Null when the relation was not measured, no link was chosen or the pair carries none.
 */
export function predictByDisjointRelations(
  ix: RulesIndex,
  stats: ReadonlyMap<string, DisjointStats>,
  graph: KnowledgeGraph,
  relationKey: string,
  x: number,
  y: number,
): DisjointPrediction | null {
  const s = stats.get(relationKey);
  const r = ix.keyNumber.get(relationKey);
  if (!s || r === undefined || s.chosen.size === 0 || x < 0 || y < 0 || x === y) return null;
  const on = linksOnPair(ix, x, y, 2 * r).filter((a) => s.chosen.has(a));
  if (on.length === 0) return null;
  const links = on.map((a) => tripleOf(graph, ix, x, a, y));
  const { trueLinked: k, trueSamples: n, randomLinked: j, randomSamples: m } = s;
  const { ratio } = measuredRatio(k, n, j, m);
  const low = wilsonBound(j, m, "lower", RATIO_CONFIDENCE_Z);
  const upper = low > 0 ? wilsonBound(k, n, "upper", RATIO_CONFIDENCE_Z) / low : Number.POSITIVE_INFINITY;
  return { relation: s.relation, links, stats: s, ratio, upper };
}
