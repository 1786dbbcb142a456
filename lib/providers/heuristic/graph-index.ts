/**
 * Per-graph lookup tables of the heuristic provider, built once per graph version (and rebuilt
 * when its node or edge count changes; advanced with the change for a version advanced from one
 * that has them, like the retrieval index: lib/graph/derived-cache.ts):
 * - `byKey`: a label's words joined by spaces → nodes, so a run of question or passage words
 *   finds the node whatever the punctuation ("Johnnycake, West Virginia", `saudi_arabia`);
 * - `byCore` / `bySet`: keys for near-duplicate labels (see `findNearDuplicates`);
 * - the graph's relation naming style, so inserted relations look like their neighbours.
 */
import { DerivedCache, type GraphDelta, LayeredMap, ListEdits } from "../../graph/derived-cache";
import type { GraphNode, KnowledgeGraph } from "../../graph/model";
import { qualifiedName, resolveName } from "../../graph/resolve-name";
import { type RelationStyle, type WordToken, wordTokens } from "./text";

/** Labels longer than this are sentences (graphify rationale nodes), not names. */
export const MAX_NAME_WORDS = 10;

/** Node ids in each list are in the graph's node order. */
export interface HeuristicIndex {
  readonly byKey: LayeredMap<string, string[]>;
  /** The most words of a key (a bound: an advanced index never lowers it; runs longer find nothing). */
  readonly maxKeyWords: number;
  /** First word of a key → the most words of a key starting with it (a bound too): runs start only there. */
  readonly maxWordsFrom: LayeredMap<string, number>;
  readonly byCore: LayeredMap<string, string[]>;
  readonly bySet: LayeredMap<string, string[]>;
  readonly coreOf: LayeredMap<string, string>;
  readonly setOf: LayeredMap<string, string>;
  readonly relationStyle: RelationStyle;
}

const indexes = new DerivedCache<HeuristicIndex>({ build: buildIndex, advance: advanceIndex });

export function getHeuristicIndex(graph: KnowledgeGraph): HeuristicIndex {
  return indexes.get(graph);
}

/** How many heuristic indexes were built whole and how many advanced with a version. */
export function heuristicIndexStats(): { built: number; advanced: number } {
  return indexes.stats();
}

function push(map: Map<string, string[]>, key: string, id: string): void {
  const list = map.get(key);
  if (list) list.push(id);
  else map.set(key, [id]);
}

/**
 * Words that do not tell two names apart: articles, honorifics, company suffixes. Not "Jr."
 * and "Sr.": they name another person ("Lon Chaney Jr." is Lon Chaney's son).
 */
const MINOR_WORDS = new Set(["the", "a", "an", "mr", "mrs", "ms", "dr", "sir", "inc", "ltd", "llc", "corp", "plc"]);

/**
 * The name without its minor words and initials (a single letter followed by "."):
 * "G. Stanley Hall" and "Stanley Hall", "The Beatles" and "Beatles" share a core.
 */
export function coreKey(label: string, tokens: readonly WordToken[] = wordTokens(label)): string | null {
  if (tokens.length === 0 || tokens.length > MAX_NAME_WORDS) return null;
  const core = tokens.filter((t) => !MINOR_WORDS.has(t.norm) && !(t.norm.length === 1 && label[t.end] === "."));
  // A core of one short word ("ab") says too little to call two nodes the same.
  if (core.length === 0 || (core.length === 1 && (core[0]?.norm.length ?? 0) < 3)) return null;
  return core.map((t) => t.norm).join(" ");
}

/** Reordered words make the same name only in short labels; in sentences they change the meaning. */
const MAX_SET_WORDS = 5;

/** The set of a short multi-word label's words: "Hall, G. Stanley" and "G. Stanley Hall". */
export function setKey(label: string, tokens: readonly WordToken[] = wordTokens(label)): string | null {
  const words = [...new Set(tokens.map((t) => t.norm))].sort();
  if (words.length < 2 || tokens.length > MAX_SET_WORDS) return null;
  return words.join(" ");
}

function buildIndex(graph: KnowledgeGraph): HeuristicIndex {
  const byKey = new Map<string, string[]>();
  const byCore = new Map<string, string[]>();
  const bySet = new Map<string, string[]>();
  const coreOf = new Map<string, string>();
  const setOf = new Map<string, string>();
  const maxWordsFrom = new Map<string, number>();
  let maxKeyWords = 1;
  const addKey = (tokens: readonly WordToken[], id: string) => {
    const first = tokens[0];
    if (!first || tokens.length > MAX_NAME_WORDS) return;
    push(byKey, tokens.map((t) => t.norm).join(" "), id);
    maxKeyWords = Math.max(maxKeyWords, tokens.length);
    maxWordsFrom.set(first.norm, Math.max(maxWordsFrom.get(first.norm) ?? 0, tokens.length));
  };
  for (const node of graph.nodes.values()) {
    const tokens = wordTokens(node.label);
    addKey(tokens, node.id);
    for (const alias of node.aliases) addKey(wordTokens(alias), node.id);
    const core = coreKey(node.label, tokens);
    if (core) {
      push(byCore, core, node.id);
      coreOf.set(node.id, core);
    }
    const set = setKey(node.label, tokens);
    if (set) {
      push(bySet, set, node.id);
      setOf.set(node.id, set);
    }
  }
  for (const [key, ids] of byKey) if (ids.length > 1) byKey.set(key, [...new Set(ids)]);
  return {
    byKey: LayeredMap.of(byKey),
    maxKeyWords,
    maxWordsFrom: LayeredMap.of(maxWordsFrom),
    byCore: LayeredMap.of(byCore),
    bySet: LayeredMap.of(bySet),
    coreOf: LayeredMap.of(coreOf),
    setOf: LayeredMap.of(setOf),
    relationStyle: relationStyleOf(graph),
  };
}

/** The keys a node's label and aliases give it. */
function keysOf(node: GraphNode): { keys: string[][]; core: string | null; set: string | null } {
  const tokens = wordTokens(node.label);
  const keys = [tokens, ...node.aliases.map((alias) => wordTokens(alias))].filter((t) => t.length > 0 && t.length <= MAX_NAME_WORDS).map((t) => t.map((w) => w.norm));
  return { keys, core: coreKey(node.label, tokens), set: setKey(node.label, tokens) };
}

/** The index of `graph` from the index of `delta.previous`: the changed nodes' keys out and in. */
function advanceIndex(old: HeuristicIndex, delta: GraphDelta, graph: KnowledgeGraph): HeuristicIndex {
  const byKey = new ListEdits(old.byKey);
  const byCore = new ListEdits(old.byCore);
  const bySet = new ListEdits(old.bySet);
  const coreOf = new Map<string, string | null>();
  const setOf = new Map<string, string | null>();
  const maxWordsFrom = new Map<string, number>();
  let maxKeyWords = old.maxKeyWords;
  // Lists keep the graph's node order, as a build gives them.
  const ordOf = (id: string) => graph.getNode(id)?.ord ?? Number.POSITIVE_INFINITY;
  const inOrder = (a: string, b: string) => ordOf(a) - ordOf(b) || (a < b ? -1 : a > b ? 1 : 0);
  for (const id of delta.nodes) {
    const before = delta.previous.getNode(id);
    const after = graph.getNode(id);
    if (before && after && before.label === after.label && before.ord === after.ord && before.aliases.join("\n") === after.aliases.join("\n")) continue;
    if (before) {
      const k = keysOf(before);
      for (const key of k.keys) byKey.remove(key.join(" "), id);
      if (k.core) byCore.remove(k.core, id);
      if (k.set) bySet.remove(k.set, id);
      coreOf.set(id, null);
      setOf.set(id, null);
    }
    if (after) {
      const k = keysOf(after);
      for (const key of k.keys) {
        byKey.add(key.join(" "), id, inOrder);
        maxKeyWords = Math.max(maxKeyWords, key.length);
        const first = key[0] as string;
        const most = Math.max(maxWordsFrom.get(first) ?? old.maxWordsFrom.get(first) ?? 0, key.length);
        if (most !== old.maxWordsFrom.get(first)) maxWordsFrom.set(first, most);
      }
      if (k.core) {
        byCore.add(k.core, id, inOrder);
        coreOf.set(id, k.core);
      }
      if (k.set) {
        bySet.add(k.set, id, inOrder);
        setOf.set(id, k.set);
      }
    }
  }
  return {
    byKey: old.byKey.with(byKey.result()),
    maxKeyWords,
    maxWordsFrom: old.maxWordsFrom.with(maxWordsFrom),
    byCore: old.byCore.with(byCore.result()),
    bySet: old.bySet.with(bySet.result()),
    coreOf: old.coreOf.with(coreOf),
    setOf: old.setOf.with(setOf),
    // The first 5,000 edges: a change among them can move it.
    relationStyle: delta.edges.size > 0 ? relationStyleOf(graph) : old.relationStyle,
  };
}

function relationStyleOf(graph: KnowledgeGraph): RelationStyle {
  let space = 0;
  let snake = 0;
  let camel = 0;
  let seen = 0;
  for (const edge of graph.edges.values()) {
    if (++seen > 5000) break;
    const r = edge.relation;
    if (r.includes(" ")) space++;
    else if (r.includes("_")) snake++;
    else if (/^[a-z]+[A-Z]/.test(r)) camel++;
  }
  if (snake > space && snake >= camel) return "snake";
  if (camel > space && camel > snake) return "camel";
  return "space";
}

// ---------------------------------------------------------------------------------------------
// Names the resolver maps back

/**
 * A name for node `id` that `resolveName` resolves exactly to that node: the label, else the
 * qualified `file::label`, else the id; null when none does (the caller drops the action
 * rather than name the wrong node).
 */
export function nameFor(graph: KnowledgeGraph, id: string): string | null {
  const node = graph.getNode(id);
  if (!node) return null;
  const tried = new Set<string>();
  for (const raw of [node.label, qualifiedName(graph, id), id]) {
    for (const name of [raw, raw.replace(/\s+/g, " ").trim()]) {
      if (tried.has(name) || name === "" || /[\r\n]/.test(name)) continue;
      tried.add(name);
      const r = resolveName({ graph, name, limit: 1 });
      if (r.status === "exact" && r.best?.id === id) return name;
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Near-duplicates

export type DuplicateReason = "same normalised label" | "same words" | "same name apart from articles or initials";

export interface NearDuplicate {
  id: string;
  reason: DuplicateReason;
}

function isCodeLike(node: GraphNode): boolean {
  return /\(\)$/.test(node.label) || node.label.startsWith(".");
}

/**
 * Whether two same-looking nodes may be one entity at all. Methods (`.send()`) are distinct per
 * class; code symbols in different files are distinct; nodes of different file types are
 * distinct. Whether they plausibly *are* one thing is `judgeMerge`'s question (merge-evidence.ts).
 */
function mayBeSame(a: GraphNode, b: GraphNode): boolean {
  if (isCodeLike(a) || isCodeLike(b)) return false;
  if (a.fileType && b.fileType && a.fileType !== b.fileType) return false;
  if ((a.fileType === "code" || b.fileType === "code") && a.sourceFile !== b.sourceFile) return false;
  return true;
}

/**
 * Other nodes whose label is the same name as node `id`'s (by id; each with its strongest
 * reason): candidates only — a similar name is no evidence that two nodes are one thing.
 */
export function findNearDuplicates(graph: KnowledgeGraph, id: string): NearDuplicate[] {
  const node = graph.getNode(id);
  if (!node) return [];
  const index = getHeuristicIndex(graph);
  const found = new Map<string, DuplicateReason>();
  const add = (ids: Iterable<string>, reason: DuplicateReason) => {
    for (const other of ids) if (other !== id && !found.has(other)) found.set(other, reason);
  };
  add(graph.idsByNormLabel(node.normLabel), "same normalised label");
  const set = index.setOf.get(id);
  if (set) add(index.bySet.get(set) ?? [], "same words");
  const core = index.coreOf.get(id);
  if (core) add(index.byCore.get(core) ?? [], "same name apart from articles or initials");
  const out: NearDuplicate[] = [];
  for (const [other, reason] of found) {
    const o = graph.getNode(other);
    if (o && mayBeSame(node, o)) out.push({ id: other, reason });
  }
  return out.sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
}

/** The survivor of a merge: the higher-degree node, then the longer label, then the smaller id. */
export function canonicalOf(graph: KnowledgeGraph, a: string, b: string): string {
  const da = graph.degree(a);
  const db = graph.degree(b);
  if (da !== db) return da > db ? a : b;
  const la = graph.getNode(a)?.label.length ?? 0;
  const lb = graph.getNode(b)?.label.length ?? 0;
  if (la !== lb) return la > lb ? a : b;
  return a < b ? a : b;
}
