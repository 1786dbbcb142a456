/**
 * Graph regularities mined from the graph itself (issue #10): evidence that predicts — or speaks
 * against — a proposed edge (s, r, o) from the graph alone. Pure: reads a KnowledgeGraph, no I/O.
 *
 * CONTRACT (what the review and the server cache use; everything else is internal)
 *
 *   mineGraphRules({ graph, limits? }): MinedGraphRules
 *       Mine everything at once (scripts, tests). Same result as running the miner to the end.
 *   createGraphRulesMiner({ graph, limits? }): GraphRulesMiner
 *       Resumable form for background use: `step(budgetMs)` works for about budgetMs and returns
 *       true when done; `progress` is 0–1; `result()` returns the rules once done (throws before).
 *       The graph must not change while mining (the server mines one loaded version).
 *   predictEdge({ rules, graph, subject, relation, object, maxPaths?, excludeEdgeKeys? }): EdgePrediction
 *       The mined path rules whose body holds between subject and object, each with concrete
 *       paths (Triple[] in stored direction, via graph.toTriple), support and confidence, and
 *       the aggregate (best confidence, noisy-or). The fact being judged — every stored copy of
 *       (subject, relation, object), plus `excludeEdgeKeys` — is never part of its own evidence.
 *       `relationStats` says how often rules fire for true edges of this relation vs random
 *       objects (measured at mining, leave-one-out), so "no rule fires" can be weighed;
 *       `likelihoodRatio` is P(outcome | true) / P(outcome | random) for this outcome (a rule this
 *       confident fires / none fires), measured on the same samples; `band` is the density
 *       ratio of the band of confidences the best firing rule falls in (what the review weighs).
 *       Paths are read from the mined index (parallel copies merged; labels from `graph`).
 *   predictByNeighbours({ rules, graph, subject, relation, object, excludeEdgeKeys?, maxShared? }): NeighbourPrediction
 *       Link prediction from the graph's structure, hubs discounted (Adamic–Adar): the neighbours
 *       subject and object share through two-step patterns that mark the relation, and the nodes
 *       sharing the subject's neighbours that have this object; each with a likelihood ratio
 *       measured at mining on held-out facts against the same subject with another fact's object
 *       (as popular, of the same kind). Named nodes and stored paths come with it.
 *   relationSignatureFit({ rules, graph, subject, relation, object }): SignatureFit
 *       How well the subject fits the relation's usual subjects and the object its usual objects
 *       (node kinds: graphify file_type, else which relations a node is subject/object of), with
 *       degree and community context. Each side has a likelihood ratio true-vs-random measured
 *       on the graph and a one-line summary; a side breaks (fits: false) when the node has none
 *       of the relation's distinctive features and that state is at least twice as common among
 *       random nodes (ratio < 0.5). The judged fact is left out (excludeEdgeKeys is not used).
 *   predictBySameSource({ rules, subject, relation, object }): SameSourcePrediction | null
 *       Both ends extracted from one source file (graphify's source_file), with what that is worth
 *       for the relation: the share of its facts joining one file against the same subject with
 *       another fact's object (SameSourceStats, measured at mining; provenance, read from no edge).
 *   functionalConflict({ rules, graph, subject, relation, object, excludeEdgeKeys? }): FunctionalCheck
 *       Whether r is functional (one object per subject, measured) or inverse-functional, and
 *       whether the subject already has a different object (or the object a different subject).
 *
 *   Node ids: `subject` / `object` are node ids of `graph` (resolve names first). An id that is not
 *   in the graph (an insert that creates the node) is handled: no paths, no features.
 *   Relations are matched by `normalizeRelation` (case, `_`/`-`/spaces folded).
 *   The rules carry an integer index of the version they were mined from (≈ 40 bytes a fact)
 *   and answer about that version: pass the `graph` of the same version (labels come from it).
 *
 * Mining choices (caps make FB15k-237 — 272k triples, 237 relations — mine in a few seconds):
 * - Parallel copies of a fact count once; the graph is indexed as integer CSR adjacency, each
 *   node's entries sorted by (relation, direction), so "the r-neighbours of x" is a slice.
 * - Path rules in the style of AMIE: length 1 (`r1(x,y) ⇒ r(x,y)` or `r1(y,x) ⇒ r(x,y)`) and
 *   length 2 (`r1(x,z) ∧ r2(z,y) ⇒ r(x,y)`, either direction per atom, x, y, z distinct).
 *   Candidate bodies come from up to `headSamples` head facts per relation, taken at an even
 *   stride over the relation's distinct facts (deterministic); for each sampled fact the bodies
 *   joining x to y are found by meeting x's and y's neighbourhoods (cost deg(x) + deg(y), no hub
 *   is expanded), capped at `maxJoinPerFact` body instances per fact.
 *   support = head facts predicted (estimated from the sample, exact when not sampled);
 *   head coverage = support / |r|; standard confidence = support / |{(x,y): body(x,y)}| and PCA
 *   confidence = support / |{(x,y): body(x,y), x has some r-object}|. The body sizes are
 *   estimated from `bodySamples` x values (even stride) with exact distinct y counting, except
 *   where the join from one x exceeds `maxBodyEnumeration`: then the path count is used, an
 *   upper bound, which can only lower a confidence (conservative).
 *   Kept: support ≥ minSupport, head coverage ≥ minHeadCoverage, confidence ≥ minConfidence, the
 *   best `maxRulesPerRelation` by confidence.
 * - Length 3 (`mineLength3`): `a1(x,z) ∧ a2(z,w) ∧ a3(w,y) ⇒ r(x,y)`, x, z, w, y distinct, bodies
 *   found on `length3Samples` head facts (middle nodes above `maxLength3Degree` not walked, at
 *   most `maxJoin3PerFact` entries per fact), standard confidence measured on 40 nodes of the
 *   body's domain; the best `maxLength3Rules` are kept beside the shorter ones.
 * - Per relation: `ruleRecall` = share of true facts for which some kept rule of length 1–2
 *   fires without the fact itself, measured on facts the rules were not found on (another
 *   stride; a fact that was also sampled counts a rule only if the rule keeps minSupport
 *   without it), `randomFireRate` = the same for the fact's subject with a random node as
 *   object (seeded, deterministic; several per fact for a relation with few facts), and the
 *   best firing confidence of each. "No rule fires" is worth the ratio of the two misses; a
 *   firing rule the ratio of its band of best confidences (isotonic bands), not the average
 *   "some rule fires", which on a dense graph lends a weak rule the strong rules' worth.
 *   Length-3 rules are measured where no shorter rule fires (`longRecall` vs `longOtherRate`,
 *   the latter against another fact's object of the relation), since that is where they speak.
 * - Signatures: a node's features are its file_type and the (relation, direction) pairs it takes
 *   part in. For each relation and side, up to `maxSignatureFeatures` distinctive features
 *   (share among the relation's subjects/objects ≥ 5% and at least twice the share among all
 *   nodes) are chosen greedily to cover the most subjects/objects, the edge under judgement left
 *   out (an object counts as "object of r" only through another r-edge). Coverage among true
 *   nodes vs among random nodes gives the likelihood ratio of "has one of them" / "has none".
 * - Shared neighbours, per relation: up to `neighbourSamples` facts (even stride), alternately
 *   choosing the patterns (x –a– z –b– y joining ≥ 2% of the chosen facts and twice as many of
 *   them as random pairs) and measuring both scores on the rest and on random pairs (the fact's
 *   subject, another random fact's object not linked to it). See `NeighbourModel`.
 * - Functional: AMIE functionality = distinct subjects / distinct facts; `multiShare` = share of
 *   subjects with more than one object. Functional when multiShare ≤ 10% over ≥ 5 subjects.
 */
import type { KnowledgeGraph, Triple } from "../graph/model";
import { normalizeRelation } from "./graph-evidence";
import type { IntRule, RulesIndex } from "./rules-index";
export type { RulesIndex } from "./rules-index";
import type { ConstantRuleModel, RatioBand } from "./constant-rules";
import { bandOf, mineConstantModels, ratioBands } from "./constant-rules";
import type { DisjointStats } from "./disjoint-relations";
import { measureDisjointRelations } from "./disjoint-relations";
import type { EmbeddingModel } from "./embed-graph";
import { DEFAULT_EMBEDDING_LIMITS, trainEmbeddings } from "./embed-graph";
import { atomRange, buildIndex, flip, graphEnd, hasEntry, rng, stride, tripleOf } from "./rules-index";
import type { MeasuredRatio } from "./measured-ratio";
import { measuredRatio } from "./measured-ratio";

// ---------------------------------------------------------------------------------------------
// Types (exported for the review)

export interface MineLimits {
  /** Head facts sampled per relation to find candidate bodies (default 400). */
  headSamples: number;
  /** x values sampled per rule to estimate body sizes (default 120). */
  bodySamples: number;
  /** Body instances examined per sampled head fact before moving on (default 20,000). */
  maxJoinPerFact: number;
  /** Distinct y counted exactly per sampled x up to this many paths (default 4,000). */
  maxBodyEnumeration: number;
  /** Candidate bodies per relation whose confidence is estimated (best by sample support; default 120). */
  maxCandidatesPerRelation: number;
  /** Kept rules per head relation (default 50). */
  maxRulesPerRelation: number;
  /** Minimum sampled head facts a body must predict (default 2). */
  minSupport: number;
  /** Minimum standard confidence (default 0.01: weak rules are kept, each is weighed by its confidence). */
  minConfidence: number;
  /** Minimum head coverage (default 0.01). */
  minHeadCoverage: number;
  /** Distinctive features per relation side (default 6). */
  maxSignatureFeatures: number;
  /** Nodes sampled for the base rates of features (default 3,000). */
  baseSamples: number;
  /** Seed for the random objects of `randomFireRate` (default 1). */
  seed: number;
  /** Head facts per relation sampled for the shared-neighbour model, half to choose patterns, half to measure (default 300). */
  neighbourSamples: number;
  /** Held-out facts per relation that measure rules with a constant (constant-rules.ts; default 40). */
  constantSamples: number;
  /** Head facts per relation sampled for length-3 bodies (default 60; 0: no length-3 rules). */
  length3Samples: number;
  /** Entries read per sampled fact when looking for length-3 bodies (default 2,000). */
  maxJoin3PerFact: number;
  /** Middle nodes above this degree are not walked through by length-3 bodies (default 300). */
  maxLength3Degree: number;
  /** Kept length-3 rules per head relation, besides the shorter ones (default 10). */
  maxLength3Rules: number;
  /** Complex dimensions of the learned link predictor (embed-graph.ts; default 32, 0 leaves it out). */
  embeddingDim: number;
  /** Its training passes over the facts (default 4). */
  embeddingEpochs: number;
  /**
   * Other objects ranked against each of its held-out facts (embed-graph.ts; default 1). With 1,
   * a band of five true ranks in 50 against 0 of 50 other ranks is at most ×1.8 at 90% confidence,
   * so the predictor never reaches the ×2 it needs to speak; with 5 it does, and on the eval it
   * gained 1 FB15k-237 and 1 rsl-siege-manager true MEDIUM for 3 MetaQA made-up MEDIUMs: not kept.
   */
  embeddingOthersPerFact: number;
  /** Other objects of the relation drawn as negatives per training fact (embed-graph.ts; default 2). */
  embeddingNegatives: number;
  /** 1: train with a softmax over the fact and its negatives instead of logistic losses (default 0). */
  embeddingSoftmax: number;
  /** Facts per relation that measure "both ends come from one source file" (default 200; `predictBySameSource`). */
  sameSourceSamples: number;
  /** Facts per relation that choose and measure its disjoint links (disjoint-relations.ts; default 2,000, 0 leaves them out). */
  disjointSamples: number;
}

export const DEFAULT_MINE_LIMITS: Readonly<MineLimits> = Object.freeze({
  headSamples: 400,
  bodySamples: 120,
  maxJoinPerFact: 20_000,
  maxBodyEnumeration: 4_000,
  maxCandidatesPerRelation: 120,
  maxRulesPerRelation: 50,
  minSupport: 2,
  minConfidence: 0.01,
  minHeadCoverage: 0.01,
  maxSignatureFeatures: 6,
  baseSamples: 3_000,
  seed: 1,
  neighbourSamples: 300,
  constantSamples: 40,
  // Off by default: measured on the eval (docs/review-rules.md) it gains one FB15k-237 true edge
  // in 200 and loses one MetaQA made-up edge to MEDIUM, for ~2.5 s more CPU of mining.
  length3Samples: 60,
  maxJoin3PerFact: 2_000,
  maxLength3Degree: 300,
  maxLength3Rules: 10,
  embeddingDim: 32,
  embeddingEpochs: 4,
  embeddingOthersPerFact: 1,
  embeddingNegatives: 2,
  embeddingSoftmax: 0,
  sameSourceSamples: 200,
  disjointSamples: 2_000,
});

/** One body atom. `inverse`: the stored edge points from the later variable to the earlier one. */
export interface RuleAtom {
  relation: string;
  inverse: boolean;
}

export interface PathRule {
  /** Readable form: `neighborOf(x,z) ∧ locatedIn(z,y) ⇒ locatedIn(x,y)`. */
  text: string;
  /** Head relation (display spelling: the most frequent one in the graph). */
  head: string;
  /** One to three atoms, from x to y. */
  body: RuleAtom[];
  /** Head facts the body predicts (estimated from the sample when `sampled`). */
  support: number;
  /** support / |r| */
  headCoverage: number;
  /** support / body pairs */
  confidence: number;
  /** support / body pairs whose x has some r-object (AMIE's partial completeness assumption) */
  pcaConfidence: number;
  sampled: boolean;
}

export interface RuleFiring {
  rule: PathRule;
  /** Up to maxPaths concrete instances of the body from subject to object, each in stored direction. */
  paths: Triple[][];
  /** Middle nodes (length 2; 1 for length 1) for which the body holds; may exceed paths.length. */
  instances: number;
}

/** Measured per head relation on its sampled facts (leave-one-out). */
export interface RelationRuleStats {
  relation: string;
  facts: number;
  rules: number;
  /** Share of true facts for which some kept rule fires without the fact itself. */
  ruleRecall: number;
  /** Share of (subject, random node) pairs for which some kept rule fires. */
  randomFireRate: number;
  /** Sampled facts behind ruleRecall. */
  sampledFacts: number;
  /** Random objects behind randomFireRate. */
  randomSamples: number;
  /** Kept length-3 rules (`rules` counts the shorter ones; the rates above are theirs). */
  longRules: number;
  /** Among the measured true facts no shorter rule predicts, the share some length-3 rule predicts. */
  longRecall: number;
  /** Measured true facts behind longRecall. */
  longTrueSamples: number;
  /** The same for the fact's subject with another fact's object of the relation (same kind, as popular) no shorter rule predicts. */
  longOtherRate: number;
  longOtherSamples: number;
  /** Per sampled true fact, the best confidence among rules of length ≤ 2 that fire (0: none), ascending. */
  bestConfidenceTrue: number[];
  /** The same for the random objects. */
  bestConfidenceRandom: number[];
}

export interface EdgePrediction {
  relation: string;
  /** Rules with this head that fire, best confidence first. */
  firing: RuleFiring[];
  /** Highest confidence among firing rules (0 when none). */
  best: number;
  /** 1 − Π(1 − confidence) over firing rules (rules overlap: an optimistic aggregate). */
  noisyOr: number;
  /**
   * P(outcome | a true edge) / P(outcome | a random object), measured at mining on this
   * relation's sampled facts (add-½ smoothed). Outcome: "the best firing rule has confidence ≥
   * `best`", or "no rule fires". 1 when the relation has no rules.
   */
  likelihoodRatio: number;
  /**
   * The density ratio of the band of best confidences (rules of length ≤ 2) this prediction falls
   * in: true facts against the same subjects with a random node, measured at mining, the bands cut
   * by isotonic regression (`overlapRatio`). Unlike "some rule fires" (ruleRecall / randomFireRate)
   * it reads which rule fires: on a dense graph a weak rule fires for random objects as often as
   * for true ones. null when the relation has no measured rules.
   */
  band: { trueShare: number; randomShare: number; likelihoodRatio: number; trueSamples: number; randomSamples: number } | null;
  /** null when the relation is not in the mined graph. */
  relationStats: RelationRuleStats | null;
  summary: string;
}

/** A feature of a node: `type:<file_type>`, `out:<relation>` (subject of) or `in:<relation>` (object of). */
export interface SignatureFeature {
  feature: string;
  /** Readable: "object of /film/film/genre", "file_type code". */
  label: string;
  /** Share of the relation's subjects (or objects) with the feature, the judged edge left out. */
  share: number;
  /** Share of all nodes with the feature. */
  baseShare: number;
}

export interface SideSignature {
  /** Distinct subjects (or objects) of the relation. */
  nodes: number;
  features: SignatureFeature[];
  /** Share of the relation's subjects/objects with at least one of `features` (leave-one-out). */
  coverage: number;
  /** Share of all nodes with at least one of `features`. */
  baseCoverage: number;
  /** Degree quantiles of the relation's subjects/objects (graph.degree): min, p10, p20, …, p90, max. */
  degreeQuantiles: number[];
}

export interface RelationSignature {
  relation: string;
  facts: number;
  subject: SideSignature;
  object: SideSignature;
  /** Share of the relation's facts whose endpoints share a community (null: no communities). */
  sameCommunityShare: number | null;
}

export interface SideFit {
  /** Features of `features` the node has (the judged edge left out). */
  matched: SignatureFeature[];
  /** False when the node has none of the relation's distinctive features (and there are some). */
  fits: boolean;
  /**
   * P(this feature state | a true subject/object) / P(state | a random node), smoothed; 1 when
   * the signature says nothing (no distinctive features or unknown node).
   */
  likelihoodRatio: number;
  degree: number;
  /** Share of the relation's subjects/objects with degree ≤ this node's (0–1). */
  degreePercentile: number;
  summary: string;
}

export interface SignatureFit {
  relation: string;
  /** null when the relation is not in the mined graph. */
  signature: RelationSignature | null;
  subject: SideFit | null;
  object: SideFit | null;
  /** Whether subject and object share a community (null: unknown). */
  sameCommunity: boolean | null;
  /** False when either side breaks a signature that covers most of the relation's nodes. */
  fits: boolean;
  summary: string;
}

export interface FunctionalStats {
  relation: string;
  facts: number;
  subjects: number;
  objects: number;
  /** distinct subjects / facts (AMIE functionality), 0–1. */
  functionality: number;
  /** distinct objects / facts. */
  inverseFunctionality: number;
  /** Share of subjects with more than one object. */
  multiObjectShare: number;
  /** Share of objects with more than one subject. */
  multiSubjectShare: number;
  isFunctional: boolean;
  isInverseFunctional: boolean;
}

export interface FunctionalCheck {
  relation: string;
  stats: FunctionalStats | null;
  /** When the relation is functional: the subject's other objects (stored edges, judged edge excluded; at most 10). */
  otherObjects: Triple[];
  /** When the relation is inverse-functional: the object's other subjects (at most 10). */
  otherSubjects: Triple[];
  /** Functional and the subject already has another object (or inverse-functional and the object another subject). */
  conflict: boolean;
  summary: string;
}

export interface MinedGraphRules {
  /** Rules by normalised head relation. */
  rulesByHead: Map<string, PathRule[]>;
  ruleStats: Map<string, RelationRuleStats>;
  signatures: Map<string, RelationSignature>;
  functional: Map<string, FunctionalStats>;
  /** Shared-neighbour models by normalised relation (see `predictByNeighbours`). */
  neighbours: Map<string, NeighbourModel>;
  /** Rules with a constant, measured by normalised relation (constant-rules.ts, `predictByConstants`). */
  constants: Map<string, ConstantRuleModel>;
  /** The learned link predictor with its held-out calibration (embed-graph.ts); null when turned off. */
  embedding: EmbeddingModel | null;
  /** Per normalised relation: how often its facts join nodes of one source file (`predictBySameSource`); empty when no node has one. */
  sameSource: Map<string, SameSourceStats>;
  /** Per normalised relation: the links it (almost) never shares a pair with (disjoint-relations.ts); empty when turned off. */
  disjoint: Map<string, DisjointStats>;
  stats: { nodes: number; facts: number; relations: number; rules: number; ms: number };
  limits: MineLimits;
  /** The mined version's integer index (about 40 bytes per fact). */
  index: RulesIndex;
}

/**
 * How often a relation's facts join two nodes extracted from the same source file (a code
 * graph's `contains`, `method`, `rationale_for` stay inside a file), measured on the relation's
 * facts against the same subject with another fact's object of the relation (as popular, of the
 * same kind, not linked to it). Where a node came from is provenance, not read from any edge, so
 * a fact is not its own evidence.
 */
export interface SameSourceStats {
  relation: string;
  /** Facts measured whose subject has a source file, and how many of them share it with the object. */
  trueSamples: number;
  trueSame: number;
  /** Other objects measured, and how many of them share the subject's source file. */
  otherSamples: number;
  otherSame: number;
}

export interface SameSourcePrediction {
  relation: string;
  /** The source file subject and object share. */
  file: string;
  /** Measured worth of "same file" for this relation, with its lower 90% bound. */
  bound: MeasuredRatio;
  stats: SameSourceStats;
}

export interface GraphRulesMiner {
  /** Work for about budgetMs; true when mining is done. */
  step(budgetMs: number): boolean;
  readonly progress: number;
  readonly done: boolean;
  result(): MinedGraphRules;
}

/**
 * Shared neighbours of a relation's facts (relation-aware Adamic–Adar), measured per relation at
 * mining: which two-step patterns through a shared neighbour z (x –a→ z –b→ y, either direction
 * per step) mark its facts, and how much such overlap held-out true facts have against random
 * pairs of the same subject and another object of the relation (the same kind of object: a
 * fitting kind alone earns nothing).
 */
export interface NeighbourModel {
  relation: string;
  /** The patterns, readable (`/film/film/genre(x,z) ∧ /film/film/genre(y,z)`), most frequent among true facts first; at most 10 listed. */
  patterns: string[];
  /** Patterns kept (the list above is cut at 10). */
  patternCount: number;
  /** Overlap scores of the held-out sampled true facts, ascending. */
  scoresTrue: number[];
  /** The same for random pairs: the fact's subject and the object of another, random fact of the relation (so as popular an object), not linked to it. */
  scoresRandom: number[];
  /** "Nodes like the subject have this object": Σ over the object's other subjects z of their hub-discounted shared neighbours with the subject; held-out true facts, ascending. */
  similarTrue: number[];
  /** The same for the random pairs. */
  similarRandom: number[];
}

export interface SharedNeighbour {
  /** Node id and label of the shared neighbour z. */
  id: string;
  label: string;
  degree: number;
  /** 1 / ln(1 + degree): a hub shared by many pairs says little. */
  weight: number;
  /** subject–z and z–object, in stored direction. */
  path: Triple[];
}

export interface SimilarSubject {
  id: string;
  label: string;
  /** Hub-discounted shared neighbours with the subject. */
  similarity: number;
  /** z –relation→ object, stored. */
  edge: Triple;
  /** One shared neighbour: subject–f, f–z, stored direction. */
  via: Triple[];
}

export interface NeighbourPrediction {
  relation: string;
  /** Nodes like the subject (sharing its neighbours) that have this object: the best few. */
  similar: SimilarSubject[];
  /** Σ over the object's other subjects of their similarity to the subject. */
  similarScore: number;
  /** The likelihood ratio of that much similarity, measured like `likelihoodRatio`. */
  similarLikelihoodRatio: number;
  similarTrueShare: number;
  similarRandomShare: number;
  /** null when the relation is not in the mined graph. */
  model: NeighbourModel | null;
  /** Σ over shared neighbours reached through a kept pattern of 1 / ln(1 + degree). */
  score: number;
  /** The shared neighbours, least hub-like first (at most maxShared). */
  shared: SharedNeighbour[];
  sharedCount: number;
  /** Share of held-out true facts with at least this overlap (the threshold: the largest true score ≤ score). */
  trueShare: number;
  /** The same share among the random pairs. */
  randomShare: number;
  /** trueShare / randomShare, add-½ smoothed; 1 when the score is 0 or nothing was measured. */
  likelihoodRatio: number;
  summary: string;
}

interface PairQuery {
  rules: MinedGraphRules;
  graph: KnowledgeGraph;
  subject: string;
  relation: string;
  object: string;
  /** Extra edges to leave out (the judged fact's copies are always left out). */
  excludeEdgeKeys?: Iterable<string>;
}


// ---------------------------------------------------------------------------------------------
// API

export function mineGraphRules({ graph, limits }: { graph: KnowledgeGraph; limits?: Partial<MineLimits> }): MinedGraphRules {
  const miner = createGraphRulesMiner({ graph, limits });
  while (!miner.step(Number.POSITIVE_INFINITY));
  return miner.result();
}

export function createGraphRulesMiner({ graph, limits }: { graph: KnowledgeGraph; limits?: Partial<MineLimits> }): GraphRulesMiner {
  const full: MineLimits = { ...DEFAULT_MINE_LIMITS, ...limits };
  const run = mine(graph, full);
  let progress = 0;
  let done = false;
  let activeMs = 0;
  let out: MinedGraphRules | null = null;
  return {
    step(budgetMs: number): boolean {
      if (done) return true;
      const start = performance.now();
      const end = start + budgetMs;
      try {
        for (;;) {
          const next = run.next();
          if (next.done) {
            done = true;
            progress = 1;
            out = next.value;
            break;
          }
          progress = Math.max(progress, Math.min(0.99, next.value));
          if (performance.now() >= end) break;
        }
      } finally {
        activeMs += performance.now() - start;
        if (out) out.stats.ms = Math.round(activeMs);
      }
      return done;
    },
    get progress() {
      return progress;
    },
    get done() {
      return done;
    },
    result(): MinedGraphRules {
      if (!out) throw new Error("graph rules are still being mined");
      return out;
    },
  };
}

export function predictEdge({
  rules,
  graph,
  subject,
  relation,
  object,
  maxPaths = 3,
  excludeEdgeKeys,
}: PairQuery & { maxPaths?: number }): EdgePrediction {
  const key = relationKey(relation);
  const headRules = rules.rulesByHead.get(key) ?? [];
  const relationStats = rules.ruleStats.get(key) ?? null;
  const name = relationStats?.relation ?? relation;
  const ix = rules.index;
  const r = ix.keyNumber.get(key);
  const x = ix.numberOf.get(subject);
  const y = ix.numberOf.get(object);
  const firing: RuleFiring[] = [];
  if (r !== undefined && x !== undefined && y !== undefined && x !== y) {
    // The index holds the mined version, parallel copies merged. The judged fact is never a body
    // edge (a length-1 body is never the head itself, a length-2 body never the x–y edge); extra
    // excluded edges are left out as facts.
    const excluded = excludedFacts(graph, ix, excludeEdgeKeys);
    const ok = (u: number, a: number, v: number) => !excluded || !excluded.has(factKey(u, a, v));
    const ints = ix.rules[r] ?? [];
    headRules.forEach((rule, i) => {
      const int = ints[i] as IntRule;
      const paths: Triple[][] = [];
      let instances = 0;
      if (int.a2 < 0) {
        if (hasEntry(ix, x, int.a1, y) && ok(x, int.a1, y)) {
          instances = 1;
          paths.push([tripleOf(graph, ix, x, int.a1, y)]);
        }
      } else if (int.a3 !== undefined && int.a3 >= 0) {
        const a3 = int.a3;
        walk3(ix, x, y, int, QUERY_WORK3, (z, w) => {
          if (!ok(x, int.a1, z) || !ok(z, int.a2, w) || !ok(w, a3, y)) return false;
          instances++;
          if (paths.length < maxPaths) paths.push([tripleOf(graph, ix, x, int.a1, z), tripleOf(graph, ix, z, int.a2, w), tripleOf(graph, ix, w, a3, y)]);
          return instances >= 50;
        });
      } else {
        for (const z of middles(ix, x, y, int)) {
          if (!ok(x, int.a1, z) || !ok(z, int.a2, y)) continue;
          instances++;
          if (paths.length < maxPaths) paths.push([tripleOf(graph, ix, x, int.a1, z), tripleOf(graph, ix, z, int.a2, y)]);
        }
      }
      if (instances > 0) firing.push({ rule, paths, instances });
    });
  }
  firing.sort((a, b) => b.rule.confidence - a.rule.confidence || b.rule.support - a.rule.support);
  const best = firing[0]?.rule.confidence ?? 0;
  const noisyOr = 1 - firing.reduce((p, f) => p * (1 - f.rule.confidence), 1);
  let likelihoodRatio = 1;
  if (relationStats && headRules.length > 0) {
    // P(best ≥ this | true) / P(best ≥ this | random) when a rule fires, P(none | ·) otherwise:
    // a weak rule that fires for random pairs too earns little, a strong one a lot. Measured on
    // rules of length 1–2 (length-3 rules are measured apart: RelationRuleStats.longRecall).
    const short = firing.filter((f) => f.rule.body.length <= 2);
    const shortBest = short[0]?.rule.confidence ?? 0;
    const share = (values: number[]) => {
      const n = short.length > 0 ? values.filter((c) => c >= shortBest).length : values.filter((c) => c === 0).length;
      return (n + 0.5) / (values.length + 1);
    };
    likelihoodRatio = share(relationStats.bestConfidenceTrue) / share(relationStats.bestConfidenceRandom);
  }
  let band: EdgePrediction["band"] = null;
  if (relationStats && headRules.length > 0 && relationStats.bestConfidenceTrue.length > 0 && relationStats.bestConfidenceRandom.length > 0) {
    const shortBest = firing.find((f) => f.rule.body.length <= 2)?.rule.confidence ?? 0;
    const m = overlapRatio(relationStats.bestConfidenceTrue, relationStats.bestConfidenceRandom, shortBest);
    band = { ...m, trueSamples: relationStats.bestConfidenceTrue.length, randomSamples: relationStats.bestConfidenceRandom.length };
  }
  return {
    relation: name,
    firing,
    best,
    noisyOr,
    likelihoodRatio,
    band,
    relationStats,
    summary: predictionSummary(name, firing, relationStats, headRules.length),
  };
}

/** Held-out true facts a relation needs before its neighbour model says anything. */
const MIN_NEIGHBOUR_MEASURED = 20;

/**
 * Shared-neighbour evidence for (subject, relation, object): the neighbours z the two share
 * through patterns that mark the relation on this graph, hubs discounted (Adamic–Adar), with the
 * likelihood ratio of that much overlap, true facts against random pairs of the same subject and
 * another object of the relation, measured at mining on held-out facts. The judged fact is never
 * a path (z is neither endpoint); `excludeEdgeKeys` are left out too.
 */
/**
 * Whether subject and object come from one source file, and what that is worth for the relation
 * (`SameSourceStats`, measured at mining). Null when they do not share a file, when either has
 * none, or when the relation was not measured. Node numbers are read from the mined index.
 */
export function predictBySameSource({ rules, subject, relation, object }: { rules: MinedGraphRules; subject: string; relation: string; object: string }): SameSourcePrediction | null {
  const ix = rules.index;
  const x = ix.numberOf.get(subject);
  const y = ix.numberOf.get(object);
  const stats = rules.sameSource.get(relationKey(relation));
  if (x === undefined || y === undefined || x === y || !stats) return null;
  const f = ix.sourceFile[x] as number;
  if (f < 0 || ix.sourceFile[y] !== f) return null;
  return { relation: stats.relation, file: ix.sourceFiles[f] as string, bound: measuredRatio(stats.trueSame, stats.trueSamples, stats.otherSame, stats.otherSamples), stats };
}

/** Relations whose measured facts have a subject with a source file fewer than this are not measured. */
const MIN_SAME_SOURCE_SAMPLES = 20;

function measureSameSource(ix: RulesIndex, samples: number, random: () => number): Map<string, SameSourceStats> {
  const out = new Map<string, SameSourceStats>();
  if (samples <= 0 || !ix.sourceFile.some((f) => f >= 0)) return out;
  for (let r = 0; r < ix.keys.length; r++) {
    const S = ix.factS[r] as Int32Array;
    const O = ix.factO[r] as Int32Array;
    const stats: SameSourceStats = { relation: ix.display[r] as string, trueSamples: 0, trueSame: 0, otherSamples: 0, otherSame: 0 };
    for (const i of stride(S.length, samples)) {
      const x = S[i] as number;
      const f = ix.sourceFile[x] as number;
      if (f < 0) continue;
      stats.trueSamples++;
      if (ix.sourceFile[O[i] as number] === f) stats.trueSame++;
      // Another fact's object of the relation, not linked to x by it.
      for (let tries = 0; tries < 5; tries++) {
        const other = O[Math.floor(random() * O.length)] as number;
        if (other === x || other === O[i] || hasEntry(ix, x, 2 * r, other)) continue;
        stats.otherSamples++;
        if (ix.sourceFile[other] === f) stats.otherSame++;
        break;
      }
    }
    if (stats.trueSamples >= MIN_SAME_SOURCE_SAMPLES && stats.otherSamples >= MIN_SAME_SOURCE_SAMPLES) out.set(ix.keys[r] as string, stats);
  }
  return out;
}

export function predictByNeighbours({ rules, graph, subject, relation, object, excludeEdgeKeys, maxShared = 4 }: PairQuery & { maxShared?: number }): NeighbourPrediction {
  const key = relationKey(relation);
  const model = rules.neighbours.get(key) ?? null;
  const ix = rules.index;
  const r = ix.keyNumber.get(key);
  const x = ix.numberOf.get(subject);
  const y = ix.numberOf.get(object);
  const name = model?.relation ?? relation;
  const none = (summary: string): NeighbourPrediction => ({
    relation: name,
    model,
    score: 0,
    shared: [],
    sharedCount: 0,
    trueShare: 0,
    randomShare: 0,
    likelihoodRatio: 1,
    similar: [],
    similarScore: 0,
    similarLikelihoodRatio: 1,
    similarTrueShare: 0,
    similarRandomShare: 0,
    summary,
  });
  if (!model || r === undefined) return none(`${relation} is not a relation of this graph: no shared-neighbour model`);
  if (model.scoresTrue.length < MIN_NEIGHBOUR_MEASURED) return none(`too few ${name} facts to measure shared neighbours on`);
  if (x === undefined || y === undefined || x === y) return none("a new node shares no neighbours");
  const excluded = excludedFacts(graph, ix, excludeEdgeKeys);
  const out = none("");
  // Shared neighbours through the relation's patterns.
  const patterns = ix.neighbourPatterns[r];
  const found = new Map<number, [number, number]>();
  if (patterns && patterns.size > 0) {
    joinShared(ix, x, y, queryScratch(ix), Number.POSITIVE_INFINITY, (z, a1, a2) => {
      if (found.has(z) || !patterns.has(a1 * 2 * ix.keys.length + a2)) return;
      if (excluded && (excluded.has(factKey(x, a1, z)) || excluded.has(factKey(z, a2, y)))) return;
      found.set(z, [a1, a2]);
    });
  }
  const all: SharedNeighbour[] = [];
  for (const [z, [a1, a2]] of found) {
    const degree = degreeOf(ix, z);
    const weight = 1 / Math.log(1 + degree);
    out.score += weight;
    all.push({ id: ix.ids[z] as string, label: "", degree, weight, path: [tripleOf(graph, ix, x, a1, z), tripleOf(graph, ix, z, a2, y)] });
  }
  all.sort((a, b) => b.weight - a.weight || (a.id < b.id ? -1 : 1));
  out.shared = all.slice(0, maxShared).map((n) => ({ ...n, label: graph.getNode(n.id)?.label ?? n.id }));
  out.sharedCount = all.length;
  const parts: string[] = [];
  if (out.score > 0) {
    const m = overlapRatio(model.scoresTrue, model.scoresRandom, out.score);
    out.trueShare = m.trueShare;
    out.randomShare = m.randomShare;
    out.likelihoodRatio = m.likelihoodRatio;
    const listed = out.shared.map((n) => `"${n.label}" (degree ${fmt(n.degree)})`).join(", ");
    parts.push(
      `shares ${all.length} neighbour${all.length === 1 ? "" : "s"} with the object through patterns that mark ${name}: ${listed}${all.length > out.shared.length ? ` and ${all.length - out.shared.length} more` : ""} ` +
        `(overlap ${out.score.toFixed(2)}, hubs discounted; ${pct(m.trueShare)} of held-out true ${name} facts have about this much, ${pct(m.randomShare)} of the same subjects with another fact's object)`,
    );
  }
  // Nodes like the subject that have this object.
  const sim = similarity(ix, x, y, similarityScratch(ix), SIMILARITY_WORK, excluded);
  const [lo, hi] = atomRange(ix, y, 2 * r + 1);
  const likes: { z: number; s: number }[] = [];
  for (let j = lo; j < hi; j++) {
    const z = ix.nbr[j] as number;
    if (z === x || sim.stamp[z] !== sim.epoch) continue;
    if (excluded?.has(factKey(z, 2 * r, y))) continue;
    const v = sim.value[z] as number;
    out.similarScore += v;
    likes.push({ z, s: v });
  }
  if (out.similarScore > 0) {
    const m = overlapRatio(model.similarTrue, model.similarRandom, out.similarScore);
    out.similarTrueShare = m.trueShare;
    out.similarRandomShare = m.randomShare;
    out.similarLikelihoodRatio = m.likelihoodRatio;
    likes.sort((a, b) => b.s - a.s || a.z - b.z);
    out.similar = likes.slice(0, maxShared).map(({ z, s: v }) => {
      const f = sim.via[z] as number;
      return {
        id: ix.ids[z] as string,
        label: graph.getNode(ix.ids[z] as string)?.label ?? (ix.ids[z] as string),
        similarity: v,
        edge: tripleOf(graph, ix, z, 2 * r, y),
        via: [tripleOf(graph, ix, x, sim.viaAtom1[z] as number, f), tripleOf(graph, ix, f, sim.viaAtom2[z] as number, z)],
      };
    });
    const listed = out.similar.map((n) => `"${n.label}" (${n.similarity.toFixed(2)})`).join(", ");
    parts.push(
      `${likes.length} node${likes.length === 1 ? "" : "s"} sharing neighbours with the subject ${likes.length === 1 ? "has" : "have"} this object by ${name}: ${listed}${likes.length > out.similar.length ? ` and ${likes.length - out.similar.length} more` : ""} ` +
        `(similarity ${out.similarScore.toFixed(2)}; ${pct(m.trueShare)} of held-out true ${name} facts have about this much, ${pct(m.randomShare)} of the same subjects with another fact's object)`,
    );
  }
  out.summary = parts.length ? parts.join("; ") : `${subject} and ${object} share no neighbour through a pattern that marks ${name}, and no node like the subject has this object`;
  return out;
}

/** The isotonic bands of each measured pair of score lists (constant-rules.ts `ratioBands`), built once. */
const overlapBands = new WeakMap<number[], RatioBand[]>();

/**
 * The density ratio of the band of scores this score falls in, add-½ smoothed: true facts
 * against the same subjects with another fact's object, the bands cut by isotonic regression
 * (constant-rules.ts `ratioBands`). Not P(score ≥ t | true) / P(score ≥ t | random): that tail
 * ratio lends a weak overlap the worth of every stronger one (MetaQA: `Lockout starred_actors
 * Charlie Sheen`, not a fact, read ×5.4 from similarity 1.37 because 27% of true facts have at
 * least that much against 5% of other objects, most of them far more).
 */
function overlapRatio(T: number[], Rn: number[], score: number): { trueShare: number; randomShare: number; likelihoodRatio: number } {
  let bands = overlapBands.get(T);
  if (!bands) overlapBands.set(T, (bands = ratioBands(T, Rn)));
  const band = bandOf(bands, score);
  const nT = band?.kTrue ?? 0;
  const nR = band?.kOther ?? 0;
  const trueShare = nT / Math.max(1, T.length);
  const randomShare = nR / Math.max(1, Rn.length);
  const likelihoodRatio = band && T.length > 0 && Rn.length > 0 ? (nT + 0.5) / (T.length + 1) / ((nR + 0.5) / (Rn.length + 1)) : 1;
  return { trueShare, randomShare, likelihoodRatio };
}

export function relationSignatureFit({ rules, graph, subject, relation, object }: PairQuery): SignatureFit {
  const key = relationKey(relation);
  const signature = rules.signatures.get(key) ?? null;
  const ix = rules.index;
  const r = ix.keyNumber.get(key);
  if (!signature || r === undefined) {
    return {
      relation,
      signature: null,
      subject: null,
      object: null,
      sameCommunity: null,
      fits: true,
      summary: `${relation} is not a relation of this graph: no usual subjects or objects to compare with`,
    };
  }
  const x = ix.numberOf.get(subject);
  const y = ix.numberOf.get(object);
  const ids = ix.signatureFeatures[r] as { subject: number[]; object: number[] };
  // The judged fact is left out: "object of another r edge" must not count the fact itself.
  const judged = x !== undefined && y !== undefined && hasEntry(ix, x, 2 * r, y);
  const has = (u: number | undefined, f: number, own: number) => u !== undefined && nodeHasFeature(ix, u, f, own, judged);
  const subjectFit = sideFit(graph, subject, signature.subject, "subject", signature.relation, (i) => has(x, ids.subject[i] as number, 2 * r));
  const objectFit = sideFit(graph, object, signature.object, "object", signature.relation, (i) => has(y, ids.object[i] as number, 2 * r + 1));
  const s = graph.getNode(subject);
  const o = graph.getNode(object);
  const sameCommunity = s && o && s.community !== null && o.community !== null ? s.community === o.community : null;
  const fits = subjectFit.fits && objectFit.fits;
  const parts = [subjectFit.summary, objectFit.summary];
  if (sameCommunity !== null && signature.sameCommunityShare !== null) {
    parts.push(
      `${sameCommunity ? "same" : "different"} community (${pct(signature.sameCommunityShare)} of ${signature.relation} edges link one community)`,
    );
  }
  return { relation: signature.relation, signature, subject: subjectFit, object: objectFit, sameCommunity, fits, summary: parts.join("; ") };
}

/** Other objects / subjects listed by functionalConflict, at most. */
const MAX_LISTED = 10;

export function functionalConflict({ rules, graph, subject, relation, object, excludeEdgeKeys }: PairQuery): FunctionalCheck {
  const key = relationKey(relation);
  const stats = rules.functional.get(key) ?? null;
  const ix = rules.index;
  const r = ix.keyNumber.get(key);
  const excluded = excludedFacts(graph, ix, excludeEdgeKeys);
  const others = (u: number | undefined, atom: number, skip: number | undefined): Triple[] => {
    if (u === undefined) return [];
    const out: Triple[] = [];
    const [lo, hi] = atomRange(ix, u, atom);
    for (let j = lo; j < hi && out.length < MAX_LISTED; j++) {
      const v = ix.nbr[j] as number;
      if (v === skip || excluded?.has(factKey(u, atom, v))) continue;
      out.push(tripleOf(graph, ix, u, atom, v));
    }
    return out;
  };
  // Listed only where they would conflict: a hub object's thousands of other subjects of a
  // many-to-one relation say nothing.
  const x = ix.numberOf.get(subject);
  const y = ix.numberOf.get(object);
  const otherObjects = r !== undefined && stats?.isFunctional ? others(x, 2 * r, y) : [];
  const otherSubjects = r !== undefined && stats?.isInverseFunctional ? others(y, 2 * r + 1, x) : [];
  const name = stats?.relation ?? relation;
  const objectConflict = stats !== null && stats.isFunctional && otherObjects.length > 0;
  const subjectConflict = stats !== null && stats.isInverseFunctional && otherSubjects.length > 0;
  const conflict = objectConflict || subjectConflict;
  let summary: string;
  if (!stats) summary = `${relation} is not a relation of this graph: nothing to say about how many objects it takes`;
  else {
    const parts: string[] = [];
    if (objectConflict) {
      parts.push(
        `${name} is functional (${pct(1 - stats.multiObjectShare)} of its ${fmt(stats.subjects)} subjects have one object); the subject already has ${names(otherObjects, "object")}`,
      );
    }
    if (subjectConflict) {
      parts.push(
        `${name} is inverse-functional (${pct(1 - stats.multiSubjectShare)} of its ${fmt(stats.objects)} objects have one subject); the object already has ${names(otherSubjects, "subject")}`,
      );
    }
    if (parts.length === 0) {
      parts.push(
        stats.isFunctional || stats.isInverseFunctional
          ? `${name} is ${stats.isFunctional ? "functional" : "inverse-functional"} and no other ${stats.isFunctional ? "object" : "subject"} is stored: no conflict`
          : `${name} is not functional (${pct(stats.multiObjectShare)} of its subjects have several objects): no conflict`,
      );
    }
    summary = parts.join("; ");
  }
  return { relation: name, stats, otherObjects, otherSubjects, conflict, summary };
}

// ---------------------------------------------------------------------------------------------
// Query helpers

const relationKeyCache = new Map<string, string>();

function relationKey(relation: string): string {
  let key = relationKeyCache.get(relation);
  if (key === undefined) {
    if (relationKeyCache.size > 100_000) relationKeyCache.clear();
    key = normalizeRelation(relation);
    relationKeyCache.set(relation, key);
  }
  return key;
}

/** Middle nodes z with a1(x, z) and a2(z, y), walking the smaller of x's and y's slices. */
function middles(ix: RulesIndex, x: number, y: number, { a1, a2 }: IntRule): number[] {
  const out: number[] = [];
  const [s1, e1] = atomRange(ix, x, a1);
  const [s2, e2] = atomRange(ix, y, flip(a2));
  if (e1 - s1 <= e2 - s2) {
    for (let i = s1; i < e1; i++) {
      const z = ix.nbr[i] as number;
      if (z !== y && hasEntry(ix, y, flip(a2), z)) out.push(z);
    }
  } else {
    for (let j = s2; j < e2; j++) {
      const z = ix.nbr[j] as number;
      if (z !== x && hasEntry(ix, x, a1, z)) out.push(z);
    }
  }
  return out;
}

function factKey(u: number, a: number, v: number): string {
  return a & 1 ? `${v} ${a ^ 1} ${u}` : `${u} ${a} ${v}`;
}

/** Edges to leave out, as facts of the index (null when there are none). */
function excludedFacts(graph: KnowledgeGraph, ix: RulesIndex, keys?: Iterable<string>): Set<string> | null {
  let out: Set<string> | null = null;
  for (const k of keys ?? []) {
    const e = graph.edges.get(k);
    if (!e) continue;
    const u = ix.numberOf.get(e.source);
    const v = ix.numberOf.get(e.target);
    const r = ix.keyNumber.get(relationKey(e.relation));
    if (u === undefined || v === undefined || r === undefined) continue;
    (out ??= new Set()).add(factKey(u, 2 * r, v));
  }
  return out;
}

/** The triple of index entry (u, atom, v) in its stored direction, labels from the graph. */
/** Does node u have feature f (atom or file type)? The own atom needs an entry besides the judged fact. */
function nodeHasFeature(ix: RulesIndex, u: number, f: number, ownAtom: number, judged: boolean): boolean {
  const A = 2 * ix.keys.length;
  if (f >= A) return ix.fileType[u] === f - A;
  const [lo, hi] = atomRange(ix, u, f);
  return hi - lo > (f === ownAtom && judged ? 1 : 0);
}

/** A likelihood ratio below this (the node's state is twice as common among random nodes) breaks the signature. */
const BREAK_RATIO = 0.5;

function sideFit(
  graph: KnowledgeGraph,
  id: string,
  side: SideSignature,
  role: "subject" | "object",
  relation: string,
  hasFeature: (i: number) => boolean,
): SideFit {
  const node = graph.getNode(id);
  if (!node) {
    return {
      matched: [],
      fits: true,
      likelihoodRatio: 1,
      degree: 0,
      degreePercentile: 0,
      summary: `${role} is a new node: no relations to compare with ${relation}'s usual ${role}s`,
    };
  }
  const degree = graph.degree(id);
  const degreePercentile = quantileRank(side.degreeQuantiles, degree);
  const degreeText = `degree ${fmt(degree)} (median of ${relation}'s ${role}s ${fmt(side.degreeQuantiles[5] ?? 0)})`;
  if (side.features.length === 0) {
    return {
      matched: [],
      fits: true,
      likelihoodRatio: 1,
      degree,
      degreePercentile,
      summary: `${relation}'s ${role}s share no distinctive kind; ${role} ${degreeText}`,
    };
  }
  const matched = side.features.filter((_, i) => hasFeature(i));
  const n = side.nodes;
  const coverage = (side.coverage * n + 0.5) / (n + 1);
  const base = Math.min(0.999, Math.max(0.001, side.baseCoverage));
  const likelihoodRatio = matched.length > 0 ? coverage / base : (1 - coverage) / (1 - base);
  const fits = matched.length > 0 || likelihoodRatio >= BREAK_RATIO;
  let summary: string;
  if (matched.length > 0) {
    const f = matched[0] as SignatureFeature;
    summary = `${role} fits ${relation}: it is ${f.label}, like ${pct(f.share)} of the relation's ${role}s (${pct(f.baseShare)} of all nodes); ${degreeText}`;
  } else {
    const listed = side.features
      .slice(0, 3)
      .map((f) => `${f.label} ${pct(f.share)}`)
      .join(", ");
    summary =
      `${role} ${fits ? "does not match" : "breaks"} ${relation}'s usual ${role}s: it has none of the features ${pct(side.coverage)} of them have ` +
      `(${listed}); ${pct(side.baseCoverage)} of all nodes have one; ${degreeText}`;
  }
  return { matched, fits, likelihoodRatio, degree, degreePercentile, summary };
}

/** Approximate share of values ≤ value, from deciles (min, p10, …, max). */
function quantileRank(quantiles: number[], value: number): number {
  if (quantiles.length < 2) return 0;
  let below = 0;
  for (const q of quantiles) if (q <= value) below++;
  return Math.max(0, below - 1) / (quantiles.length - 1);
}

function predictionSummary(relation: string, firing: RuleFiring[], stats: RelationRuleStats | null, ruleCount: number): string {
  const measured = stats
    ? ` (on this graph some rule fires for ${pct(stats.ruleRecall)} of true ${relation} edges and for ${pct(stats.randomFireRate)} of random objects)`
    : "";
  if (ruleCount === 0) return `no path rule with head ${relation} was mined${stats ? "" : ": the relation is not in the graph"}`;
  if (firing.length === 0) return `none of the ${ruleCount} rules for ${relation} predicts this edge${measured}`;
  const top = firing[0] as RuleFiring;
  const path = top.paths[0]?.map((t) => `${t.subject} --${t.relation}--> ${t.object}`).join(", ") ?? "";
  return (
    `${firing.length} rule${firing.length === 1 ? "" : "s"} predict${firing.length === 1 ? "s" : ""} it; best: ${top.rule.text} ` +
    `(confidence ${pct(top.rule.confidence)}, support ${fmt(top.rule.support)}) via ${path}${measured}`
  );
}

function names(triples: Triple[], which: "object" | "subject"): string {
  const list = triples.slice(0, 3).map((t) => JSON.stringify(which === "object" ? t.object : t.subject));
  return list.join(", ") + (triples.length > 3 ? ` and ${triples.length - 3} more` : "");
}

function pct(x: number): string {
  if (x > 0 && x < 0.01) return `${(x * 100).toFixed(1)}%`;
  return `${Math.round(x * 100)}%`;
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

// ---------------------------------------------------------------------------------------------
// Mining



/** `count` indices spread evenly over 0..total-1, halfway between those of `stride`. */
function midStride(total: number, count: number): number[] {
  if (total <= count) return Array.from({ length: total }, (_, i) => i);
  return Array.from({ length: count }, (_, i) => Math.min(total - 1, Math.floor(((i + 0.5) * total) / count)));
}

/** Entries a length-3 firing check reads at most (from the smaller end). */
const QUERY_WORK3 = 2_000;

/**
 * Paths x –a1– z –a2– w –a3– y (x, z, w, y distinct), walked from the end whose first slice is
 * smaller; visit returns true to stop. At most maxWork entries are read.
 */
function walk3(ix: RulesIndex, x: number, y: number, { a1, a2, a3 = -1 }: IntRule, maxWork: number, visit: (z: number, w: number) => boolean): void {
  const [s1, e1] = atomRange(ix, x, a1);
  const [s3, e3] = atomRange(ix, y, flip(a3));
  let work = 0;
  if (e1 - s1 <= e3 - s3) {
    for (let i = s1; i < e1 && work < maxWork; i++) {
      const z = ix.nbr[i] as number;
      if (z === y) continue;
      const [s2, e2] = atomRange(ix, z, a2);
      work += e2 - s2 + 1;
      for (let j = s2; j < e2; j++) {
        const w = ix.nbr[j] as number;
        if (w !== x && w !== y && hasEntry(ix, w, a3, y) && visit(z, w)) return;
      }
    }
  } else {
    for (let i = s3; i < e3 && work < maxWork; i++) {
      const w = ix.nbr[i] as number;
      if (w === x) continue;
      const [s2, e2] = atomRange(ix, w, flip(a2));
      work += e2 - s2 + 1;
      for (let j = s2; j < e2; j++) {
        const z = ix.nbr[j] as number;
        if (z !== x && z !== y && hasEntry(ix, x, a1, z) && visit(z, w)) return;
      }
    }
  }
}

function fires(ix: RulesIndex, x: number, y: number, rule: IntRule): boolean {
  const { a1, a2 } = rule;
  if (a2 < 0) return hasEntry(ix, x, a1, y);
  if (rule.a3 !== undefined && rule.a3 >= 0) {
    let found = false;
    walk3(ix, x, y, rule, QUERY_WORK3, () => (found = true));
    return found;
  }
  const [s1, e1] = atomRange(ix, x, a1);
  const [s2, e2] = atomRange(ix, y, flip(a2));
  if (e1 - s1 <= e2 - s2) {
    for (let i = s1; i < e1; i++) {
      const z = ix.nbr[i] as number;
      if (z !== y && hasEntry(ix, y, flip(a2), z)) return true;
    }
  } else {
    for (let j = s2; j < e2; j++) {
      const z = ix.nbr[j] as number;
      if (z !== x && hasEntry(ix, x, a1, z)) return true;
    }
  }
  return false;
}

function atomText(ix: RulesIndex, a: number, from: string, to: string): string {
  const name = ix.display[a >> 1] as string;
  return a & 1 ? `${name}(${to},${from})` : `${name}(${from},${to})`;
}

function toRuleAtom(ix: RulesIndex, a: number): RuleAtom {
  return { relation: ix.display[a >> 1] as string, inverse: (a & 1) === 1 };
}

interface Scratch {
  stamp: Int32Array;
  head: Int32Array;
  next: Int32Array;
  mark: Int32Array;
  epoch: number;
}

/**
 * Chains y's adjacency entries per neighbour: after it, `stamp[z] === epoch` marks y's neighbours
 * and `head[z]`/`next[j]` list the entries j from y to z. Returns the epoch. Cost deg(y).
 */
function chainNeighbours(ix: RulesIndex, y: number, scratch: Scratch): number {
  const epoch = ++scratch.epoch;
  for (let j = ix.off[y] as number; j < (ix.off[y + 1] as number); j++) {
    const z = ix.nbr[j] as number;
    if (scratch.stamp[z] !== epoch) {
      scratch.stamp[z] = epoch;
      scratch.head[z] = -1;
    }
    scratch.next[j] = scratch.head[z] as number;
    scratch.head[z] = j;
  }
  return epoch;
}

/** Draws per measured fact before its random object counts as unavailable (linked to the subject). */
const RANDOM_OBJECT_TRIES = 8;
/** A relation with fewer measured facts than this… */
const FEW_MEASURED_FACTS = 100;
/** …gets this many random objects per fact, so its rules are weighed against enough of them. */
const RANDOM_OBJECTS_FEW = 4;

function* mineRelationRules(
  ix: RulesIndex,
  r: number,
  limits: MineLimits,
  scratch: Scratch,
  random: () => number,
): Generator<number, { rules: PathRule[]; ints: IntRule[]; stats: RelationRuleStats }> {
  const S = ix.factS[r] as Int32Array;
  const O = ix.factO[r] as Int32Array;
  const facts = S.length;
  const headAtom = 2 * r;
  const sample = stride(facts, limits.headSamples);
  const sampled = sample.length < facts;
  const A = 2 * ix.keys.length;
  const counts = new Map<number, number>();
  const lastSeen = new Map<number, number>();
  const bump = (key: number, sampleNo: number) => {
    if (lastSeen.get(key) === sampleNo) return;
    lastSeen.set(key, sampleNo);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  };
  for (let t = 0; t < sample.length; t++) {
    const f = sample[t] as number;
    const x = S[f] as number;
    const y = O[f] as number;
    // y's neighbours, chained per middle node z (entries seen from y).
    const epoch = chainNeighbours(ix, y, scratch);
    let joined = 0;
    for (let i = ix.off[x] as number; i < (ix.off[x + 1] as number) && joined < limits.maxJoinPerFact; i++) {
      const z = ix.nbr[i] as number;
      const a1 = ix.atom[i] as number;
      if (z === y) {
        if (a1 !== headAtom) bump(a1, t);
        continue;
      }
      if (scratch.stamp[z] !== epoch) continue;
      for (let j = scratch.head[z] as number; j >= 0; j = scratch.next[j] as number) {
        bump(A + a1 * A + flip(ix.atom[j] as number), t);
        joined++;
      }
    }
    if (t % 25 === 24) yield 0;
  }
  const candidates = [...counts.entries()]
    .filter(([, c]) => c >= limits.minSupport && c / sample.length >= limits.minHeadCoverage)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, limits.maxCandidatesPerRelation);
  // Subjects of r, to estimate PCA body sizes.
  const rSubjects = [...new Set(S)].sort((a, b) => a - b);
  const kept: { rule: PathRule; int: IntRule; count: number }[] = [];
  for (const [key, count] of candidates) {
    const int: IntRule = key < A ? { a1: key, a2: -1 } : { a1: Math.floor((key - A) / A), a2: (key - A) % A };
    const support = sampled ? (count * facts) / sample.length : count;
    const domain = domainOf(ix, int.a1);
    const bodySize = estimateBody(ix, int, domain, limits, scratch);
    const pcaDomain = rSubjects.filter((x) => {
      const [s1, e1] = atomRange(ix, x, int.a1);
      return e1 > s1;
    });
    const pcaBodySize = estimateBody(ix, int, pcaDomain, limits, scratch);
    const confidence = Math.min(1, support / Math.max(support, bodySize));
    const pcaConfidence = Math.min(1, support / Math.max(support, pcaBodySize));
    yield 0;
    if (confidence < limits.minConfidence) continue;
    const text =
      int.a2 < 0
        ? `${atomText(ix, int.a1, "x", "y")} ⇒ ${ix.display[r]}(x,y)`
        : `${atomText(ix, int.a1, "x", "z")} ∧ ${atomText(ix, int.a2, "z", "y")} ⇒ ${ix.display[r]}(x,y)`;
    const body = int.a2 < 0 ? [toRuleAtom(ix, int.a1)] : [toRuleAtom(ix, int.a1), toRuleAtom(ix, int.a2)];
    kept.push({
      rule: {
        text,
        head: ix.display[r] as string,
        body,
        support: Math.round(support),
        headCoverage: support / facts,
        confidence,
        pcaConfidence,
        sampled,
      },
      int,
      count,
    });
  }
  kept.sort((a, b) => b.rule.confidence - a.rule.confidence || b.rule.support - a.rule.support);
  const best = kept.slice(0, limits.maxRulesPerRelation);
  if (limits.length3Samples > 0 && limits.maxLength3Rules > 0) {
    const long = yield* mineLength3(ix, r, limits, scratch);
    best.push(...long);
    best.sort((a, b) => b.rule.confidence - a.rule.confidence || b.rule.support - a.rule.support);
  }
  const ints = best.map((k) => k.int);
  // Recall on facts the rules were not found on, and the random-object fire rate. Measured on
  // the facts that chose the rules, recall is optimistic (on FB15k-237 test facts, rules fired
  // for 72% where the sample said 80–90%), and "no rule fires" then counts against a true fact
  // more than it should. Where the relation has more facts than the sample, they are measured
  // on another stride; a fact that was in the sample counts a rule only if the rule keeps
  // minSupport without it.
  const measured = sampled ? midStride(facts, limits.headSamples) : sample;
  const chose = new Set(sample);
  const bestTrue: number[] = [];
  const bestRandom: number[] = [];
  const isLong = best.map((k) => (k.int.a3 ?? -1) >= 0);
  /** The best confidence among firing rules of length ≤ 2 (long: of length 3), 0 when none fires. */
  const bestOf = (x: number, y: number, own: boolean, long = false) => {
    for (let k = 0; k < ints.length; k++) {
      if (isLong[k] !== long) continue;
      const b = best[k] as { rule: PathRule; count: number };
      if (own && b.count - 1 < limits.minSupport) continue;
      if (fires(ix, x, y, ints[k] as IntRule)) return b.rule.confidence;
    }
    return 0;
  };
  const longCount = isLong.filter(Boolean).length;
  const randomPerFact = measured.length < FEW_MEASURED_FACTS ? RANDOM_OBJECTS_FEW : 1;
  const extraRandom = rng(limits.seed + 11 * r + 0x5bd1e995);
  const longRandom = rng(limits.seed + 7 * r + 0x3c6ef372);
  // Length-3 rules speak only where no shorter rule fires, so they are measured there: among
  // the true facts no shorter rule predicts, and among other objects of the relation (another
  // fact's object: as popular, same kind) no shorter rule predicts either.
  let longTrueTried = 0;
  let longTrue = 0;
  let longOther = 0;
  let longOtherTried = 0;
  for (let t = 0; t < measured.length; t++) {
    const f = measured[t] as number;
    const x = S[f] as number;
    const own = chose.has(f);
    const shortBest = bestOf(x, O[f] as number, own);
    bestTrue.push(shortBest);
    const other = Math.floor(random() * ix.n);
    if (t % 50 === 49) yield 0;
    if (longCount > 0) {
      if (shortBest === 0) {
        longTrueTried++;
        if (bestOf(x, O[f] as number, own, true) > 0) longTrue++;
      }
      {
        const same = O[Math.floor(longRandom() * facts)] as number;
        if (same !== x && same !== O[f] && !hasEntry(ix, x, headAtom, same) && bestOf(x, same, false) === 0) {
          longOtherTried++;
          if (bestOf(x, same, false, true) > 0) longOther++;
        }
      }
      if (t % 10 === 9) yield 0;
    }
    // The random object must be one x is not linked to by r. On a small dense graph (nations:
    // 14 nodes) most first draws are linked, and one draw per fact left 12–40 random objects
    // per relation to weigh the rules by: retried, and where a relation has few measured facts,
    // several per fact (their own generator, so the shared stream is drawn as before).
    for (let k = 0; k < randomPerFact; k++) {
      let o = k === 0 ? other : Math.floor(extraRandom() * ix.n);
      for (let tries = 1; (o === x || hasEntry(ix, x, headAtom, o)) && tries < RANDOM_OBJECT_TRIES; tries++) o = Math.floor(extraRandom() * ix.n);
      if (o === x || hasEntry(ix, x, headAtom, o)) continue;
      bestRandom.push(bestOf(x, o, false));
    }
  }
  bestTrue.sort((a, b) => a - b);
  bestRandom.sort((a, b) => a - b);
  const recalled = bestTrue.filter((c) => c > 0).length;
  const randomFired = bestRandom.filter((c) => c > 0).length;
  const randomTried = bestRandom.length;
  return {
    rules: best.map((k) => k.rule),
    ints,
    stats: {
      relation: ix.display[r] as string,
      facts,
      rules: best.length - longCount,
      longRules: longCount,
      ruleRecall: measured.length ? recalled / measured.length : 0,
      randomFireRate: randomTried ? randomFired / randomTried : 0,
      longRecall: longTrueTried ? longTrue / longTrueTried : 0,
      longTrueSamples: longTrueTried,
      longOtherRate: longOtherTried ? longOther / longOtherTried : 0,
      longOtherSamples: longOtherTried,
      sampledFacts: measured.length,
      randomSamples: randomTried,
      bestConfidenceTrue: bestTrue,
      bestConfidenceRandom: bestRandom,
    },
  };
}

const degreeOf = (ix: RulesIndex, u: number): number => graphEnd(ix, u) - (ix.off[u] as number);

/** x values sampled per length-3 rule to measure its confidence. */
const LENGTH3_BODY_SAMPLES = 30;
/** Distinct y reached per sampled x before a length-3 body counts as unbounded (the rule is dropped). */
const LENGTH3_MAX_REACH = 3_000;
/** Paths walked per sampled x before the body counts as unbounded. */
const LENGTH3_MAX_PATHS = 20_000;

/**
 * Length-3 path rules for relation r, in the style of AMIE: `a1(x,z) ∧ a2(z,w) ∧ a3(w,y) ⇒
 * r(x,y)`, x, z, w, y distinct. Bodies are found on `length3Samples` head facts (even stride):
 * y's neighbours w are marked, then x's neighbours z (degree ≤ maxLength3Degree) are walked, at
 * most maxJoin3PerFact entries per fact. Kept: bodies seen for ≥ minSupport sampled facts and
 * head coverage ≥ minHeadCoverage, the best 2 × maxLength3Rules by count measured. Standard
 * confidence = Σ over sampled x (even stride over the nodes a1 starts at) of the reached y that
 * are r-objects of x / Σ of the reached y; a body that reaches more than LENGTH3_MAX_REACH y (or
 * walks more than LENGTH3_MAX_PATHS paths) from one sampled x is dropped (too unspecific to measure, and weak). The best maxLength3Rules with
 * confidence ≥ minConfidence are returned.
 */
function* mineLength3(ix: RulesIndex, r: number, limits: MineLimits, scratch: Scratch): Generator<number, { rule: PathRule; int: IntRule; count: number }[]> {
  const S = ix.factS[r] as Int32Array;
  const O = ix.factO[r] as Int32Array;
  const facts = S.length;
  const A = 2 * ix.keys.length;
  const sample = stride(facts, limits.length3Samples);
  if (sample.length === 0) return [];
  const counts = new Map<number, number>();
  const lastSeen = new Map<number, number>();
  for (let t = 0; t < sample.length; t++) {
    const f = sample[t] as number;
    const x = S[f] as number;
    const y = O[f] as number;
    const epoch = chainNeighbours(ix, y, scratch);
    let work = 0;
    for (let i = ix.off[x] as number; i < (ix.off[x + 1] as number) && work < limits.maxJoin3PerFact; i++) {
      const z = ix.nbr[i] as number;
      if (z === y || degreeOf(ix, z) > limits.maxLength3Degree) continue;
      const a1 = ix.atom[i] as number;
      for (let j = ix.off[z] as number; j < (ix.off[z + 1] as number); j++) {
        work++;
        const w = ix.nbr[j] as number;
        if (w === x || w === y || scratch.stamp[w] !== epoch) continue;
        const a2 = ix.atom[j] as number;
        for (let k = scratch.head[w] as number; k >= 0; k = scratch.next[k] as number) {
          const key = (a1 * A + a2) * A + flip(ix.atom[k] as number);
          if (lastSeen.get(key) === t) continue;
          lastSeen.set(key, t);
          counts.set(key, (counts.get(key) ?? 0) + 1);
        }
      }
    }
    if (t % 10 === 9) yield 0;
  }
  const candidates = [...counts.entries()]
    .filter(([, c]) => c >= limits.minSupport && c / sample.length >= limits.minHeadCoverage)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, 2 * limits.maxLength3Rules);
  const out: { rule: PathRule; int: IntRule; count: number }[] = [];
  for (const [key, count] of candidates) {
    const a3 = key % A;
    const a2 = Math.floor(key / A) % A;
    const a1 = Math.floor(key / (A * A));
    const int: IntRule = { a1, a2, a3 };
    const domain = domainOf(ix, a1);
    let hits = 0;
    let reached = 0;
    let unbounded = false;
    for (const p of stride(domain.length, LENGTH3_BODY_SAMPLES)) {
      const x = domain[p] as number;
      const epoch = ++scratch.epoch;
      let n = 0;
      let paths = 0;
      const [s1, e1] = atomRange(ix, x, a1);
      for (let i = s1; i < e1 && !unbounded; i++) {
        const z = ix.nbr[i] as number;
        const [s2, e2] = atomRange(ix, z, a2);
        for (let j = s2; j < e2 && !unbounded; j++) {
          const w = ix.nbr[j] as number;
          if (w === x) continue;
          const [s3, e3] = atomRange(ix, w, a3);
          paths += e3 - s3;
          if (paths > LENGTH3_MAX_PATHS) {
            unbounded = true;
            break;
          }
          for (let k = s3; k < e3; k++) {
            const y = ix.nbr[k] as number;
            if (y === x || y === z || scratch.mark[y] === epoch) continue;
            scratch.mark[y] = epoch;
            n++;
            if (hasEntry(ix, x, 2 * r, y)) hits++;
            if (n > LENGTH3_MAX_REACH) {
              unbounded = true;
              break;
            }
          }
        }
      }
      reached += n;
      if (unbounded) break;
      yield 0;
    }
    if (unbounded || reached === 0) continue;
    const confidence = hits / reached;
    if (confidence < limits.minConfidence) continue;
    const support = (count * facts) / sample.length;
    out.push({
      rule: {
        text: `${atomText(ix, a1, "x", "z")} ∧ ${atomText(ix, a2, "z", "w")} ∧ ${atomText(ix, a3, "w", "y")} ⇒ ${ix.display[r]}(x,y)`,
        head: ix.display[r] as string,
        body: [toRuleAtom(ix, a1), toRuleAtom(ix, a2), toRuleAtom(ix, a3)],
        support: Math.round(support),
        headCoverage: support / facts,
        confidence,
        pcaConfidence: confidence,
        sampled: sample.length < facts,
      },
      int,
      // On the scale of the head sample, for the leave-one-out measure of recall.
      count: Math.round((count * Math.min(facts, limits.headSamples)) / sample.length),
    });
  }
  out.sort((a, b) => b.rule.confidence - a.rule.confidence || b.rule.support - a.rule.support);
  return out.slice(0, limits.maxLength3Rules);
}

const queryScratches = new WeakMap<RulesIndex, Scratch>();
function queryScratch(ix: RulesIndex): Scratch {
  let s = queryScratches.get(ix);
  if (!s) {
    s = { stamp: new Int32Array(ix.n), head: new Int32Array(ix.n), next: new Int32Array(ix.atom.length), mark: new Int32Array(ix.n), epoch: 0 };
    queryScratches.set(ix, s);
  }
  return s;
}

/** Entries read per similarity walk (the subject's neighbours' entries, least connected first). */
const SIMILARITY_WORK = 10_000;

interface SimilarityScratch {
  stamp: Int32Array;
  value: Float64Array;
  /** One middle node f per reached z, and the atoms x→f, f→z. */
  via: Int32Array;
  viaAtom1: Int32Array;
  viaAtom2: Int32Array;
  /** The middle-node walk that last added to z (one middle node counts once per z). */
  lastF: Int32Array;
  epoch: number;
  walk: number;
}

function newSimilarityScratch(n: number): SimilarityScratch {
  return { stamp: new Int32Array(n), value: new Float64Array(n), via: new Int32Array(n), viaAtom1: new Int32Array(n), viaAtom2: new Int32Array(n), lastF: new Int32Array(n), epoch: 0, walk: 0 };
}

const similarityScratches = new WeakMap<RulesIndex, SimilarityScratch>();
function similarityScratch(ix: RulesIndex): SimilarityScratch {
  let s = similarityScratches.get(ix);
  if (!s) similarityScratches.set(ix, (s = newSimilarityScratch(ix.n)));
  return s;
}

/**
 * How much each node z shares x's neighbours: Σ over shared neighbours f of 1 / ln(1 + deg f)
 * (Adamic–Adar). x's neighbours are walked from the least connected on until maxWork entries
 * are read, so hubs are reached last, if at all. y (the judged object) is never a middle node,
 * and excluded facts are not walked. Read with `stamp[z] === epoch`.
 */
function similarity(ix: RulesIndex, x: number, y: number, sim: SimilarityScratch, maxWork: number, excluded: Set<string> | null): SimilarityScratch {
  const epoch = ++sim.epoch;
  const lo = ix.off[x] as number;
  // The index's "same name" links are path-rule bodies only (rules-index.ts): a node and its
  // namesake are one thing named twice, not two neighbours.
  const hi = graphEnd(ix, x);
  const order: number[] = [];
  for (let i = lo; i < hi; i++) {
    const f = ix.nbr[i] as number;
    if (f === y || (i > lo && ix.nbr[i - 1] === f && ix.atom[i - 1] === ix.atom[i])) continue;
    if (excluded?.has(factKey(x, ix.atom[i] as number, f))) continue;
    order.push(i);
  }
  // Degrees read once per entry (graphEnd is a binary search when the index has namesakes).
  const degreeAt = new Map<number, number>();
  for (const i of order) degreeAt.set(i, degreeOf(ix, ix.nbr[i] as number));
  order.sort((a, b) => (degreeAt.get(a) as number) - (degreeAt.get(b) as number) || a - b);
  const seenF = new Set<number>();
  let work = 0;
  for (const i of order) {
    const f = ix.nbr[i] as number;
    if (seenF.has(f)) continue;
    seenF.add(f);
    const d = degreeAt.get(i) as number;
    if (work + d > maxWork) break;
    work += d;
    const w = 1 / Math.log(1 + d);
    const walk = ++sim.walk;
    for (let j = ix.off[f] as number, end = graphEnd(ix, f); j < end; j++) {
      const z = ix.nbr[j] as number;
      if (z === x || z === y) continue;
      if (excluded?.has(factKey(f, ix.atom[j] as number, z))) continue;
      if (sim.stamp[z] !== epoch) {
        sim.stamp[z] = epoch;
        sim.value[z] = 0;
        sim.via[z] = f;
        sim.viaAtom1[z] = ix.atom[i] as number;
        sim.viaAtom2[z] = ix.atom[j] as number;
      } else if (sim.lastF[z] === walk) continue;
      sim.lastF[z] = walk;
      sim.value[z] = (sim.value[z] as number) + w;
    }
  }
  return sim;
}

/**
 * Every shared neighbour z of x and y (z neither of them): visit(z, a1, a2) per pair of entries,
 * a1 the atom from x to z, a2 the atom from z to y. Cost deg(x) + deg(y) (+ the instances, at
 * most maxJoin).
 */
function joinShared(ix: RulesIndex, x: number, y: number, scratch: Scratch, maxJoin: number, visit: (z: number, a1: number, a2: number) => void): void {
  const epoch = chainNeighbours(ix, y, scratch);
  const sn = ix.sameName;
  let joined = 0;
  for (let i = ix.off[x] as number; i < (ix.off[x + 1] as number) && joined < maxJoin; i++) {
    const z = ix.nbr[i] as number;
    if (z === y || z === x || scratch.stamp[z] !== epoch) continue;
    const a1 = ix.atom[i] as number;
    if (a1 >> 1 === sn) continue;
    for (let j = scratch.head[z] as number; j >= 0; j = scratch.next[j] as number) {
      if ((ix.atom[j] as number) >> 1 === sn) continue;
      visit(z, a1, flip(ix.atom[j] as number));
      joined++;
    }
  }
}

/** A pattern marks a relation when it joins at least this share (and 2) of the choosing half's true facts… */
const NEIGHBOUR_PATTERN_SHARE = 0.02;
/** …and at least this many times as many true pairs as random ones (add-one smoothed). */
const NEIGHBOUR_PATTERN_LIFT = 2;

/**
 * The shared-neighbour model of relation r: sampled facts (even stride) alternate between
 * choosing the patterns and measuring them, so the measured ratio is on facts the patterns were
 * not chosen on. Each fact is paired with a random object of r that its subject is not linked to.
 */
function* mineNeighbourModel(
  ix: RulesIndex,
  r: number,
  limits: MineLimits,
  scratch: Scratch,
  simScratch: SimilarityScratch,
  random: () => number,
): Generator<number, NeighbourModel> {
  const S = ix.factS[r] as Int32Array;
  const O = ix.factO[r] as Int32Array;
  const relation = ix.display[r] as string;
  const A = 2 * ix.keys.length;
  const sample = stride(S.length, limits.neighbourSamples);
  ix.neighbourPatterns[r] = new Set();
  const empty: NeighbourModel = { relation, patterns: [], patternCount: 0, scoresTrue: [], scoresRandom: [], similarTrue: [], similarRandom: [] };
  if (sample.length < 2 * MIN_NEIGHBOUR_MEASURED) return empty;
  // The random object is another fact's object: as popular as true objects are, so a popular
  // object (many subjects, many shared neighbours) earns nothing by being popular.
  const pairs: { x: number; y: number; other: number }[] = [];
  for (const f of sample) {
    const x = S[f] as number;
    const y = O[f] as number;
    let other = -1;
    for (let tries = 0; tries < 5 && other < 0; tries++) {
      const c = O[Math.floor(random() * O.length)] as number;
      if (c !== x && c !== y && !hasEntry(ix, x, 2 * r, c)) other = c;
    }
    pairs.push({ x, y, other });
  }
  const patternsOf = (x: number, y: number): Set<number> => {
    const out = new Set<number>();
    joinShared(ix, x, y, scratch, limits.maxJoinPerFact, (_z, a1, a2) => out.add(a1 * A + a2));
    return out;
  };
  const countTrue = new Map<number, number>();
  const countRandom = new Map<number, number>();
  let choosing = 0;
  for (let t = 0; t < pairs.length; t += 2) {
    const p = pairs[t] as { x: number; y: number; other: number };
    choosing++;
    for (const k of patternsOf(p.x, p.y)) countTrue.set(k, (countTrue.get(k) ?? 0) + 1);
    if (p.other >= 0) for (const k of patternsOf(p.x, p.other)) countRandom.set(k, (countRandom.get(k) ?? 0) + 1);
    if (t % 50 === 48) yield 0;
  }
  const minCount = Math.max(2, NEIGHBOUR_PATTERN_SHARE * choosing);
  const kept = [...countTrue.entries()]
    .filter(([k, c]) => c >= minCount && (c + 1) / ((countRandom.get(k) ?? 0) + 1) >= NEIGHBOUR_PATTERN_LIFT)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const patterns = new Set(kept.map(([k]) => k));
  ix.neighbourPatterns[r] = patterns;
  const overlap = (x: number, y: number): number => {
    if (patterns.size === 0) return 0;
    const seen = new Set<number>();
    let score = 0;
    joinShared(ix, x, y, scratch, limits.maxJoinPerFact, (z, a1, a2) => {
      if (seen.has(z) || !patterns.has(a1 * A + a2)) return;
      seen.add(z);
      score += 1 / Math.log(1 + degreeOf(ix, z));
    });
    return score;
  };
  // One walk per subject, the true object never a middle node; the random pair reuses it (a
  // middle node equal to the random object can only raise the random scores: conservative).
  const liked = (sim: SimilarityScratch, x: number, y: number): number => {
    const [lo, hi] = atomRange(ix, y, 2 * r + 1);
    let score = 0;
    for (let j = lo; j < hi; j++) {
      const z = ix.nbr[j] as number;
      if (z !== x && sim.stamp[z] === sim.epoch) score += sim.value[z] as number;
    }
    return score;
  };
  const scoresTrue: number[] = [];
  const scoresRandom: number[] = [];
  const similarTrue: number[] = [];
  const similarRandom: number[] = [];
  for (let t = 1; t < pairs.length; t += 2) {
    const p = pairs[t] as { x: number; y: number; other: number };
    scoresTrue.push(overlap(p.x, p.y));
    const sim = similarity(ix, p.x, p.y, simScratch, SIMILARITY_WORK, null);
    similarTrue.push(liked(sim, p.x, p.y));
    if (p.other >= 0) {
      scoresRandom.push(overlap(p.x, p.other));
      similarRandom.push(liked(sim, p.x, p.other));
    }
    if (t % 25 === 23) yield 0;
  }
  for (const a of [scoresTrue, scoresRandom, similarTrue, similarRandom]) a.sort((p, q) => p - q);
  const text = (k: number) => `${atomText(ix, Math.floor(k / A), "x", "z")} ∧ ${atomText(ix, k % A, "z", "y")}`;
  return { relation, patterns: kept.slice(0, 10).map(([k]) => text(k)), patternCount: kept.length, scoresTrue, scoresRandom, similarTrue, similarRandom };
}

/** Nodes at which atom a starts (subjects of its relation for an out-atom, objects for an in-atom). */
const domainCache = new WeakMap<RulesIndex, Map<number, number[]>>();
function domainOf(ix: RulesIndex, a: number): number[] {
  let cache = domainCache.get(ix);
  if (!cache) domainCache.set(ix, (cache = new Map<number, number[]>()));
  let d = cache.get(a);
  if (!d) {
    const r = a >> 1;
    const side = a & 1 ? ix.factO[r] : ix.factS[r];
    d = [...new Set(side ?? [])].sort((p, q) => p - q);
    cache.set(a, d);
  }
  return d;
}

/** |{(x, y): body(x, y), x ∈ domain}|, estimated from x values at an even stride over the domain. */
function estimateBody(ix: RulesIndex, rule: IntRule, domain: number[], limits: MineLimits, scratch: Scratch): number {
  if (domain.length === 0) return 0;
  const picks = stride(domain.length, limits.bodySamples);
  let total = 0;
  for (const p of picks) {
    const x = domain[p] as number;
    const [s1, e1] = atomRange(ix, x, rule.a1);
    if (rule.a2 < 0) {
      total += e1 - s1; // distinct facts: one entry per distinct y
      continue;
    }
    let paths = 0;
    const ranges: [number, number][] = [];
    for (let i = s1; i < e1; i++) {
      const z = ix.nbr[i] as number;
      const range = atomRange(ix, z, rule.a2);
      ranges.push(range);
      paths += range[1] - range[0];
    }
    if (paths > limits.maxBodyEnumeration) {
      total += paths; // upper bound: lowers the confidence, never raises it
      continue;
    }
    const epoch = ++scratch.epoch;
    let distinct = 0;
    for (const [lo, hi] of ranges) {
      for (let j = lo; j < hi; j++) {
        const y = ix.nbr[j] as number;
        if (y === x || scratch.mark[y] === epoch) continue;
        scratch.mark[y] = epoch;
        distinct++;
      }
    }
    total += distinct;
  }
  return (total / picks.length) * domain.length;
}

/** Share of nodes that must newly be covered for another signature feature to be worth listing. */
const MIN_FEATURE_GAIN = 0.01;
/** Distinctive: at least this share of the relation's nodes, and LIFT times the share among all nodes. */
const MIN_FEATURE_SHARE = 0.05;
const MIN_FEATURE_LIFT = 2;
const SIGNATURE_SAMPLES = 1_000;

interface Base {
  /** Sampled nodes. */
  size: number;
  /** Feature (atom, or A + file type) → the sampled nodes (by position) that have it. */
  holders: Map<number, number[]>;
}

function featuresOf(ix: RulesIndex, u: number, ownAtom: number): Int32Array {
  const out: number[] = [];
  const lo = ix.off[u] as number;
  const hi = graphEnd(ix, u); // a namesake is no kind
  for (let j = lo; j < hi; j++) {
    const a = ix.atom[j] as number;
    if (j > lo && ix.atom[j - 1] === a) continue;
    // The judged edge is left out: "object of r" needs another r-edge.
    if (a === ownAtom && !(j + 1 < hi && ix.atom[j + 1] === a)) continue;
    out.push(a);
  }
  const t = ix.fileType[u] as number;
  if (t >= 0) out.push(2 * ix.keys.length + t);
  return Int32Array.from(out);
}

function* buildBase(ix: RulesIndex, limits: MineLimits): Generator<number, Base> {
  const holders = new Map<number, number[]>();
  const picks = stride(ix.n, limits.baseSamples);
  picks.forEach((u, i) => {
    for (const f of featuresOf(ix, u, -1)) {
      const list = holders.get(f);
      if (list) list.push(i);
      else holders.set(f, [i]);
    }
  });
  yield 0;
  return { size: picks.length, holders };
}

function featureInfo(ix: RulesIndex, f: number, ownAtom: number): { feature: string; label: string } {
  const A = 2 * ix.keys.length;
  if (f >= A) {
    const t = ix.fileTypes[f - A] as string;
    return { feature: `type:${t}`, label: `file_type ${t}` };
  }
  const name = ix.display[f >> 1] as string;
  const key = ix.keys[f >> 1] as string;
  const another = f === ownAtom ? "another " : "";
  return f & 1
    ? { feature: `in:${key}`, label: `object of ${another}${name} edge` }
    : { feature: `out:${key}`, label: `subject of ${another}${name} edge` };
}

function quantiles(values: number[]): number[] {
  if (values.length === 0) return [];
  const sorted = [...values].sort((a, b) => a - b);
  return Array.from({ length: 11 }, (_, i) => sorted[Math.min(sorted.length - 1, Math.round((i / 10) * (sorted.length - 1)))] as number);
}

function sideSignature(ix: RulesIndex, ownAtom: number, base: Base, degree: Int32Array, limits: MineLimits): { side: SideSignature; ids: number[] } {
  const nodes = domainOf(ix, ownAtom);
  const picks = stride(nodes.length, SIGNATURE_SAMPLES).map((p) => nodes[p] as number);
  const lists = picks.map((u) => featuresOf(ix, u, ownAtom));
  const count = new Map<number, number>();
  for (const list of lists) for (const f of list) count.set(f, (count.get(f) ?? 0) + 1);
  const total = Math.max(1, lists.length);
  const baseTotal = Math.max(1, base.size);
  const baseShare = (f: number) => (base.holders.get(f)?.length ?? 0) / baseTotal;
  const distinctive = new Set(
    [...count.entries()]
      .filter(([f, c]) => c / total >= MIN_FEATURE_SHARE && c / total >= MIN_FEATURE_LIFT * Math.max(baseShare(f), 1 / baseTotal))
      .map(([f]) => f),
  );
  // Greedy cover: each next feature covers the most nodes not yet covered.
  const covered = new Uint8Array(lists.length);
  const chosen: number[] = [];
  while (chosen.length < limits.maxSignatureFeatures && distinctive.size > 0) {
    const gain = new Map<number, number>();
    lists.forEach((list, i) => {
      if (covered[i]) return;
      for (const f of list) if (distinctive.has(f)) gain.set(f, (gain.get(f) ?? 0) + 1);
    });
    let best = -1;
    let bestGain = 0;
    for (const [f, g] of gain) {
      if (g > bestGain || (g === bestGain && f < best)) {
        best = f;
        bestGain = g;
      }
    }
    if (best < 0 || bestGain < Math.max(1, MIN_FEATURE_GAIN * lists.length)) break;
    chosen.push(best);
    distinctive.delete(best);
    lists.forEach((list, i) => {
      if (!covered[i] && list.includes(best)) covered[i] = 1;
    });
  }
  const coveredCount = covered.reduce((a, b) => a + b, 0);
  const baseHit = new Set<number>();
  for (const f of chosen) for (const i of base.holders.get(f) ?? []) baseHit.add(i);
  const baseCovered = baseHit.size;
  const side: SideSignature = {
    nodes: nodes.length,
    features: chosen.map((f) => ({ ...featureInfo(ix, f, ownAtom), share: (count.get(f) ?? 0) / total, baseShare: baseShare(f) })),
    coverage: coveredCount / total,
    baseCoverage: baseCovered / baseTotal,
    degreeQuantiles: quantiles(nodes.map((u) => degree[u] as number)),
  };
  return { side, ids: chosen };
}

function* relationSignature(
  ix: RulesIndex,
  r: number,
  base: Base,
  degree: Int32Array,
  community: (string | number | null)[] | null,
  limits: MineLimits,
): Generator<number, RelationSignature> {
  const S = ix.factS[r] as Int32Array;
  const O = ix.factO[r] as Int32Array;
  let sameCommunityShare: number | null = null;
  if (community) {
    const picks = stride(S.length, SIGNATURE_SAMPLES);
    let same = 0;
    let known = 0;
    for (const f of picks) {
      const a = community[S[f] as number] ?? null;
      const b = community[O[f] as number] ?? null;
      if (a === null || b === null) continue;
      known++;
      if (a === b) same++;
    }
    sameCommunityShare = known ? same / known : null;
  }
  const subject = sideSignature(ix, 2 * r, base, degree, limits);
  yield 0;
  const object = sideSignature(ix, 2 * r + 1, base, degree, limits);
  ix.signatureFeatures[r] = { subject: subject.ids, object: object.ids };
  return { relation: ix.display[r] as string, facts: S.length, subject: subject.side, object: object.side, sameCommunityShare };
}

/** A relation is functional when at most this share of its subjects has several objects. */
const FUNCTIONAL_MULTI_SHARE = 0.1;
const FUNCTIONAL_MIN_SUBJECTS = 5;

function functionalStats(ix: RulesIndex, r: number): FunctionalStats {
  const S = ix.factS[r] as Int32Array;
  const O = ix.factO[r] as Int32Array;
  const side = (values: Int32Array) => {
    const per = new Map<number, number>();
    for (const v of values) per.set(v, (per.get(v) ?? 0) + 1);
    let multi = 0;
    for (const c of per.values()) if (c > 1) multi++;
    return { distinct: per.size, multiShare: per.size ? multi / per.size : 0 };
  };
  const subj = side(S);
  const obj = side(O);
  const facts = Math.max(1, S.length);
  return {
    relation: ix.display[r] as string,
    facts: S.length,
    subjects: subj.distinct,
    objects: obj.distinct,
    functionality: subj.distinct / facts,
    inverseFunctionality: obj.distinct / facts,
    multiObjectShare: subj.multiShare,
    multiSubjectShare: obj.multiShare,
    isFunctional: subj.distinct >= FUNCTIONAL_MIN_SUBJECTS && subj.multiShare <= FUNCTIONAL_MULTI_SHARE,
    isInverseFunctional: obj.distinct >= FUNCTIONAL_MIN_SUBJECTS && obj.multiShare <= FUNCTIONAL_MULTI_SHARE,
  };
}

function* mine(graph: KnowledgeGraph, limits: MineLimits): Generator<number, MinedGraphRules> {
  const INDEX = 0.1;
  const RULES = 0.7;
  const NEIGHBOURS = 0.75;
  const CONSTANTS = 0.8;
  const EMBEDDING = 0.88;
  const build = buildIndex(graph);
  let ix: RulesIndex;
  for (;;) {
    const next = build.next();
    if (next.done) {
      ix = next.value;
      break;
    }
    yield next.value * INDEX;
  }
  const R = ix.keys.length;
  const totalFacts = ix.factS.reduce((sum, a) => sum + a.length, 0);
  const scratch: Scratch = {
    stamp: new Int32Array(ix.n),
    head: new Int32Array(ix.n),
    next: new Int32Array(ix.atom.length),
    mark: new Int32Array(ix.n),
    epoch: 0,
  };
  const random = rng(limits.seed);
  const rulesByHead = new Map<string, PathRule[]>();
  const ruleStats = new Map<string, RelationRuleStats>();
  let done = 0;
  let ruleCount = 0;
  for (let r = 0; r < R; r++) {
    const share = (ix.factS[r] as Int32Array).length / Math.max(1, totalFacts);
    const run = mineRelationRules(ix, r, limits, scratch, random);
    let step = 0;
    for (;;) {
      const next = run.next();
      if (next.done) {
        rulesByHead.set(ix.keys[r] as string, next.value.rules);
        ix.rules[r] = next.value.ints;
        ruleStats.set(ix.keys[r] as string, next.value.stats);
        ruleCount += next.value.rules.length;
        break;
      }
      step++;
      yield INDEX + (RULES - INDEX) * (done + share * Math.min(0.95, step / 40));
    }
    done += share;
    yield INDEX + (RULES - INDEX) * done;
  }
  const neighbours = new Map<string, NeighbourModel>();
  const neighbourRandom = rng(limits.seed + 0x5bd1e995);
  const simScratch = newSimilarityScratch(ix.n);
  for (let r = 0; r < R; r++) {
    neighbours.set(ix.keys[r] as string, yield* mineNeighbourModel(ix, r, limits, scratch, simScratch, neighbourRandom));
    yield RULES + (NEIGHBOURS - RULES) * ((r + 1) / R);
  }
  const degree = new Int32Array(ix.n);
  ix.ids.forEach((id, u) => (degree[u] = graph.degree(id)));
  let hasCommunity = false;
  const community = ix.ids.map((id) => {
    const c = graph.nodes.get(id)?.community ?? null;
    if (c !== null) hasCommunity = true;
    return c;
  });
  yield NEIGHBOURS;
  const baseRun = buildBase(ix, limits);
  let base: Base;
  for (;;) {
    const next = baseRun.next();
    if (next.done) {
      base = next.value;
      break;
    }
    yield NEIGHBOURS;
  }
  const signatures = new Map<string, RelationSignature>();
  const functional = new Map<string, FunctionalStats>();
  for (let r = 0; r < R; r++) {
    signatures.set(ix.keys[r] as string, yield* relationSignature(ix, r, base, degree, hasCommunity ? community : null, limits));
    functional.set(ix.keys[r] as string, functionalStats(ix, r));
    yield NEIGHBOURS + (CONSTANTS - NEIGHBOURS) * ((r + 1) / R);
  }
  domainCache.delete(ix); // mining scratch: the queries need only the CSR
  const disjointRun = measureDisjointRelations(ix, limits.disjointSamples, rng(limits.seed + 0x3c6ef372));
  let disjoint: Map<string, DisjointStats>;
  for (;;) {
    const next = disjointRun.next();
    if (next.done) {
      disjoint = next.value;
      break;
    }
    yield CONSTANTS;
  }
  const constantRun = mineConstantModels(ix, limits.constantSamples, rng(limits.seed + 0x27d4eb2d));
  let constants: Map<string, ConstantRuleModel>;
  for (;;) {
    const next = constantRun.next();
    if (next.done) {
      constants = next.value;
      break;
    }
    yield CONSTANTS + (EMBEDDING - CONSTANTS) * next.value;
  }
  const embeddingRun = trainEmbeddings(ix, { dim: limits.embeddingDim, epochs: limits.embeddingEpochs, heldOut: DEFAULT_EMBEDDING_LIMITS.heldOut, othersPerFact: limits.embeddingOthersPerFact, negatives: limits.embeddingNegatives, loss: limits.embeddingSoftmax ? "softmax" : "logistic", seed: limits.seed + 0x165667b1 });
  let embedding: EmbeddingModel | null;
  for (;;) {
    const next = embeddingRun.next();
    if (next.done) {
      embedding = next.value;
      break;
    }
    yield EMBEDDING + (1 - EMBEDDING) * next.value;
  }
  const sameSource = measureSameSource(ix, limits.sameSourceSamples, rng(limits.seed + 0x2545f491));
  return {
    rulesByHead,
    ruleStats,
    signatures,
    functional,
    neighbours,
    constants,
    embedding,
    sameSource,
    disjoint,
    stats: { nodes: ix.n, facts: totalFacts, relations: R, rules: ruleCount, ms: 0 },
    limits,
    index: ix,
  };
}
