/**
 * The integer index graph-rule mining and its queries read (issue #10): distinct facts per
 * relation and CSR adjacency sorted by (atom, neighbour), so "the r-neighbours of x" is a slice
 * and "does x have atom a to v" is a binary search. Pure; built once per mined graph version.
 * Shared by mine-graph-rules.ts (path rules, signatures, neighbours) and constant-rules.ts.
 */
import type { GraphEdge, KnowledgeGraph, Triple } from "../graph/model";
import { normalizeLabel } from "../graph/normalize";
import { normalizeRelation } from "./graph-evidence";

/**
 * Integer index of the mined graph version: distinct facts and CSR adjacency sorted by (atom,
 * neighbour). Opaque to callers; the query functions read it instead of walking hubs' edges.
 */
export interface RulesIndex {
  n: number;
  ids: string[];
  /** Relation keys and display names, by relation number. */
  keys: string[];
  display: string[];
  /** Facts by relation: parallel subject/object arrays of distinct (s, o) pairs. */
  factS: Int32Array[];
  factO: Int32Array[];
  /** CSR: entries of node u are off[u]..off[u+1]; atom = 2·relation + (0 out, 1 in). */
  off: Int32Array;
  atom: Int32Array;
  nbr: Int32Array;
  /** atom · n + nbr, for binary search. */
  sortKey: Float64Array;
  fileType: Int32Array;
  fileTypes: string[];
  /** Each node's source file (extraction provenance, e.g. graphify's source_file) by number, −1 for none. */
  sourceFile: Int32Array;
  sourceFiles: string[];
  numberOf: Map<string, number>;
  keyNumber: Map<string, number>;
  /** Kept rules by relation number, aligned with rulesByHead. */
  rules: IntRule[][];
  /** Signature feature numbers by relation number, aligned with the signatures' features. */
  signatureFeatures: { subject: number[]; object: number[] }[];
  /** Shared-neighbour pattern keys (a1 · 2R + a2) by relation number. */
  neighbourPatterns: Set<number>[];
  /** The relation number of the index's own "same name" links (`SAME_NAME_KEY`), −1 when none; always the last. */
  sameName: number;
}

/** Pseudo-random numbers from a seed (mulberry32), so mining is deterministic. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` indices spread evenly over 0..total-1 (all of them when total ≤ count). */
export function stride(total: number, count: number): number[] {
  if (total <= count) return Array.from({ length: total }, (_, i) => i);
  return Array.from({ length: count }, (_, i) => Math.floor((i * total) / count));
}

export function* buildIndex(graph: KnowledgeGraph): Generator<number, RulesIndex> {
  const ids = [...graph.nodes.keys()];
  const n = ids.length;
  const numberOf = new Map<string, number>();
  ids.forEach((id, i) => numberOf.set(id, i));
  const fileTypes: string[] = [];
  const typeNumber = new Map<string, number>();
  const fileType = new Int32Array(n).fill(-1);
  ids.forEach((id, i) => {
    const t = graph.nodes.get(id)?.fileType ?? null;
    if (t === null) return;
    let k = typeNumber.get(t);
    if (k === undefined) {
      k = fileTypes.length;
      fileTypes.push(t);
      typeNumber.set(t, k);
    }
    fileType[i] = k;
  });
  const sourceFiles: string[] = [];
  const sourceNumber = new Map<string, number>();
  const sourceFile = new Int32Array(n).fill(-1);
  ids.forEach((id, i) => {
    const f = graph.nodes.get(id)?.sourceFile ?? null;
    if (f === null || f === "") return;
    let k = sourceNumber.get(f);
    if (k === undefined) {
      k = sourceFiles.length;
      sourceFiles.push(f);
      sourceNumber.set(f, k);
    }
    sourceFile[i] = k;
  });
  const rawKey = new Map<string, number>();
  const keys: string[] = [];
  const keyNumber = new Map<string, number>();
  const spellings: Map<string, number>[] = [];
  const seen: Set<number>[] = [];
  const subjects: number[][] = [];
  const objects: number[][] = [];
  let edgesSeen = 0;
  const total = Math.max(1, graph.edges.size);
  for (const e of graph.edges.values()) {
    let r = rawKey.get(e.relation);
    if (r === undefined) {
      const key = normalizeRelation(e.relation);
      r = keyNumber.get(key);
      if (r === undefined) {
        r = keys.length;
        keys.push(key);
        keyNumber.set(key, r);
        spellings.push(new Map());
        seen.push(new Set());
        subjects.push([]);
        objects.push([]);
      }
      rawKey.set(e.relation, r);
    }
    const spelled = spellings[r] as Map<string, number>;
    spelled.set(e.relation, (spelled.get(e.relation) ?? 0) + 1);
    const s = numberOf.get(e.source);
    const o = numberOf.get(e.target);
    if (s !== undefined && o !== undefined && s !== o) {
      const pair = s * n + o;
      const set = seen[r] as Set<number>;
      if (!set.has(pair)) {
        set.add(pair);
        (subjects[r] as number[]).push(s);
        (objects[r] as number[]).push(o);
      }
    }
    if (++edgesSeen % 2_000 === 0) yield edgesSeen / total;
  }
  addSameNameLinks(graph, ids, numberOf, { keys, keyNumber, spellings, seen, subjects, objects });
  const display = spellings.map((m) => {
    let best = "";
    let count = -1;
    for (const [name, c] of m) {
      if (c > count) {
        best = name;
        count = c;
      }
    }
    return best;
  });
  const factS = subjects.map((a) => Int32Array.from(a));
  const factO = objects.map((a) => Int32Array.from(a));
  yield 1;
  // CSR: count, place, then sort each node's slice by (atom, neighbour).
  const off = new Int32Array(n + 1);
  for (let r = 0; r < keys.length; r++) {
    const S = factS[r] as Int32Array;
    const O = factO[r] as Int32Array;
    for (let i = 0; i < S.length; i++) {
      const s = (S[i] as number) + 1;
      const o = (O[i] as number) + 1;
      off[s] = (off[s] as number) + 1;
      off[o] = (off[o] as number) + 1;
    }
    if (r % 20 === 19) yield 1;
  }
  for (let u = 0; u < n; u++) off[u + 1] = (off[u + 1] as number) + (off[u] as number);
  const m = off[n] as number;
  const sortKey = new Float64Array(m);
  const fill = off.slice(0, n);
  for (let r = 0; r < keys.length; r++) {
    const S = factS[r] as Int32Array;
    const O = factO[r] as Int32Array;
    for (let i = 0; i < S.length; i++) {
      const s = S[i] as number;
      const o = O[i] as number;
      const at = fill[s] as number;
      sortKey[at] = 2 * r * n + o;
      fill[s] = at + 1;
      const back = fill[o] as number;
      sortKey[back] = (2 * r + 1) * n + s;
      fill[o] = back + 1;
    }
    if (r % 20 === 19) yield 1;
  }
  yield 1;
  const atom = new Int32Array(m);
  const nbr = new Int32Array(m);
  for (let u = 0; u < n; u++) {
    const lo = off[u] as number;
    const hi = off[u + 1] as number;
    if (hi - lo > 1) sortKey.subarray(lo, hi).sort();
    for (let j = lo; j < hi; j++) {
      const k = sortKey[j] as number;
      const a = Math.floor(k / n);
      atom[j] = a;
      nbr[j] = k - a * n;
    }
    if (u % 2_000 === 1_999) yield 1;
  }
  const sameName = keyNumber.get(SAME_NAME_KEY) ?? -1;
  return { n, ids, keys, display, factS, factO, off, atom, nbr, sortKey, fileType, fileTypes, sourceFile, sourceFiles, numberOf, keyNumber, rules: [], signatureFeatures: [], neighbourPatterns: [], sameName };
}

/**
 * End of node u's graph entries: its "same name" entries (the last relation, so the end of its
 * slice) left out. Neighbours, degrees, kinds and the learned model read the graph's own edges.
 */
export function graphEnd(ix: RulesIndex, u: number): number {
  return ix.sameName < 0 ? (ix.off[u + 1] as number) : lowerAtom(ix, u, 2 * ix.sameName);
}

/**
 * The index's own relation between distinct nodes whose labels are equal once normalised (case,
 * accents, spacing): "Ray Romano" the actor and "ray romano" the tag of MetaQA, a film and the
 * novel of the same title. Not an edge of the graph and never a proposal's relation (no stored
 * relation normalises to this key); only a body atom, so that what such a pair predicts is mined
 * and measured like any other path (`has_tags(x,z) ∧ same name(z,y) ⇒ starred_actors(x,y)`), and
 * a name shared by many nodes (a method name in every file) links none of them.
 */
export const SAME_NAME_KEY = "\u0001same name";
export const SAME_NAME_DISPLAY = "same name";
/** A normalised label shared by more nodes than this is a common name, not an alias. */
const SAME_NAME_MAX_GROUP = 3;

function addSameNameLinks(
  graph: KnowledgeGraph,
  ids: readonly string[],
  numberOf: ReadonlyMap<string, number>,
  rel: { keys: string[]; keyNumber: Map<string, number>; spellings: Map<string, number>[]; seen: Set<number>[]; subjects: number[][]; objects: number[][] },
): void {
  // A label seen once keeps its node number, a shared one the list (most labels are unique).
  const groups = new Map<string, number | number[]>();
  for (const id of ids) {
    // The node's label as the graph normalised it once (GraphNode.normLabel), not again here.
    const label = graph.nodes.get(id)?.normLabel ?? normalizeLabel(id);
    if (label === "") continue;
    const u = numberOf.get(id) as number;
    const g = groups.get(label);
    if (g === undefined) groups.set(label, u);
    else if (typeof g === "number") groups.set(label, [g, u]);
    else g.push(u);
  }
  let r = -1;
  for (const g of groups.values()) {
    if (typeof g === "number" || g.length > SAME_NAME_MAX_GROUP) continue;
    if (r < 0) {
      r = rel.keys.length;
      rel.keys.push(SAME_NAME_KEY);
      rel.keyNumber.set(SAME_NAME_KEY, r);
      rel.spellings.push(new Map([[SAME_NAME_DISPLAY, 1]]));
      rel.seen.push(new Set());
      rel.subjects.push([]);
      rel.objects.push([]);
    }
    // Both directions: the relation is symmetric, and one stored direction would split a rule's support in two.
    for (const a of g) {
      for (const b of g) {
        if (a === b) continue;
        (rel.subjects[r] as number[]).push(a);
        (rel.objects[r] as number[]).push(b);
      }
    }
  }
}

/** First entry of node u with atom ≥ a. */
export function lowerAtom(ix: RulesIndex, u: number, a: number): number {
  let lo = ix.off[u] as number;
  let hi = ix.off[u + 1] as number;
  const target = a * ix.n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((ix.sortKey[mid] as number) < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The entries of node u with atom a: [start, end). */
export function atomRange(ix: RulesIndex, u: number, a: number): [number, number] {
  return [lowerAtom(ix, u, a), lowerAtom(ix, u, a + 1)];
}

export function hasEntry(ix: RulesIndex, u: number, a: number, v: number): boolean {
  let lo = ix.off[u] as number;
  let hi = ix.off[u + 1] as number;
  const target = a * ix.n + v;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const k = ix.sortKey[mid] as number;
    if (k === target) return true;
    if (k < target) lo = mid + 1;
    else hi = mid;
  }
  return false;
}

export const flip = (a: number): number => a ^ 1;

/** Internal rule: atoms are CSR atoms seen from the earlier variable. */
export interface IntRule {
  a1: number;
  /** -1 for a length-1 rule. */
  a2: number;
  /** The third atom of a length-3 rule (x –a1– z –a2– w –a3– y); absent or -1 otherwise. */
  a3?: number;
}

/** The stored-direction triple of CSR entry (u, atom, v), labels from `graph`. */
export function tripleOf(graph: KnowledgeGraph, ix: RulesIndex, u: number, atom: number, v: number): Triple {
  const [source, target] = atom & 1 ? [v, u] : [u, v];
  const edge: GraphEdge = { key: "", source: ix.ids[source] as string, target: ix.ids[target] as string, relation: ix.display[atom >> 1] as string, attrs: {} };
  return graph.toTriple(edge);
}
