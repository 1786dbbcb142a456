/**
 * A link predictor learned from the graph itself (issue #10): ComplEx embeddings (Trouillon et
 * al. 2016) trained at mining time on the mined RulesIndex, in plain typed arrays, a fixed number
 * of epochs (deterministic, seeded).
 *
 * It is evidence only as far as it is measured: per relation, up to `heldOut` facts are kept out
 * of training; after training each is ranked among the relation's objects for its subject
 * (filtered: the subject's other known objects are not competitors), and so is the same subject
 * with **another fact's object of the relation** (as popular, of the same kind, not linked to
 * it). A proposal's rank is weighed by the likelihood ratio P(rank this good | true) /
 * P(rank this good | other object) on those held-out facts; a model that only learned kinds
 * earns nothing. It predicts, it never states: MEDIUM at most on its own.
 *
 * Training: logistic loss with negative sampling (per fact two objects of other facts of the
 * relation, one uniform node, one subject of another fact of the relation), Adagrad, small L2.
 *
 * Pure: reads the RulesIndex; no I/O. Yields between chunks of work (resumable mining).
 */
import type { RulesIndex } from "./rules-index";
import { hasEntry, rng, stride } from "./rules-index";
import type { MeasuredRatio } from "./measured-ratio";
import { measuredRatio } from "./measured-ratio";

export interface EmbeddingLimits {
  /** Complex dimensions (each is two floats; default 32). 0 turns the model off. */
  dim: number;
  /** Passes over the training facts (default 4). */
  epochs: number;
  /** Held-out facts per relation that measure the ranks (default 50; at most a tenth of its facts, none below 20). */
  heldOut: number;
  seed: number;
  /** Adagrad's step (default 0.1). */
  learningRate?: number;
  /** Other objects ranked against each held-out fact to measure the ratio's other side (default 1; see MineLimits.embeddingOthersPerFact). */
  othersPerFact?: number;
  /** Other facts' objects of the relation drawn as negatives per training fact (default 2). */
  negatives?: number;
  /** "logistic" (default): one logistic loss per target; "softmax": cross-entropy over the fact and its negatives. */
  loss?: "logistic" | "softmax";
}

export const DEFAULT_EMBEDDING_LIMITS: Readonly<EmbeddingLimits> = Object.freeze({ dim: 32, epochs: 4, heldOut: 50, seed: 7, othersPerFact: 1 });

/** Per relation: filtered rank percentiles (0 best, 1 worst) of held-out facts, ascending. */
export interface EmbeddingCalibration {
  relation: string;
  ranksTrue: number[];
  ranksOther: number[];
}

export interface EmbeddingModel {
  dim: number;
  epochs: number;
  /** Entity vectors: node u at [u·2k, u·2k+k) real, [u·2k+k, (u+1)·2k) imaginary. */
  entity: Float32Array;
  relation: Float32Array;
  /** Distinct objects per relation number: the candidates a proposal's object is ranked among. */
  candidates: Int32Array[];
  calibration: Map<string, EmbeddingCalibration>;
  /** Facts trained on and held out. */
  trained: number;
  heldOutFacts: number;
}

export interface EmbeddingPrediction {
  relation: string;
  /** 1-based filtered rank of the object among the relation's objects for this subject. */
  rank: number;
  /** Candidates it was ranked among (the relation's objects, the subject's known ones left out). */
  of: number;
  /** (rank − 1) / (of − 1): 0 best. */
  percentile: number;
  /** Share of held-out true facts whose rank percentile is in the band around this one. */
  trueShare: number;
  /** The same share of other objects of the relation. */
  otherShare: number;
  /** Share of held-out true facts ranked at least this well (percentile ≤ this one). */
  atLeastTrueShare: number;
  /** The same share of other objects of the relation. */
  atLeastOtherShare: number;
  /**
   * The smaller of the band's ratio (trueShare / otherShare) and the "at least this well" ratio
   * (atLeastTrueShare / atLeastOtherShare), each add-½ smoothed: a rank is evidence only where
   * it is both denser among true facts locally and good overall. A band of five true ranks with
   * no other object in it happens by chance in a middling region (percentile 0.74 at ×11 on
   * MetaQA); the overall ratio is about 1 there.
   */
  likelihoodRatio: number;
  /** Of the two ratios, the one with the smaller lower confidence bound (measured-ratio.ts), with its counts. */
  bound: MeasuredRatio;
  samples: number;
}

/** Held-out facts a relation needs before its ranks say anything. */
const MIN_MEASURED = 20;
/** True held-out facts the band around a rank must hold. */
const MIN_TAIL = 5;
const L2 = 1e-4;
const CHUNK = 2_000;

function score(ent: Float32Array, rel: Float32Array, k: number, s: number, r: number, o: number): number {
  const sb = s * 2 * k;
  const rb = r * 2 * k;
  const ob = o * 2 * k;
  let v = 0;
  for (let i = 0; i < k; i++) {
    const sr = ent[sb + i] as number;
    const si = ent[sb + k + i] as number;
    const rr = rel[rb + i] as number;
    const ri = rel[rb + k + i] as number;
    const or = ent[ob + i] as number;
    const oi = ent[ob + k + i] as number;
    v += sr * rr * or + si * rr * oi + sr * ri * oi - si * ri * or;
  }
  return v;
}

/** Trains the model and measures it per relation. Returns null when `dim` is 0. */
export function* trainEmbeddings(ix: RulesIndex, limits: EmbeddingLimits): Generator<number, EmbeddingModel | null> {
  const k = limits.dim;
  if (k <= 0 || limits.epochs <= 0) return null;
  const random = rng(limits.seed);
  const learningRate = limits.learningRate ?? 0.1;
  const R = ix.keys.length;
  const n = ix.n;
  // Held-out facts: an even stride per relation, at most a tenth of its facts.
  const held: Int32Array[] = [];
  const trS: number[] = [];
  const trR: number[] = [];
  const trO: number[] = [];
  let heldOutFacts = 0;
  for (let r = 0; r < R; r++) {
    // The index's "same name" links are path-rule atoms only (rules-index.ts), not facts to learn.
    const S = r === ix.sameName ? new Int32Array(0) : (ix.factS[r] as Int32Array);
    const O = ix.factO[r] as Int32Array;
    const h = Math.min(limits.heldOut, Math.floor(S.length / 10));
    const picked = h >= MIN_MEASURED ? stride(S.length, h) : [];
    held.push(Int32Array.from(picked));
    heldOutFacts += picked.length;
    const out = new Set(picked);
    for (let i = 0; i < S.length; i++) {
      if (out.has(i)) continue;
      trS.push(S[i] as number);
      trR.push(r);
      trO.push(O[i] as number);
    }
    if (r % 16 === 15) yield 0; // the set-up is a pass over every fact: slice it too
  }
  const candidates: Int32Array[] = [];
  for (let r = 0; r < R; r++) {
    candidates.push(Int32Array.from(new Set(ix.factO[r] as Int32Array)).sort());
    if (r % 16 === 15) yield 0;
  }
  const ent = new Float32Array(n * 2 * k);
  const rel = new Float32Array(R * 2 * k);
  const scale = 1 / Math.sqrt(k);
  for (let i = 0; i < ent.length; i++) ent[i] = (random() * 2 - 1) * scale;
  // The "same name" relation (last, never trained) keeps a zero vector, so the draws for every
  // other parameter are the ones a graph without namesakes gets.
  const trainedRel = (ix.sameName >= 0 ? ix.sameName : R) * 2 * k;
  for (let i = 0; i < trainedRel; i++) rel[i] = (random() * 2 - 1) * scale;
  yield 0;
  const accE = new Float64Array(n).fill(1e-6);
  const accR = new Float64Array(R).fill(1e-6);
  const sr = new Float64Array(2 * k);
  const gsr = new Float64Array(2 * k);
  const gv = new Float64Array(2 * k);
  const a0 = new Float64Array(2 * k);
  const m = trS.length;
  const order = Int32Array.from({ length: m }, (_, i) => i);
  const negatives = Math.max(1, limits.negatives ?? 2);
  const softmax = limits.loss === "softmax";
  const targets = new Int32Array(negatives + 2);
  const labels = new Float64Array(negatives + 2);
  const logits = new Float64Array(negatives + 2);

  // Row-wise Adagrad (one accumulator per vector, as PyTorch-BigGraph does): a square root per row.
  const step = (arr: Float32Array, acc: Float64Array, row: number, g: Float64Array): void => {
    let sq = 0;
    for (let i = 0; i < 2 * k; i++) sq += (g[i] as number) ** 2;
    acc[row] = (acc[row] as number) + sq / (2 * k);
    const rate = learningRate / Math.sqrt(acc[row]);
    const base = row * 2 * k;
    for (let i = 0; i < 2 * k; i++) arr[base + i] = (arr[base + i] as number) - rate * (g[i] as number);
  };

  /** One subject and relation against several objects (the fact and its corruptions): s∘r is computed once. */
  const train = (s: number, r: number, count: number): void => {
    const sb = s * 2 * k;
    const rb = r * 2 * k;
    subjectTimesRelation(ent, rel, k, s, r, sr);
    gsr.fill(0);
    if (softmax && count > 1) {
      let max = -Infinity;
      for (let t = 0; t < count; t++) {
        const ob = (targets[t] as number) * 2 * k;
        let x = 0;
        for (let i = 0; i < 2 * k; i++) x += (sr[i] as number) * (ent[ob + i] as number);
        logits[t] = x;
        if (x > max) max = x;
      }
      let z = 0;
      for (let t = 0; t < count; t++) z += Math.exp((logits[t] as number) - max);
      for (let t = 0; t < count; t++) logits[t] = Math.exp((logits[t] as number) - max) / z;
    }
    for (let t = 0; t < count; t++) {
      const o = targets[t] as number;
      const y = labels[t] as number;
      const ob = o * 2 * k;
      let x = 0;
      for (let i = 0; i < 2 * k; i++) x += (sr[i] as number) * (ent[ob + i] as number);
      // d/dx softplus(−y·x) = −y·σ(−y·x); softmax: p − [y = 1]
      const g = softmax && count > 1 ? (logits[t] as number) - (y > 0 ? 1 : 0) : -y / (1 + Math.exp(y * x));
      for (let i = 0; i < 2 * k; i++) {
        gsr[i] = (gsr[i] as number) + g * (ent[ob + i] as number);
        gv[i] = g * (sr[i] as number) + L2 * (ent[ob + i] as number);
      }
      step(ent, accE, o, gv);
    }
    // Chain rule through s∘r: ∂/∂s = conj-ish products with r, ∂/∂r with s.
    for (let i = 0; i < k; i++) {
      const gre = gsr[i] as number;
      const gim = gsr[k + i] as number;
      const c = rel[rb + i] as number;
      const d = rel[rb + k + i] as number;
      gv[i] = gre * c + gim * d + L2 * (ent[sb + i] as number);
      gv[k + i] = -gre * d + gim * c + L2 * (ent[sb + k + i] as number);
    }
    a0.set(gv);
    for (let i = 0; i < k; i++) {
      const gre = gsr[i] as number;
      const gim = gsr[k + i] as number;
      const a = ent[sb + i] as number;
      const b = ent[sb + k + i] as number;
      gv[i] = gre * a + gim * b + L2 * (rel[rb + i] as number);
      gv[k + i] = -gre * b + gim * a + L2 * (rel[rb + k + i] as number);
    }
    step(rel, accR, r, gv);
    step(ent, accE, s, a0);
  };

  const steps = limits.epochs * m;
  let done = 0;
  for (let epoch = 0; epoch < limits.epochs; epoch++) {
    for (let i = m - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      const t = order[i] as number;
      order[i] = order[j] as number;
      order[j] = t;
    }
    for (let t = 0; t < m; t++) {
      const f = order[t] as number;
      const s = trS[f] as number;
      const r = trR[f] as number;
      const o = trO[f] as number;
      const O = ix.factO[r] as Int32Array;
      const S = ix.factS[r] as Int32Array;
      let count = 0;
      targets[count] = o;
      labels[count++] = 1;
      for (let q = 0; q < negatives; q++) {
        const other = O[Math.floor(random() * O.length)] as number;
        if (other === o) continue;
        targets[count] = other;
        labels[count++] = -1;
      }
      const uniform = Math.floor(random() * n);
      if (uniform !== o) {
        targets[count] = uniform;
        labels[count++] = -1;
      }
      train(s, r, count);
      const otherS = S[Math.floor(random() * S.length)] as number;
      if (otherS !== s) {
        targets[0] = o;
        labels[0] = -1;
        train(otherS, r, 1);
      }
      if (++done % CHUNK === 0) yield (0.9 * done) / steps;
    }
  }
  const model: EmbeddingModel = { dim: k, epochs: limits.epochs, entity: ent, relation: rel, candidates, calibration: new Map(), trained: m, heldOutFacts };
  // Calibration: held-out true facts against the same subject with other facts' objects. One
  // scoring pass over the relation's objects per held-out fact ranks the true object and up to
  // `othersPerFact` other objects at once, so the other side of the ratio is measured on several
  // times as many ranks for the cost of one (a band of five true ranks against 0 of 50 other
  // ranks can never reach ×2 at 90% confidence: at least ×1.8; against 0 of 250, ×8.8).
  const calRandom = rng(limits.seed + 1);
  const perFact = Math.max(1, limits.othersPerFact ?? DEFAULT_EMBEDDING_LIMITS.othersPerFact ?? 1);
  const scratch = new Float64Array(n);
  const others: number[] = [];
  for (let r = 0; r < R; r++) {
    const picked = held[r] as Int32Array;
    const S = ix.factS[r] as Int32Array;
    const O = ix.factO[r] as Int32Array;
    const ranksTrue: number[] = [];
    const ranksOther: number[] = [];
    let ranked = 0;
    for (const i of picked) {
      // Each pass scores every object of the relation: yield often, a big relation is slow.
      if (++ranked % 8 === 0) yield 0.9 + (0.1 * r) / R;
      const s = S[i] as number;
      const o = O[i] as number;
      others.length = 0;
      for (let tries = 0; tries < 5 * perFact && others.length < perFact; tries++) {
        const other = O[Math.floor(calRandom() * O.length)] as number;
        if (other === o || other === s || others.includes(other) || hasEntry(ix, s, 2 * r, other)) continue;
        others.push(other);
      }
      const ranks = ranksAmong(ix, model, s, r, [o, ...others], scratch);
      ranksTrue.push(ranks[0] as number);
      for (let q = 1; q < ranks.length; q++) ranksOther.push(ranks[q] as number);
    }
    ranksTrue.sort((a, b) => a - b);
    ranksOther.sort((a, b) => a - b);
    if (ranksTrue.length > 0) model.calibration.set(ix.keys[r] as string, { relation: ix.display[r] as string, ranksTrue, ranksOther });
    yield 0.9 + (0.1 * (r + 1)) / R;
  }
  return model;
}

/**
 * s∘r into `out` (real parts, then imaginary): score(o) = Re(<s∘r, conj(o)>) with
 * s∘r = (sr·rr − si·ri) + i(sr·ri + si·rr).
 */
function subjectTimesRelation(ent: Float32Array, rel: Float32Array, k: number, s: number, r: number, out: Float64Array): Float64Array {
  const sb = s * 2 * k;
  const rb = r * 2 * k;
  for (let i = 0; i < k; i++) {
    const a = ent[sb + i] as number;
    const b = ent[sb + k + i] as number;
    const c = rel[rb + i] as number;
    const d = rel[rb + k + i] as number;
    out[i] = a * c - b * d;
    out[k + i] = a * d + b * c;
  }
  return out;
}

/**
 * Filtered rank percentiles of several objects for one subject and relation from one pass over
 * the relation's objects: the same figure `rankOf` gives each of them (s and the subject's known
 * objects are no competitors; an object is not its own competitor).
 */
function ranksAmong(ix: RulesIndex, model: EmbeddingModel, s: number, r: number, targets: readonly number[], scores: Float64Array): number[] {
  const k = model.dim;
  const ent = model.entity;
  const rel = model.relation;
  const sr = subjectTimesRelation(ent, rel, k, s, r, new Float64Array(2 * k));
  const dot = (o: number): number => {
    const ob = o * 2 * k;
    let x = 0;
    for (let i = 0; i < 2 * k; i++) x += (sr[i] as number) * (ent[ob + i] as number);
    return x;
  };
  const cands = model.candidates[r] as Int32Array;
  let count = 0;
  for (const c of cands) {
    if (c === s || hasEntry(ix, s, 2 * r, c)) continue;
    scores[count++] = dot(c);
  }
  return targets.map((o) => {
    const own = dot(o);
    // Among the competitors, o itself is there unless it is a known object of s.
    const inside = o !== s && !hasEntry(ix, s, 2 * r, o) && isCandidate(cands, o);
    const of = count + (inside ? 0 : 1);
    let better = 0;
    for (let q = 0; q < count; q++) if ((scores[q] as number) > own) better++;
    return of > 1 ? better / (of - 1) : 0.5;
  });
}

/** Filtered rank of o among relation r's objects for subject s (the subject's other known objects left out). */
function rankOf(ix: RulesIndex, model: EmbeddingModel, s: number, r: number, o: number): { rank: number; of: number; percentile: number } {
  const k = model.dim;
  const ent = model.entity;
  const rel = model.relation;
  const own = score(ent, rel, k, s, r, o);
  const cands = model.candidates[r] as Int32Array;
  let better = 0;
  let of = 1;
  for (const c of cands) {
    if (c === o || c === s || hasEntry(ix, s, 2 * r, c)) continue;
    of++;
    if (score(ent, rel, k, s, r, c) > own) better++;
  }
  return { rank: better + 1, of, percentile: of > 1 ? better / (of - 1) : 0.5 };
}

/** How many of the ascending values are < x (strict) or ≤ x. */
function countBelow(sorted: readonly number[], x: number, orEqual: boolean): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const v = sorted[mid] as number;
    if (v < x || (orEqual && v === x)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The band of percentiles around p holding the MIN_TAIL held-out true ranks nearest to it (ties
 * at its edges included). A density ratio in that band, not "at least this good": a middling
 * rank is not evidence because most true facts rank better still.
 */
function band(T: readonly number[], p: number): [number, number] {
  let lo = countBelow(T, p, false);
  let hi = lo;
  while (hi - lo < MIN_TAIL && (lo > 0 || hi < T.length)) {
    const below = lo > 0 ? p - (T[lo - 1] as number) : Infinity;
    const above = hi < T.length ? (T[hi] as number) - p : Infinity;
    if (below <= above) lo--;
    else hi++;
  }
  const from = Math.min(p, lo < T.length ? (T[lo] as number) : p);
  const to = Math.max(p, hi > 0 ? (T[hi - 1] as number) : p);
  return [from, to];
}

/**
 * The model's rank for (subject, relation, object), node numbers of the index, with its measured
 * worth: the share of held-out true facts ranked about as well (the band of the MIN_TAIL nearest)
 * against the share of other objects of the relation in the same band.
 */
export function predictByEmbedding(ix: RulesIndex, model: EmbeddingModel, relationKey: string, s: number, o: number): EmbeddingPrediction | null {
  const r = ix.keyNumber.get(relationKey);
  const cal = model.calibration.get(relationKey);
  if (r === undefined || !cal || cal.ranksTrue.length < MIN_MEASURED || cal.ranksOther.length < MIN_MEASURED || s < 0 || o < 0 || s === o) return null;
  // Calibrated on objects the relation already has: an object it never takes is the signature's to judge.
  if (!isCandidate(model.candidates[r] as Int32Array, o)) return null;
  const { rank, of, percentile } = rankOf(ix, model, s, r, o);
  const T = cal.ranksTrue;
  const [from, to] = band(T, percentile);
  const inBand = (values: readonly number[]) => countBelow(values, to, true) - countBelow(values, from, false);
  const kT = inBand(T);
  const kO = inBand(cal.ranksOther);
  const nT = T.length;
  const nO = cal.ranksOther.length;
  const ratio = (k: number, j: number) => (k + 0.5) / (nT + 1) / ((j + 0.5) / (nO + 1));
  const cT = countBelow(T, percentile, true);
  const cO = countBelow(cal.ranksOther, percentile, true);
  const inBandBound = measuredRatio(kT, nT, kO, nO);
  const atLeastBound = measuredRatio(cT, nT, cO, nO);
  return {
    relation: cal.relation,
    rank,
    of,
    percentile,
    trueShare: kT / nT,
    otherShare: kO / nO,
    atLeastTrueShare: cT / nT,
    atLeastOtherShare: cO / nO,
    likelihoodRatio: Math.min(ratio(kT, kO), ratio(cT, cO)),
    bound: inBandBound.lower <= atLeastBound.lower ? inBandBound : atLeastBound,
    samples: nT,
  };
}

function isCandidate(sorted: Int32Array, o: number): boolean {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const v = sorted[mid] as number;
    if (v === o) return true;
    if (v < o) lo = mid + 1;
    else hi = mid;
  }
  return false;
}
