/**
 * Question → subgraph, compatible with `graphify query` (v0.8 scoring, v0.9 seeding) but
 * returning structured triples in stored direction instead of budget-cut text.
 *
 * Deliberate departures from graphify, each fixing a complaint in reference.md §2:
 * - induced edges among all visited nodes are ranked and returned separately from nodes, so a
 *   broad question cannot end with zero edges;
 * - question words that name a relation of this graph ("directed", "calls") and generic words
 *   ("function", "data") are down-weighted for seeding instead of hijacking seeds, and rank
 *   edges instead;
 * - a run of question words that spells a whole multi-word label ("Grégoire Colin") scores that
 *   node as an exact phrase, so a shorter exact label ("Colin") cannot outrank it;
 * - seeds are expanded even when they are hubs (the question named them), but not the hub
 *   seed's neighbours; hubs reached by traversal are not expanded;
 * - when no seed has an edge of the kind a question asks for ("what calls X"), traversal falls
 *   back to all edges instead of returning nothing.
 */
import { DerivedCache, type GraphDelta, LayeredMap } from "../graph/derived-cache";
import type { GraphEdge, GraphNode, KnowledgeGraph, Triple } from "../graph/model";
import { stripCallSuffix, tokenize } from "../graph/normalize";
import { identifierWords } from "../graph/resolve-name";
import { getHeuristicIndex } from "../providers/heuristic/graph-index";
import { findQuestionEntities } from "../providers/heuristic/question-entities";
import { getRelationRanker } from "./rank-relations";
import { SegmentText } from "./segment-text";

export interface QueryGraphOptions {
  graph: KnowledgeGraph;
  question: string;
  maxSeeds?: number;
  depth?: number;
  /** Maximum triples returned. */
  limit?: number;
  /** Stop adding triples once their `subject relation object` lines would exceed this. */
  budgetChars?: number;
}

export interface QuerySeed {
  id: string;
  label: string;
  score: number;
}

export interface QueryGraphResult {
  seeds: QuerySeed[];
  /** Ranked most relevant first, each in the edge's stored direction. */
  triples: Triple[];
  /** Edge key of each triple (same order), for dedup against later expansions. */
  edgeKeys: string[];
  /** Visited node ids in traversal order, seeds first. */
  nodes: string[];
  terms: string[];
}

// ---------------------------------------------------------------------------------------------
// Terms

const STOPWORDS = new Set(
  `a about above after again against all also am an and any are aren as at be because been before
  being below between both but by can cannot could couldn did didn do does doesn doing don down
  during each either else ever few for from further got had hadn has hasn have haven having
  he her here hers herself him himself his how however i if in into is isn it its itself just let
  like me more most much must my myself neither no nor not now of off on once only or other ought
  our ours ourselves out over own same shall she should shouldn so some such than that the their
  theirs them themselves then there these they this those through to too under until up upon us
  very via was wasn we were weren what whatever when whenever where whereas wherever whether which
  while who whoever whom whose why will with within without won would wouldn yet you your yours
  yourself yourselves tell give explain describe please many anything something
  everything thing things kind sort way ways work works happen happens`.split(/\s+/),
);

/**
 * Words that occur in countless labels and questions without naming anything: kept as terms
 * (a question may be about "the data module") but weighted down so they cannot pick seeds.
 */
const GENERIC = new Set(
  `function functions func method methods class classes file files data module modules code value
  values object objects type types variable variables param params parameter parameters argument
  arguments return returns result results name names call calls called use uses used using
  import imports test tests util utils helper helpers main run init new self none true false
  string list dict item items info config get gets set find show movie movies
  film films actor actors person people year years book books`.split(/\s+/),
);

const GENERIC_WEIGHT = 0.2;
/** The relation ranker's score (about 1 per question word met) on the scale of one label-word idf. */
const RELATION_SCALE = 4;
const ANCHOR_RELEVANCE = 0;

/** Question words that ask about one kind of edge; traversal keeps to it when the graph has it. */
const TRAVERSAL_WORDS: Record<string, readonly string[]> = {};
for (const [words, relations] of [
  ["call calls called calling caller callers callee callees", "calls call"],
  ["import imports imported importing importer importers", "imports imports_from import"],
  ["inherit inherits inherited inheriting inheritance extends extend subclass subclasses superclass", "inherits inherit extends"],
  ["contain contains contained", "contains"],
] as const) {
  for (const w of words.split(" ")) TRAVERSAL_WORDS[w] = relations.split(" ");
}

/** Lower-cased `\w+` tokens longer than two characters, stopwords removed, first occurrence order. */
export function questionTerms(question: string): string[] {
  const out: string[] = [];
  for (const t of tokenize(question)) {
    if (t.length > 2 && !STOPWORDS.has(t) && !out.includes(t)) out.push(t);
  }
  return out;
}

/** Crude suffix stripping, enough to meet "directed" with `directed_by`, "star" with `starred_actors`. */
function stem(word: string): string {
  const s = word.replace(/(ings|ing|ers|er|ed|es|s|e)$/, "");
  return s.length >= 3 ? s : word;
}

function stemsMeet(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (!long.startsWith(short)) return false;
  // Three letters meet only a near-equal word ("act" ~ "actor"), not any word they begin.
  return short.length >= 4 || (short.length === 3 && long.length - short.length <= 2);
}

/**
 * The nodes a question names and its words outside those mentions (cached per graph: the loop
 * asks for the same question at every step).
 */
const focusCache = new WeakMap<KnowledgeGraph, Map<string, { anchors: Set<string>; relationText: string }>>();
export function questionFocus(graph: KnowledgeGraph, question: string): { anchors: Set<string>; relationText: string } {
  let perGraph = focusCache.get(graph);
  if (!perGraph) focusCache.set(graph, (perGraph = new Map<string, { anchors: Set<string>; relationText: string }>()));
  const key = `${signatureOf(graph)}\u0000${question}`;
  const hit = perGraph.get(key);
  if (hit) return hit;
  const { mentions, relationWords } = findQuestionEntities({ graph, question });
  const anchors = new Set<string>();
  // An ambiguous mention (several nodes of that name) marks them all: the question named each.
  for (const m of mentions) for (const id of m.nodeIds) anchors.add(id);
  const result = { anchors, relationText: relationWords.join(" ") };
  if (perGraph.size > 256) perGraph.clear();
  perGraph.set(key, result);
  return result;
}

// ---------------------------------------------------------------------------------------------
// Per-graph index

export interface NodeEntry {
  node: GraphNode;
  norm: string;
  /** normLabel without `()` / leading `.`. */
  bare: string;
  /** `bare` without leading/trailing underscores: `__init__` → `init`, `_send` → `send`. */
  core: string;
  /** Space-padded camel/snake words of the label, for whole-word tests with `includes`. */
  words: string;
  degree: number;
}

interface TermStats {
  idf: number;
  /** Entry indexes whose normLabel contains the term. */
  labelHits: number[];
  /** Entry indexes whose source path contains the term. */
  fileHits: number[];
}

export interface QueryIndex {
  /** By entry number; an advanced index has holes where nodes were removed (new nodes go last). */
  readonly entries: readonly (NodeEntry | undefined)[];
  readonly byId: LayeredMap<string, number>;
  /** Degree at or above which traversal does not expand a node: max(50, p99). */
  readonly hubDegree: number;
  /** Relations and edge contexts present, for "restrict only when such edges exist". */
  readonly edgeKinds: ReadonlySet<string>;
  readonly phrases: LayeredMap<string, readonly number[]>;
  /** Label words of MIN_WORD_PREFIX+ characters → entries, for "question word begins with a label word". */
  readonly words: LayeredMap<string, readonly number[]>;
  readonly maxPhraseWords: number;
  /** Normalised labels by entry, and source paths (lower case), for substring search. */
  readonly labels: SegmentText;
  readonly files: SegmentText;
  readonly termCache: Map<string, TermStats>;
  readonly relationStems: Map<string, string[]>;
  readonly relationStemSet: ReadonlySet<string>;
  readonly signature: string;
  /** Nodes of the whole graph (the idf's N): `entries.length` unless the graph is a part of one. */
  readonly nodeCount: number;
  /** What advancing the index patches: every node's degree (sorted), edges per relation and context, per relation. */
  readonly degrees: Int32Array;
  readonly kindCounts: ReadonlyMap<string, number>;
  readonly relationCounts: ReadonlyMap<string, number>;
}

/**
 * Whole-graph figures for a graph object that holds only the part of a bigger graph a question
 * reads (SQL retrieval on PostgreSQL, lib/server/graphs/sql-retrieval.ts). With them the index of
 * the part scores as the whole graph's would: the idf's N, the hub degree and the graph's edge
 * kinds come from here instead of from the part's own nodes and edges.
 */
export interface WholeGraphStatistics {
  nodeCount: number;
  hubDegree: number;
  /** Relations and string `context` values of every edge. */
  edgeKinds: ReadonlySet<string>;
  relations: readonly string[];
}

const wholeGraph = new WeakMap<KnowledgeGraph, WholeGraphStatistics>();
/** The stems of the relations of one WholeGraphStatistics (its parts' indexes share them). */
const wholeStems = new WeakMap<WholeGraphStatistics, { stems: Map<string, string[]>; set: Set<string> }>();

/** Declare `graph` a part of a bigger graph whose figures are `statistics` (before its first query). */
export function setWholeGraphStatistics(graph: KnowledgeGraph, statistics: WholeGraphStatistics): void {
  wholeGraph.set(graph, statistics);
  indexes.forget(graph);
}

/** Whether `graph` is a part of a bigger graph: per-graph caches then cover only the nodes asked about. */
export function isPartOfBiggerGraph(graph: KnowledgeGraph): boolean {
  return wholeGraph.has(graph);
}

const TERM_CACHE_MAX = 4096;
const MIN_WORD_PREFIX = 4;
const MAX_PHRASE_WORDS = 12;

function signatureOf(graph: KnowledgeGraph): string {
  return `${graph.nodes.size}/${graph.edges.size}`;
}

/**
 * The retrieval index of a graph version, built once per graph object (lib/graph/derived-cache.ts:
 * rebuilt when its node or edge count changes) and, for a version advanced from one that has it,
 * advanced by the change instead of rebuilt. A change that keeps both counts on the same object
 * (an in-place relabel) must call `forgetQueryIndex`: the model has no revision counter.
 */
export function getQueryIndex(graph: KnowledgeGraph): QueryIndex {
  const index = indexes.get(graph);
  // Part of retrieval's one-time cost: the mention index that finds the question's entities
  // (`questionFocus`) and the relation ranker's statistics.
  getHeuristicIndex(graph);
  getRelationRanker(graph);
  return index;
}

export function forgetQueryIndex(graph: KnowledgeGraph): void {
  indexes.forget(graph);
}

/** How many query indexes were built whole and how many advanced with a version (benchmarks, tests). */
export function queryIndexStats(): { built: number; advanced: number } {
  return indexes.stats();
}

const indexes = new DerivedCache<QueryIndex>({
  build: buildIndex,
  // A part of a bigger graph takes its figures from outside: always built. So is an index whose
  // holes (entries of removed nodes) have grown to a quarter of it.
  advance: (index, delta, graph) =>
    wholeGraph.has(graph) || wholeGraph.has(delta.previous) || index.entries.length - index.nodeCount > Math.max(1024, index.nodeCount / 4) ? null : advanceIndex(index, delta, graph),
});

/** What an entry adds to the word and phrase tables, and its label as the text search sees it. */
interface EntryKeys {
  words: string[];
  phrase: string | null;
  phraseWords: number;
}

/**
 * What an entry derives from a frozen node's label, kept with the node object: SQL retrieval
 * (lib/server/graphs/sql-retrieval.ts) builds an index per fetch round over the same cached,
 * frozen nodes. A node that is not frozen may be relabelled in place, so it is not memoised.
 */
const labelKeysMemo = new WeakMap<GraphNode, { norm: string; bare: string; core: string; words: string; keys: EntryKeys }>();

function labelKeysOf(node: GraphNode): { norm: string; bare: string; core: string; words: string; keys: EntryKeys } {
  const memo = labelKeysMemo.get(node);
  if (memo) return memo;
  const norm = node.normLabel.replace(/\n/g, " ");
  const bare = stripCallSuffix(norm);
  const labelWords = identifierWords(node.label);
  const tokens = tokenize(node.label);
  const derived = {
    norm,
    bare,
    core: bare.replace(/^_+|_+$/g, ""),
    words: ` ${labelWords.join(" ")} `,
    keys: {
      words: [...new Set(labelWords)].filter((w) => w.length >= MIN_WORD_PREFIX),
      phrase: tokens.length > 1 ? tokens.join(" ") : null,
      phraseWords: tokens.length,
    },
  };
  if (Object.isFrozen(node)) labelKeysMemo.set(node, derived);
  return derived;
}

function entryOf(node: GraphNode, degree: number): { entry: NodeEntry; keys: EntryKeys } {
  const { norm, bare, core, words, keys } = labelKeysOf(node);
  return { entry: { node, norm, bare, core, words, degree }, keys };
}

function fileOf(node: GraphNode): string | null {
  return node.sourceFile ? node.sourceFile.toLowerCase().replace(/\n/g, " ") : null;
}

function pushTo(map: Map<string, number[]>, key: string, i: number): void {
  const list = map.get(key);
  if (list) list.push(i);
  else map.set(key, [i]);
}

/** p99 of sorted degrees (0 for none). */
function percentile99(sorted: Int32Array): number {
  return sorted.length ? (sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))] ?? 0) : 0;
}

function buildIndex(graph: KnowledgeGraph): QueryIndex {
  const entries: NodeEntry[] = [];
  const byId = new Map<string, number>();
  const labelItems: number[] = [];
  const labelParts: string[] = [];
  const fileItems: number[] = [];
  const fileParts: string[] = [];
  const phrases = new Map<string, number[]>();
  const words = new Map<string, number[]>();
  let maxPhraseWords = 1;
  const degrees = new Int32Array(graph.nodes.size);

  for (const node of graph.nodes.values()) {
    const i = entries.length;
    const { entry, keys } = entryOf(node, graph.degree(node.id));
    entries.push(entry);
    for (const w of keys.words) pushTo(words, w, i);
    degrees[i] = entry.degree;
    byId.set(node.id, i);
    labelItems.push(i);
    labelParts.push(entry.norm);
    const file = fileOf(node);
    if (file !== null) {
      fileItems.push(i);
      fileParts.push(file);
    }
    if (keys.phrase !== null) {
      pushTo(phrases, keys.phrase, i);
      maxPhraseWords = Math.max(maxPhraseWords, keys.phraseWords);
    }
  }
  degrees.sort();

  const whole = wholeGraph.get(graph);
  const kindCounts = new Map<string, number>();
  const relationCounts = new Map<string, number>();
  // A part of a bigger graph shares the stems of the whole graph's relations with every other part.
  const shared = whole ? wholeStems.get(whole) : undefined;
  const relationStems = shared?.stems ?? new Map<string, string[]>();
  if (whole) {
    for (const kind of whole.edgeKinds) kindCounts.set(kind, 1);
    for (const relation of whole.relations) relationCounts.set(relation, 1);
  } else {
    for (const edge of graph.edges.values()) countEdge(kindCounts, relationCounts, edge, 1);
  }
  const relationStemSet = shared?.set ?? stemSetOf(relationCounts.keys(), relationStems);
  if (whole && !shared) wholeStems.set(whole, { stems: relationStems, set: relationStemSet });

  return {
    entries,
    byId: LayeredMap.of(byId),
    hubDegree: whole ? whole.hubDegree : Math.max(50, percentile99(degrees)),
    edgeKinds: new Set(kindCounts.keys()),
    phrases: LayeredMap.of(phrases),
    words: LayeredMap.of(words),
    maxPhraseWords: Math.min(maxPhraseWords, MAX_PHRASE_WORDS),
    labels: SegmentText.of(labelItems, labelParts),
    files: SegmentText.of(fileItems, fileParts),
    termCache: new Map(),
    relationStems,
    relationStemSet,
    signature: signatureOf(graph),
    nodeCount: whole ? whole.nodeCount : entries.length,
    degrees,
    kindCounts,
    relationCounts,
  };
}

/** Count an edge's relation and string context in (+1) or out (-1); zero counts are removed. */
function countEdge(kinds: Map<string, number>, relations: Map<string, number>, edge: GraphEdge, by: 1 | -1): void {
  const bump = (map: Map<string, number>, key: string) => {
    const n = (map.get(key) ?? 0) + by;
    if (n > 0) map.set(key, n);
    else map.delete(key);
  };
  bump(kinds, edge.relation);
  const context = edge.attrs.context;
  if (typeof context === "string") bump(kinds, context);
  bump(relations, edge.relation);
}

/** The stems of the relations' words (memoised in `stems`, which every version of a graph shares). */
function stemSetOf(relations: Iterable<string>, stems: Map<string, string[]>): Set<string> {
  const out = new Set<string>();
  for (const relation of relations) {
    let list = stems.get(relation);
    if (!list) stems.set(relation, (list = relationWordStems(relation)));
    for (const s of list) out.add(s);
  }
  return out;
}

/**
 * The index of `graph` from the index of `delta.previous`: the entries of the changed nodes and
 * of the endpoints of changed edges (their degree) are replaced, the tables and texts take the
 * change as a layer, the counts behind the hub degree and the edge kinds are patched. Equal to
 * building it (apart from entry numbering: removed nodes leave a hole, new ones go last).
 */
function advanceIndex(old: QueryIndex, delta: GraphDelta, graph: KnowledgeGraph): QueryIndex {
  const { previous } = delta;
  const affected = new Set(delta.nodes);
  const kindCounts = new Map(old.kindCounts);
  const relationCounts = new Map(old.relationCounts);
  for (const key of delta.edges) {
    const before = previous.edges.get(key);
    const after = graph.edges.get(key);
    if (before) {
      affected.add(before.source).add(before.target);
      countEdge(kindCounts, relationCounts, before, -1);
    }
    if (after) {
      affected.add(after.source).add(after.target);
      countEdge(kindCounts, relationCounts, after, 1);
    }
  }

  const entries = old.entries.slice();
  const byId = new Map<string, number | null>();
  const labels = new Map<number, string | null>();
  const files = new Map<number, string | null>();
  const listChanges = { words: new Map<string, number[] | null>(), phrases: new Map<string, number[] | null>() };
  const edit = (table: "words" | "phrases", key: string, i: number, add: boolean) => {
    const changes = listChanges[table];
    let list = changes.get(key);
    if (list === undefined) list = [...(old[table].get(key) ?? [])];
    if (list === null) list = [];
    const at = list.indexOf(i);
    if (add && at < 0) list.push(i);
    if (!add && at >= 0) list.splice(at, 1);
    changes.set(key, list.length > 0 ? list : null);
  };
  const removedDegrees: number[] = [];
  const addedDegrees: number[] = [];
  let maxPhraseWords = old.maxPhraseWords;
  let nodeCount = old.nodeCount;

  for (const id of affected) {
    const at = old.byId.get(id);
    const before = at === undefined ? undefined : entries[at];
    const node = graph.getNode(id);
    if (before) removedDegrees.push(before.degree);
    if (!node) {
      if (before === undefined || at === undefined) continue;
      const { keys } = entryOf(before.node, before.degree);
      for (const w of keys.words) edit("words", w, at, false);
      if (keys.phrase !== null) edit("phrases", keys.phrase, at, false);
      entries[at] = undefined;
      byId.set(id, null);
      labels.set(at, null);
      if (fileOf(before.node) !== null) files.set(at, null);
      nodeCount--;
      continue;
    }
    const degree = graph.degree(id);
    addedDegrees.push(degree);
    const n = before?.node;
    if (before && at !== undefined && n && n.label === node.label && n.normLabel === node.normLabel && n.sourceFile === node.sourceFile) {
      // The same label and file: only the degree (or attributes the index does not read) moved.
      entries[at] = { ...before, node, degree };
      continue;
    }
    let i = at;
    if (before && i !== undefined) {
      const { keys } = entryOf(before.node, before.degree);
      for (const w of keys.words) edit("words", w, i, false);
      if (keys.phrase !== null) edit("phrases", keys.phrase, i, false);
    } else {
      i = entries.length;
      entries.push(undefined);
      byId.set(id, i);
      nodeCount++;
    }
    const { entry, keys } = entryOf(node, degree);
    entries[i] = entry;
    for (const w of keys.words) edit("words", w, i, true);
    if (keys.phrase !== null) {
      edit("phrases", keys.phrase, i, true);
      // A bound on the longest phrase (it never shrinks here): lookups past it find nothing.
      maxPhraseWords = Math.max(maxPhraseWords, Math.min(keys.phraseWords, MAX_PHRASE_WORDS));
    }
    labels.set(i, entry.norm);
    if (fileOf(node) !== null || (before && fileOf(before.node) !== null)) files.set(i, fileOf(node));
  }

  const degrees = patchSorted(old.degrees, removedDegrees, addedDegrees);
  const kindsMoved = kindCounts.size !== old.kindCounts.size || [...kindCounts.keys()].some((k) => !old.kindCounts.has(k));
  const relationsMoved = relationCounts.size !== old.relationCounts.size || [...relationCounts.keys()].some((r) => !old.relationCounts.has(r));
  return {
    entries,
    byId: old.byId.with(byId),
    hubDegree: Math.max(50, percentile99(degrees)),
    edgeKinds: kindsMoved ? new Set(kindCounts.keys()) : old.edgeKinds,
    phrases: old.phrases.with(listChanges.phrases),
    words: old.words.with(listChanges.words),
    maxPhraseWords,
    labels: old.labels.with(labels),
    files: old.files.with(files),
    termCache: new Map(),
    relationStems: old.relationStems,
    relationStemSet: relationsMoved ? stemSetOf(relationCounts.keys(), old.relationStems) : old.relationStemSet,
    signature: signatureOf(graph),
    nodeCount,
    degrees,
    kindCounts,
    relationCounts,
  };
}

/** `sorted` without one occurrence of each of `removed`, with `added`, still sorted. */
function patchSorted(sorted: Int32Array, removed: readonly number[], added: readonly number[]): Int32Array {
  if (removed.length === 0 && added.length === 0) return sorted;
  const drop = new Map<number, number>();
  for (const d of removed) drop.set(d, (drop.get(d) ?? 0) + 1);
  const extra = Int32Array.from(added).sort();
  const out = new Int32Array(sorted.length - removed.length + added.length);
  let o = 0;
  let e = 0;
  for (const d of sorted) {
    const skip = drop.get(d);
    if (skip) {
      drop.set(d, skip - 1);
      continue;
    }
    while (e < extra.length && (extra[e] ?? 0) < d) out[o++] = extra[e++] ?? 0;
    out[o++] = d;
  }
  while (e < extra.length) out[o++] = extra[e++] ?? 0;
  return out;
}

function relationWordStems(relation: string): string[] {
  return [...new Set(identifierWords(relation).filter((w) => w.length > 2 && !STOPWORDS.has(w)).map(stem))];
}

/** IDF `ln(1+N/(1+df))` over normalised-label substrings, and the hits that produced it. Cached. */
export function termStats(index: QueryIndex, term: string): TermStats {
  const cached = index.termCache.get(term);
  if (cached) return cached;
  const labelHits = index.labels.find(term);
  const fileHits = index.files.find(term);
  const stats = { idf: Math.log(1 + index.nodeCount / (1 + labelHits.length)), labelHits, fileHits };
  if (index.termCache.size >= TERM_CACHE_MAX) index.termCache.clear();
  index.termCache.set(term, stats);
  return stats;
}

// ---------------------------------------------------------------------------------------------
// Scoring shared with expand-hops

/**
 * Match levels: 1 substring, 2 prefix, 3 whole word (camel/snake split), 4 exact label (also
 * without `()`). Points are graphify's: exact 1000, prefix or word 100, substring 1. Word and
 * prefix score alike but only a whole word (or exact) earns a guaranteed seed: "act" is a
 * prefix of the genre "Action" and must not drag that hub in.
 */
const LEVEL_POINTS = [0, 1, 100, 100, 1000] as const;
type Level = 0 | 1 | 2 | 3 | 4;
const WORD_LEVEL = 3;

function level(entry: NodeEntry, term: string): Level {
  if (entry.norm === term || entry.bare === term || entry.core === term) return 4;
  if (entry.words.includes(` ${term} `)) return 3;
  if (entry.norm.startsWith(term) || entry.bare.startsWith(term) || entry.core.startsWith(term)) return 2;
  return entry.norm.includes(term) ? 1 : 0;
}

export interface PreparedTerm {
  term: string;
  /** Singular form tried as well ("requests" → "request"). */
  variant: string | null;
  idf: number;
  variantIdf: number;
  /** Weight of label matches: 1, or GENERIC_WEIGHT for generic and relation-naming words. */
  weight: number;
  /** Whether the word names a relation of this graph (it ranks edges rather than picking seeds). */
  namesRelation: boolean;
  stem: string;
}

export function prepareTerms(index: QueryIndex, terms: readonly string[]): PreparedTerm[] {
  return terms.map((term) => {
    const variant = term.length > 3 && term.endsWith("s") && !term.endsWith("ss") ? term.slice(0, -1) : null;
    const s = stem(term);
    let namesRelation = false;
    for (const r of index.relationStemSet) {
      if (stemsMeet(s, r)) {
        namesRelation = true;
        break;
      }
    }
    return {
      term,
      variant,
      idf: termStats(index, term).idf,
      variantIdf: variant ? termStats(index, variant).idf : 0,
      weight: GENERIC.has(term) || namesRelation ? GENERIC_WEIGHT : 1,
      namesRelation,
      stem: s,
    };
  });
}

/** Points a node earns for one term, and the match level (0 none … 4 exact). */
function termPoints(entry: NodeEntry, t: PreparedTerm): { points: number; level: number } {
  const l = level(entry, t.term);
  let points = LEVEL_POINTS[l] * t.idf;
  let best: number = l;
  if (t.variant && l < 4) {
    const lv = level(entry, t.variant);
    const pv = LEVEL_POINTS[lv] * t.variantIdf;
    if (pv > points) {
      points = pv;
      best = lv;
    }
  }
  return { points: points * t.weight, level: best };
}

export function nodeEntry(index: QueryIndex, nodeId: string): NodeEntry | undefined {
  const i = index.byId.get(nodeId);
  return i === undefined ? undefined : index.entries[i];
}

/** Relevance of a node label to the terms, on the scale of one relation match (exact = idf). */
export function labelRelevance(entry: NodeEntry | undefined, terms: readonly PreparedTerm[]): number {
  if (!entry) return 0;
  let sum = 0;
  for (const t of terms) sum += termPoints(entry, t).points / 1000;
  return sum;
}

/** Relevance of a relation name to the terms: full idf per question word it shares a stem with. */
export function relationRelevance(index: QueryIndex, relation: string, terms: readonly PreparedTerm[]): number {
  let stems = index.relationStems.get(relation);
  if (!stems) {
    stems = relationWordStems(relation);
    index.relationStems.set(relation, stems);
  }
  let sum = 0;
  for (const t of terms) {
    if (stems.some((s) => stemsMeet(t.stem, s))) sum += t.idf;
  }
  return sum;
}

/** Sort position of an edge key: `e<n>` by n (import order), other keys after them. */
export function edgeOrdinal(key: string): number {
  return /^e\d+$/.test(key) ? Number(key.slice(1)) : Number.MAX_SAFE_INTEGER;
}

export function isHub(index: QueryIndex, nodeId: string): boolean {
  const entry = nodeEntry(index, nodeId);
  return entry !== undefined && entry.degree >= index.hubDegree;
}

// ---------------------------------------------------------------------------------------------
// Query

/** Traversal stops adding nodes here: a safety net for hub-heavy graphs, not a relevance rule. */
const MAX_VISITED = 5000;
/**
 * Edges examined per query (traversal + induced-edge pass). graphify's BFS is unbounded; on a
 * 272k-edge graph a depth-2 BFS from a film meets half a million edges and takes 0.5 s. Frontier
 * nodes are expanded most relevant first, so the budget goes to the part of the graph the
 * question is about; small graphs (every graphify graph we have) never reach it.
 */
const MAX_EDGE_SCAN = 5_000;
const SEED_FLOOR = 0.2;

export function queryGraph({
  graph,
  question,
  maxSeeds = 3,
  depth = 2,
  limit,
  budgetChars,
}: QueryGraphOptions): QueryGraphResult {
  const index = getQueryIndex(graph);
  const terms = questionTerms(question);
  const prepared = prepareTerms(index, terms);
  const { anchors, relationText } = questionFocus(graph, question);
  const picked = pickSeeds(graph, index, question, prepared, maxSeeds);
  // The question's own entity mentions (longest exact match first: "Cradle of Fear", not
  // "Fear"; a one-letter title "O") are seeds whatever the label-word scores say.
  const seeds: QuerySeed[] = [];
  for (const id of anchors) {
    if (seeds.length >= Math.max(maxSeeds, 1)) break;
    const node = graph.getNode(id);
    const known = picked.find((s) => s.id === id);
    if (node) seeds.push(known ?? { id, label: node.label, score: 0 });
  }
  for (const s of picked) if (seeds.length < maxSeeds + anchors.size && !seeds.some((x) => x.id === s.id)) seeds.push(s);
  const seedIds = new Set(seeds.map((s) => s.id));
  // A seed whose words all lie inside a question entity's name ("Fear" in "Cradle of Fear") is
  // a substring match: traversed, but its edges do not rank as a seed's.
  const anchorWords = [...anchors].map((id) => new Set(tokenize(graph.getNode(id)?.label ?? "")));
  // So is a proper name the question does not write as one ("Fall" for "fall under", "50 First
  // Dates" for "release dates"); lower-case labels (code identifiers, tags) need no capitals.
  const subsumed = new Set(
    seeds
      .filter((s) => !anchors.has(s.id))
      .filter((s) => {
        const words = tokenize(s.label);
        if (words.length > 0 && anchorWords.some((set) => set.size > words.length && words.every((w) => set.has(w)))) return true;
        return /\p{Lu}/u.test(s.label) && !question.includes(s.label.trim());
      })
      .map((s) => s.id),
  );
  const isSeedEnd = (id: string, depth: number) => depth === 0 && !subsumed.has(id);
  const ranker = getRelationRanker(graph);

  const restrict = new Set<string>();
  for (const t of terms) for (const r of TRAVERSAL_WORDS[t] ?? []) if (index.edgeKinds.has(r)) restrict.add(r);
  let { visits, met } = traverse({ graph, index, seeds: seedIds, depth, prepared, restrict });
  // "What calls X" where X has no call edges: answer with X's neighbourhood rather than nothing.
  if (restrict.size > 0 && visits.size <= seedIds.size) {
    ({ visits, met } = traverse({ graph, index, seeds: seedIds, depth, prepared, restrict: new Set() }));
  }

  const relationScore = new Map<string, number>();
  const ranked: RankedEdge[] = [];
  const seen = new Set<string>();
  for (const e of met) {
    const vs = visits.get(e.source);
    const vt = visits.get(e.target);
    if (!vs || !vt || seen.has(e.key)) continue;
    seen.add(e.key);
    let rel = relationScore.get(e.relation);
    if (rel === undefined) {
      rel = RELATION_SCALE * ranker.score(anchors.size > 0 ? relationText : question, e.relation);
      relationScore.set(e.relation, rel);
    }
    const loop = e.source === e.target;
    ranked.push({
      edge: e,
      kind: restrict.size > 0 && edgeHasKind(e, restrict) ? 1 : 0,
      seedTouch: (isSeedEnd(e.source, vs.depth) ? 1 : 0) + (!loop && isSeedEnd(e.target, vt.depth) ? 1 : 0),
      // An entity the question names is worth one relation word more than a label-word seed.
      relevance: rel + vs.relevance + (loop ? 0 : vt.relevance) + ANCHOR_RELEVANCE * ((anchors.has(e.source) ? 1 : 0) + (!loop && anchors.has(e.target) ? 1 : 0)),
      dist: Math.min(vs.depth, vt.depth),
      ord: edgeOrdinal(e.key),
    });
  }
  ranked.sort(compareRanked);

  const triples: Triple[] = [];
  const edgeKeys: string[] = [];
  let used = 0;
  for (const r of ranked) {
    if (limit !== undefined && triples.length >= limit) break;
    const triple = graph.toTriple(r.edge);
    if (budgetChars !== undefined) {
      const cost = triple.subject.length + triple.relation.length + triple.object.length + 3;
      if (used + cost > budgetChars) break;
      used += cost;
    }
    triples.push(triple);
    edgeKeys.push(r.edge.key);
  }
  return { seeds, triples, edgeKeys, nodes: [...visits.keys()], terms };
}

interface TraverseOptions {
  graph: KnowledgeGraph;
  index: QueryIndex;
  seeds: ReadonlySet<string>;
  depth: number;
  prepared: readonly PreparedTerm[];
  /** Relations/contexts traversal keeps to; empty for all. */
  restrict: ReadonlySet<string>;
}

/** Visited nodes (insertion order = traversal order) and every edge met on the way, unfiltered. */
function traverse({ graph, index, seeds, depth, prepared, restrict }: TraverseOptions): {
  visits: Map<string, Visit>;
  met: GraphEdge[];
} {
  // Breadth-first, seeds at depth 0. Nodes reached by traversal are not expanded when hubs.
  // Every edge met while expanding is kept as a possible induced edge, so the induced-edge pass
  // only has to scan the nodes that were never expanded.
  const visits = new Map<string, Visit>();
  const allowed = (e: GraphEdge) => restrict.size === 0 || edgeHasKind(e, restrict);
  const met: GraphEdge[] = [];
  const isHubEntry = (entry: NodeEntry | undefined) => entry !== undefined && entry.degree >= index.hubDegree;
  // A seed that is a hub is expanded (the question named it) but its neighbours are not:
  // a second layer through a genre or a year is thousands of unrelated nodes.
  const visit = (id: string, d: number, viaHub: boolean) => {
    const entry = nodeEntry(index, id);
    const v: Visit = {
      depth: d,
      entry,
      expandable: seeds.has(id) || (!viaHub && !isHubEntry(entry)),
      scanned: false,
      relevance: labelRelevance(entry, prepared),
    };
    visits.set(id, v);
    return v;
  };
  for (const id of seeds) visit(id, 0, false);
  let frontier = [...seeds];
  let scanned = 0;
  const byRelevance = (a: string, b: string) => {
    const va = visits.get(a);
    const vb = visits.get(b);
    return (vb?.relevance ?? 0) - (va?.relevance ?? 0) || (va?.entry?.degree ?? 0) - (vb?.entry?.degree ?? 0);
  };
  for (let d = 1; d <= depth && frontier.length > 0 && visits.size < MAX_VISITED; d++) {
    const next: string[] = [];
    if (d > 1) frontier.sort(byRelevance);
    for (const id of frontier) {
      const v = visits.get(id);
      if (!v?.expandable || visits.size >= MAX_VISITED) continue;
      if (scanned >= MAX_EDGE_SCAN && !seeds.has(id)) break;
      v.scanned = true;
      const viaHub = isHubEntry(v.entry);
      scanned += graph.degree(id);
      for (const list of [graph.outEdges(id), graph.inEdges(id)]) {
        for (const e of list) {
          met.push(e);
          if (!allowed(e) || visits.size >= MAX_VISITED) continue;
          const other = e.source === id ? e.target : e.source;
          if (visits.has(other)) continue;
          visit(other, d, viaHub);
          next.push(other);
        }
      }
    }
    frontier = next;
  }
  // Induced edges also join two unexpanded nodes (the last layer); scan those that are not hubs.
  // Only edges between two unscanned nodes (hub–hub, or under a hub seed) are missed: the price
  // of O(visited·degree) instead of O(edges).
  const lastLayer = [...visits.keys()].filter((id) => {
    const v = visits.get(id);
    return v !== undefined && !v.scanned && v.expandable;
  });
  if (scanned + lastLayer.length > MAX_EDGE_SCAN) lastLayer.sort(byRelevance);
  for (const id of lastLayer) {
    if (scanned >= MAX_EDGE_SCAN) break;
    scanned += graph.degree(id);
    for (const e of graph.outEdges(id)) met.push(e);
    for (const e of graph.inEdges(id)) met.push(e);
  }

  return { visits, met };
}

interface Visit {
  depth: number;
  entry: NodeEntry | undefined;
  /** Seeds, and nodes below the hub degree. */
  expandable: boolean;
  scanned: boolean;
  relevance: number;
}

interface RankedEdge {
  edge: GraphEdge;
  /** 1 when the question asked for this kind of edge ("calls", "imports"). */
  kind: number;
  /** Seed endpoints, not counting seeds subsumed by a longer mention. */
  seedTouch: number;
  relevance: number;
  dist: number;
  ord: number;
}

function compareRanked(a: RankedEdge, b: RankedEdge): number {
  return (
    b.kind - a.kind ||
    b.seedTouch - a.seedTouch ||
    b.relevance - a.relevance ||
    a.dist - b.dist ||
    a.ord - b.ord ||
    compareIds(a.edge.key, b.edge.key)
  );
}

function edgeHasKind(e: GraphEdge, kinds: ReadonlySet<string>): boolean {
  const context = e.attrs.context;
  return kinds.has(e.relation) || (typeof context === "string" && kinds.has(context));
}

/** Ties larger than this are ordered by degree alone: neighbour support costs O(degree) each. */
const SUPPORT_POOL = 200;
/** Neighbours examined per node for support; hubs are rarely the node a tie is about. */
const SUPPORT_NEIGHBOURS = 500;

function pickSeeds(
  graph: KnowledgeGraph,
  index: QueryIndex,
  question: string,
  terms: readonly PreparedTerm[],
  maxSeeds: number,
): QuerySeed[] {
  if (maxSeeds <= 0) return [];
  const total = new Map<number, number>();
  const add = (i: number, p: number) => total.set(i, (total.get(i) ?? 0) + p);
  // Per term: nodes matching as a whole word or exactly, for the guaranteed seed.
  const perTerm: { t: PreparedTerm; points: Map<number, number> }[] = [];

  for (const t of terms) {
    const stats = termStats(index, t.term);
    const hits = t.variant ? termStats(index, t.variant).labelHits : stats.labelHits;
    const points = new Map<number, number>();
    const matched = new Set<number>();
    for (const i of hits) {
      const entry = index.entries[i];
      if (!entry) continue;
      const m = termPoints(entry, t);
      if (m.points <= 0) continue;
      matched.add(i);
      add(i, m.points);
      if (m.level >= WORD_LEVEL) points.set(i, m.points);
    }
    // A label word that begins the question word ("auth" in "authentication") is a weak,
    // substring-level match; without it such questions found no seed at all.
    for (let k = MIN_WORD_PREFIX; k < t.term.length; k++) {
      for (const i of index.words.get(t.term.slice(0, k)) ?? []) {
        if (matched.has(i)) continue;
        matched.add(i);
        add(i, LEVEL_POINTS[1] * t.idf * t.weight);
      }
    }
    for (const i of stats.fileHits) add(i, 0.5 * stats.idf * t.weight);
    perTerm.push({ t, points });
  }

  // A run of question words spelling a whole multi-word label is that node, exactly.
  const tokens = tokenize(question);
  const weightOf = new Map(terms.map((t) => [t.term, t.idf * t.weight]));
  for (let a = 0; a < tokens.length; a++) {
    for (let n = 2; n <= index.maxPhraseWords && a + n <= tokens.length; n++) {
      const words = tokens.slice(a, a + n);
      const hits = index.phrases.get(words.join(" "));
      if (!hits) continue;
      let w = 0;
      for (const word of new Set(words)) w += weightOf.get(word) ?? 0;
      for (const i of hits) add(i, 1000 * w);
    }
  }

  const degree = (i: number) => index.entries[i]?.degree ?? 0;
  const id = (i: number) => index.entries[i]?.node.id ?? "";
  const byDegree = (a: number, b: number) => degree(b) - degree(a) || compareIds(id(a), id(b));

  // Equal scores are common (`.send()` in two classes). Prefer the node whose neighbours match
  // the question's other words: "Client send" means Client's `.send()`, not AsyncClient's.
  const supportMemo = new Map<number, number>();
  const support = (i: number): number => {
    const cached = supportMemo.get(i);
    if (cached !== undefined) return cached;
    const entry = index.entries[i];
    let sum = 0;
    if (entry) {
      const neighbours = graph.incidentEdges(entry.node.id).slice(0, SUPPORT_NEIGHBOURS);
      for (const t of terms) {
        if (termPoints(entry, t).level > 0) continue;
        let best = 0;
        for (const e of neighbours) {
          const other = nodeEntry(index, e.source === entry.node.id ? e.target : e.source);
          if (other && other !== entry) best = Math.max(best, termPoints(other, t).points);
        }
        sum += best;
      }
    }
    supportMemo.set(i, sum);
    return sum;
  };
  const orderTie = (group: number[]): number[] => {
    if (group.length <= 1) return group;
    const pool = [...group].sort(byDegree);
    if (pool.length > SUPPORT_POOL) return pool;
    return pool.sort((a, b) => support(b) - support(a) || byDegree(a, b));
  };
  /** `items` sorted by `key` descending, each run of equal keys ordered by `orderTie`. */
  const tieOrdered = (items: number[], key: (i: number) => number, stopBelow: number, want: number): number[] => {
    const out: number[] = [];
    let a = 0;
    while (a < items.length && out.length < want) {
      const first = items[a];
      if (first === undefined || key(first) < stopBelow) break;
      let b = a + 1;
      while (b < items.length && key(items[b] ?? -1) === key(first)) b++;
      out.push(...orderTie(items.slice(a, b)));
      a = b;
    }
    return out;
  };

  const scoreOf = (i: number) => total.get(i) ?? 0;
  const ranked = [...total.keys()].filter((i) => scoreOf(i) > 0).sort((a, b) => scoreOf(b) - scoreOf(a) || byDegree(a, b));
  const topIndex = ranked[0];
  if (topIndex === undefined) return [];
  const floor = SEED_FLOOR * scoreOf(topIndex);
  const byScore = tieOrdered(ranked, scoreOf, floor, maxSeeds);
  const chosen: number[] = byScore.slice(0, 1);

  // v0.9: each distinct matched word gets its best node, strongest words first. Generic and
  // relation-naming words get none: they are what hijacked seeds.
  const guaranteed = perTerm
    .filter((p) => p.t.weight === 1 && p.points.size > 0)
    .map((p) => {
      const ptsOf = (i: number) => p.points.get(i) ?? 0;
      const candidates = [...p.points.keys()].sort((a, b) => ptsOf(b) - ptsOf(a) || scoreOf(b) - scoreOf(a) || byDegree(a, b));
      const head = candidates[0];
      const topPts = head === undefined ? 0 : ptsOf(head);
      const level = candidates.filter((i) => ptsOf(i) === topPts);
      return { p, best: tieOrdered(level, scoreOf, 0, 1)[0], topPts };
    })
    .sort((a, b) => b.topPts - a.topPts);
  for (const { p, best } of guaranteed) {
    if (chosen.length >= maxSeeds) break;
    if (best === undefined || chosen.some((c) => p.points.has(c))) continue;
    if (!chosen.includes(best)) chosen.push(best);
  }
  for (const i of byScore) {
    if (chosen.length >= maxSeeds) break;
    if (!chosen.includes(i)) chosen.push(i);
  }

  return chosen.map((i) => {
    const node = index.entries[i]?.node;
    return { id: node?.id ?? "", label: node?.label ?? "", score: Math.round(scoreOf(i) * 1000) / 1000 };
  });
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------
// Text

/**
 * graphify-style text: `NODE …` lines then `EDGE …` lines within `budget`×3 characters
 * (graphify's budget is in tokens of about three characters). At least half of it is kept for
 * EDGE lines whenever there are edges to fill it: nodes crowding out every edge was graphify's
 * most reported failure on broad questions.
 */
export function formatQueryText(graph: KnowledgeGraph, result: QueryGraphResult, budget = 2000): string {
  const maxChars = Math.max(0, Math.floor(budget * 3));
  const edgeLines: string[] = [];
  result.edgeKeys.forEach((key, i) => {
    const edge = graph.edges.get(key);
    const triple = result.triples[i];
    if (!triple) return;
    const confidence = edge?.attrs.confidence;
    const tag = typeof confidence === "string" ? ` [${confidence}]` : "";
    edgeLines.push(`EDGE ${triple.subject} --${triple.relation}${tag}--> ${triple.object}`);
  });

  const order: string[] = [];
  const listed = new Set<string>();
  const push = (id: string) => {
    if (!listed.has(id) && graph.nodes.has(id)) {
      listed.add(id);
      order.push(id);
    }
  };
  for (const s of result.seeds) push(s.id);
  for (const t of result.triples) {
    push(t.subject_id);
    push(t.object_id);
  }
  for (const id of result.nodes) push(id);

  const edgeNeed = edgeLines.reduce((n, l) => n + l.length + 1, 0);
  const nodeBudget = Math.max(Math.floor(maxChars / 2), maxChars - edgeNeed);
  const lines: string[] = [];
  let used = 0;
  for (const id of order) {
    const node = graph.getNode(id);
    if (!node) continue;
    // graphify prints all three fields; a graph built from triples has none of them to show.
    const fields = node.sourceFile !== null || node.sourceLocation !== null || node.community !== null;
    const line = fields
      ? `NODE ${node.label} [src=${node.sourceFile ?? ""} loc=${node.sourceLocation ?? ""} community=${node.community ?? ""}]`
      : `NODE ${node.label}`;
    if (used + line.length + 1 > nodeBudget) break;
    lines.push(line);
    used += line.length + 1;
  }
  for (const line of edgeLines) {
    if (used + line.length + 1 > maxChars) break;
    lines.push(line);
    used += line.length + 1;
  }
  return lines.join("\n");
}
