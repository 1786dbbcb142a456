/**
 * Whether two nodes with similar names are plausibly one thing, before the heuristic proposes
 * `replace_node`. A similar name is only the reason to look; a merge needs evidence, and some
 * evidence rules it out:
 *
 * - against (any one blocks): different kinds — different `file_type`, or roles (relation and
 *   direction) that the graph's own statistics keep apart (no node, or far fewer than chance
 *   predicts, takes part in both: a `has_tags` object is a tag, a `directed_by` subject a
 *   film); different years under the same relation (`release_year` 1957 vs 2003), or
 *   different values of a relation that holds one value per node in this graph (mined: most
 *   of its subjects have one edge of it, like `directed_by`); an edge
 *   joining the two that is not an alias statement (a city in the state of the same name);
 *   relations both take part in without a single neighbour in common (disjoint casts).
 * - for: an alias statement — an edge like `also known as`/`official name` between them, a
 *   sentence "A, also known as B" / "A (B)" in the given passages, or a passage titled A whose
 *   first sentence opens with B ("Winter Olympic Games": "The Olympic Winter Games (official
 *   name) … is"); a shared specific neighbour (the same relation, the same direction, to the
 *   same node or a node of the same name, where that node is not a hub of the relation); the
 *   same kind (a shared role, or roles the graph shows together more often than chance).
 *
 * What suffices depends on how the names match: the same words in the same order, capitalised
 * alike ("Kim Jong Il" / "Kim Jong-il"), needs only the absence of evidence against; a case
 * variant ("euro" / "Euro", "2010 census" / "2010 Census": a common noun next to a name)
 * needs the same kind, a shared neighbour or an alias; reordered words ("Liang Ji" / "Ji
 * Liang") and a name inside another ("The Undead" / "Undead", "The United States" the hotel /
 * "United States") need a shared neighbour or an alias statement — a title that merely
 * contains another's words is not evidence.
 */
import { DerivedCache, type GraphDelta } from "../../graph/derived-cache";
import type { GraphEdge, GraphNode, KnowledgeGraph } from "../../graph/model";
import type { CorpusDocument } from "../../import/corpus";
import { findCoMentions, isAliasStatement, matchTerms, proseKey, splitSentences } from "../../review/text-evidence";
import type { DuplicateReason } from "./graph-index";
import { isStopword, wordTokens } from "./text";

export type NameMatch = "same name" | "case variant" | "reordered words" | "name inside another";

export interface MergeJudgement {
  plausible: boolean;
  match: NameMatch;
  /** Evidence for (when plausible) or the reason it is not, for people: one short clause each. */
  reasons: string[];
}

export interface JudgeMergeOptions {
  graph: KnowledgeGraph;
  a: string;
  b: string;
  reason: DuplicateReason;
  documents?: readonly CorpusDocument[];
}

// ---------------------------------------------------------------------------------------------
// Roles: which relations, in which direction, a node takes part in

interface RoleIndex {
  signature: string;
  nodesWith: Map<string, Set<string>>;
  nodeCount: number;
  coCache: Map<string, number>;
  functional: Map<string, boolean>;
  /** Per node: its roles, and per role the keys of its neighbours there (lazily, for judged nodes). */
  neighbourhoods: Map<string, Map<string, Set<string>>>;
  keys: Map<string, string[]>;
  years: Map<string, Map<string, Set<string>>>;
  /** The graph's part of a judgement, per pair of nodes: hubs ("Drama") come up in every question. */
  pairs: Map<string, GraphEvidence>;
}

/** Per-graph caches stay below this many entries each (they are rebuilt on demand). */
const MAX_CACHED = 50_000;

function remember<K, V>(map: Map<K, V>, key: K, value: V): V {
  if (map.size >= MAX_CACHED) map.clear();
  map.set(key, value);
  return value;
}

/** Per graph version, advanced with it (lib/graph/derived-cache.ts): the role sets of the nodes a change touched. */
const roleIndexes = new DerivedCache<RoleIndex>({ build: buildRoleIndex, advance: advanceRoleIndex });

function roleIndexOf(graph: KnowledgeGraph): RoleIndex {
  return roleIndexes.get(graph);
}

/** The nodes taking part in each role (`subject`/`object` of a relation), per graph version (tests compare versions). */
export function nodesByRole(graph: KnowledgeGraph): ReadonlyMap<string, ReadonlySet<string>> {
  return roleIndexOf(graph).nodesWith;
}

function emptyCaches(nodesWith: Map<string, Set<string>>, graph: KnowledgeGraph): RoleIndex {
  return {
    signature: `${graph.nodes.size}/${graph.edges.size}`,
    nodesWith,
    nodeCount: graph.nodes.size,
    coCache: new Map(),
    functional: new Map(),
    neighbourhoods: new Map(),
    keys: new Map(),
    years: new Map(),
    pairs: new Map(),
  };
}

function buildRoleIndex(graph: KnowledgeGraph): RoleIndex {
  const nodesWith = new Map<string, Set<string>>();
  const add = (role: string, id: string) => {
    let set = nodesWith.get(role);
    if (!set) nodesWith.set(role, (set = new Set()));
    set.add(id);
  };
  for (const e of graph.edges.values()) {
    add(roleKey("subject", e.relation), e.source);
    add(roleKey("object", e.relation), e.target);
  }
  return emptyCaches(nodesWith, graph);
}

/** The role sets of `graph` from those of `delta.previous`: each changed edge's endpoints re-checked in their roles. */
function advanceRoleIndex(old: RoleIndex, delta: GraphDelta, graph: KnowledgeGraph): RoleIndex {
  const nodesWith = new Map(old.nodesWith);
  const copied = new Set<string>();
  const setOf = (role: string) => {
    let set = nodesWith.get(role);
    if (!set || !copied.has(role)) {
      nodesWith.set(role, (set = new Set(set)));
      copied.add(role);
    }
    return set;
  };
  const has = (side: "subject" | "object", id: string, relation: string) => {
    if (!graph.getNode(id)) return false;
    for (const key of side === "subject" ? graph.outEdgeKeys(id) : graph.inEdgeKeys(id)) if (graph.edges.get(key)?.relation === relation) return true;
    return false;
  };
  const checked = new Set<string>();
  for (const key of delta.edges) {
    for (const e of [delta.previous.edges.get(key), graph.edges.get(key)]) {
      if (!e) continue;
      for (const [side, id] of [["subject", e.source], ["object", e.target]] as const) {
        const role = roleKey(side, e.relation);
        const mark = `${role}\u0001${id}`;
        if (checked.has(mark)) continue;
        checked.add(mark);
        const set = setOf(role);
        if (has(side, id, e.relation)) set.add(id);
        else set.delete(id);
        if (set.size === 0) nodesWith.delete(role);
      }
    }
  }
  return emptyCaches(nodesWith, graph);
}

function roleKey(side: "subject" | "object", relation: string): string {
  return `${side}\u0000${relation}`;
}

function roleText(role: string): string {
  const [side, relation] = role.split("\u0000");
  return `${side} of "${relation}"`;
}

/** Role → the keys of the node's neighbours in that role (`neighbourKeys`), cached. */
function neighbourhoodOf(graph: KnowledgeGraph, id: string): Map<string, Set<string>> {
  const index = roleIndexOf(graph);
  const cached = index.neighbourhoods.get(id);
  if (cached) return cached;
  const out = new Map<string, Set<string>>();
  for (const e of graph.incidentEdges(id)) {
    const [side, other] = e.source === id ? (["subject", e.target] as const) : (["object", e.source] as const);
    const role = roleKey(side, e.relation);
    let set = out.get(role);
    if (!set) out.set(role, (set = new Set()));
    for (const k of neighbourKeys(graph, other)) set.add(k);
  }
  return remember(index.neighbourhoods, id, out);
}

function rolesOf(graph: KnowledgeGraph, id: string): Set<string> {
  return new Set(neighbourhoodOf(graph, id).keys());
}

function coOccurrence(index: RoleIndex, r1: string, r2: string): number {
  const key = r1 < r2 ? `${r1}\u0001${r2}` : `${r2}\u0001${r1}`;
  const cached = index.coCache.get(key);
  if (cached !== undefined) return cached;
  const s1 = index.nodesWith.get(r1) ?? new Set<string>();
  const s2 = index.nodesWith.get(r2) ?? new Set<string>();
  const [small, large] = s1.size <= s2.size ? [s1, s2] : [s2, s1];
  let n = 0;
  for (const id of small) if (large.has(id)) n++;
  index.coCache.set(key, n);
  return n;
}

/** Roles compared per node: the best supported ones (a hub's long tail says little). */
const MAX_ROLES = 8;
/** Below this many expected co-occurrences, "none seen" is no evidence of different kinds. */
const MIN_EXPECTED = 5;
/** Observed / expected co-occurrence below this: the roles belong to different kinds of node. */
const APART_LIFT = 0.1;

type KindVerdict = { verdict: "same" | "different" | "unknown"; why: string; /** Both take part in one role. */ shared?: boolean };

/**
 * Same kind, different kinds, or unknown. Two roles belong to different kinds when, over the
 * whole graph, far fewer nodes take both than independence predicts (and enough are predicted
 * for the absence to mean something); in a graph with thousands of one-off relations (text
 * extraction) the test rarely has the power, and the verdict is "unknown", not "different".
 */
export function compareKinds(graph: KnowledgeGraph, a: GraphNode, b: GraphNode): KindVerdict {
  if (a.fileType && b.fileType) {
    return a.fileType === b.fileType
      ? { verdict: "same", why: `both are ${a.fileType} nodes`, shared: true }
      : { verdict: "different", why: `one is a ${a.fileType} node, the other a ${b.fileType} node` };
  }
  const ra = rolesOf(graph, a.id);
  const rb = rolesOf(graph, b.id);
  for (const r of ra) if (rb.has(r)) return { verdict: "same", why: `both are the ${roleText(r)}`, shared: true };
  if (ra.size === 0 || rb.size === 0) return { verdict: "unknown", why: "one of them has no edges" };
  const index = roleIndexOf(graph);
  const top = (roles: Set<string>) => [...roles].sort((x, y) => (index.nodesWith.get(y)?.size ?? 0) - (index.nodesWith.get(x)?.size ?? 0)).slice(0, MAX_ROLES);
  let apart: string | null = null;
  let untested = false;
  for (const r1 of top(ra)) {
    for (const r2 of top(rb)) {
      const n1 = index.nodesWith.get(r1)?.size ?? 0;
      const n2 = index.nodesWith.get(r2)?.size ?? 0;
      const expected = (n1 * n2) / Math.max(1, index.nodeCount);
      const seen = coOccurrence(index, r1, r2);
      if (seen >= 2 && seen >= expected * 0.5) {
        return { verdict: "same", why: `${seen} nodes are both the ${roleText(r1)} and the ${roleText(r2)}` };
      }
      if (expected >= MIN_EXPECTED && seen < expected * APART_LIFT) {
        apart ??= `${seen} of the graph's nodes are both the ${roleText(r1)} (${n1}) and the ${roleText(r2)} (${n2}), ${Math.round(expected)} expected by chance`;
      } else untested = true;
    }
  }
  if (apart && !untested) return { verdict: "different", why: `different kinds: ${apart}` };
  return { verdict: "unknown", why: "the graph does not tell their kinds apart" };
}

// ---------------------------------------------------------------------------------------------
// Years

const MONTHS = /\b(jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sep(t(ember)?)?|oct(ober)?|nov(ember)?|dec(ember)?|ad|bc|bce|ce|c)\b/giu;

/** The year of a date-like label ("1957", "April 20, 1947", "2003-05-01"), else null. */
function yearOf(label: string): string | null {
  const years = label.match(/\b(1\d{3}|20\d{2})\b/g);
  if (!years || years.length !== 1) return null;
  const rest = label.replace(MONTHS, " ").replace(/[\d\s.,/\-–'’()]+/g, "");
  return rest === "" ? (years[0] ?? null) : null;
}

function yearsByRole(graph: KnowledgeGraph, id: string): Map<string, Set<string>> {
  const index = roleIndexOf(graph);
  const cached = index.years.get(id);
  if (cached) return cached;
  const out = new Map<string, Set<string>>();
  for (const e of graph.incidentEdges(id)) {
    const other = e.source === id ? e.target : e.source;
    const year = yearOf(graph.getNode(other)?.label ?? other);
    if (!year) continue;
    const role = roleKey(e.source === id ? "subject" : "object", e.relation);
    let set = out.get(role);
    if (!set) out.set(role, (set = new Set()));
    set.add(year);
  }
  return remember(index.years, id, out);
}

/** Fewer nodes than this take part in a role: too few to call it functional. */
const MIN_FUNCTIONAL_SUPPORT = 10;
/** Share of a role's nodes with exactly one edge of it for the role to be functional. */
const FUNCTIONAL_SHARE = 0.8;

/** Whether most nodes that take part in a role have one edge of it (a film has one director). */
function isFunctionalRole(graph: KnowledgeGraph, index: RoleIndex, role: string): boolean {
  const cached = index.functional.get(role);
  if (cached !== undefined) return cached;
  const [side, relation] = role.split("\u0000");
  const members = index.nodesWith.get(role) ?? new Set<string>();
  let single = 0;
  if (members.size >= MIN_FUNCTIONAL_SUPPORT) {
    for (const id of members) {
      let n = 0;
      for (const e of side === "subject" ? graph.outEdges(id) : graph.inEdges(id)) if (e.relation === relation && ++n > 1) break;
      if (n === 1) single++;
    }
  }
  const functional = members.size >= MIN_FUNCTIONAL_SUPPORT && single >= FUNCTIONAL_SHARE * members.size;
  index.functional.set(role, functional);
  return functional;
}

/** A functional role both take part in, with different values ("directed_by": two directors). */
function functionalConflict(graph: KnowledgeGraph, a: GraphNode, b: GraphNode): string | null {
  const index = roleIndexOf(graph);
  const va = neighbourhoodOf(graph, a.id);
  const vb = neighbourhoodOf(graph, b.id);
  for (const [role, values] of va) {
    const other = vb.get(role);
    // Subjects only: many things may point to one object ("located in" a city), and in a
    // sparse extracted graph nearly every object side would look one-valued.
    if (!other || !role.startsWith("subject") || !isFunctionalRole(graph, index, role)) continue;
    if ([...values].some((k) => other.has(k))) continue;
    const name = (keys: Set<string>) =>
      [...keys].filter((k) => k.startsWith("#")).slice(0, 2).map((k) => `"${graph.getNode(k.slice(1))?.label ?? k.slice(1)}"`).join(", ");
    return `different values of "${role.split("\u0000")[1]}", which holds one value per node in this graph: ${name(values)} vs ${name(other)}`;
  }
  return null;
}

function differentYears(graph: KnowledgeGraph, a: GraphNode, b: GraphNode): string | null {
  const ya = yearsByRole(graph, a.id);
  if (ya.size === 0) return null;
  const yb = yearsByRole(graph, b.id);
  for (const [role, years] of ya) {
    const other = yb.get(role);
    if (!other || [...years].some((y) => other.has(y))) continue;
    const relation = role.split("\u0000")[1] ?? "";
    return `different years under "${relation}": ${[...years].sort().join(", ")} vs ${[...other].sort().join(", ")}`;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Neighbourhoods

/** A neighbour's identity: its id, and its name's words (a near-duplicate neighbour counts). */
function neighbourKeys(graph: KnowledgeGraph, id: string): string[] {
  const index = roleIndexOf(graph);
  const cached = index.keys.get(id);
  if (cached) return cached;
  const label = graph.getNode(id)?.label ?? id;
  const words = wordTokens(label).map((t) => t.norm).filter((w) => !["the", "a", "an"].includes(w));
  return remember(index.keys, id, words.length > 0 ? [`#${id}`, words.join(" ")] : [`#${id}`]);
}

/**
 * A neighbour both nodes reach by the same relation in the same direction, and that is not a
 * hub of that relation (at most √n of the relation's n subjects or objects point to it: a
 * genre or a year that half the films share says nothing).
 */
function sharedNeighbour(graph: KnowledgeGraph, a: GraphNode, b: GraphNode): string | null {
  const index = roleIndexOf(graph);
  const na = neighbourhoodOf(graph, a.id);
  const nb = neighbourhoodOf(graph, b.id);
  for (const [role, keys] of na) {
    const other = nb.get(role);
    if (!other) continue;
    const [side, relation] = role.split("\u0000");
    const members = index.nodesWith.get(role)?.size ?? 0;
    for (const k of keys) {
      if (!k.startsWith("#") || k === `#${b.id}`) continue;
      const id = k.slice(1);
      const words = neighbourKeys(graph, id)[1];
      if (!other.has(k) && !(words !== undefined && other.has(words))) continue;
      // Edges of this relation at the neighbour, from its side: a hub says nothing.
      let atNeighbour = 0;
      for (const x of side === "subject" ? graph.inEdges(id) : graph.outEdges(id)) if (x.relation === relation) atNeighbour++;
      if (atNeighbour > Math.max(2, Math.sqrt(members))) continue;
      return `both are the ${roleText(role)} with "${graph.getNode(id)?.label ?? id}"`;
    }
  }
  return null;
}

/**
 * Roles both take part in where neither shares a single neighbour with the other, with at
 * least two neighbours on each side there: two films with the same title and disjoint casts,
 * directors and tags are two films. A split duplicate keeps some facts in common.
 */
function disjointNeighbourhoods(graph: KnowledgeGraph, a: GraphNode, b: GraphNode): string | null {
  const na = neighbourhoodOf(graph, a.id);
  const nb = neighbourhoodOf(graph, b.id);
  const shared = [...na.keys()].filter((r) => nb.has(r));
  if (shared.length === 0) return null;
  let countA = 0;
  let countB = 0;
  for (const role of shared) {
    const sa = na.get(role) ?? new Set<string>();
    const sb = nb.get(role) ?? new Set<string>();
    for (const k of sa) if (sb.has(k)) return null;
    countA += [...sa].filter((k) => k.startsWith("#")).length;
    countB += [...sb].filter((k) => k.startsWith("#")).length;
  }
  if (countA < 2 || countB < 2) return null;
  const roles = shared.slice(0, 3).map((r) => `"${r.split("\u0000")[1]}"`).join(", ");
  return `no neighbour in common under the relations both have (${roles}: ${countA} vs ${countB} neighbours)`;
}

// ---------------------------------------------------------------------------------------------
// Alias statements

const ALIAS_RELATION = /\b(also known as|known as|aka|a k a|alias|official name|other name|nickname|nicknamed|called|renamed|formerly|same as|abbreviation|short for|acronym)\b/;

function aliasEdge(graph: KnowledgeGraph, a: GraphNode, b: GraphNode): { edge: GraphEdge | null; alias: boolean } {
  if (graph.degree(a.id) > graph.degree(b.id)) return aliasEdge(graph, b, a);
  for (const e of graph.incidentEdges(a.id)) {
    if ((e.source === a.id && e.target === b.id) || (e.source === b.id && e.target === a.id)) {
      const words = wordTokens(e.relation.replace(/_/g, " ")).map((t) => t.norm).join(" ");
      if (ALIAS_RELATION.test(words)) return { edge: e, alias: true };
      return { edge: e, alias: false };
    }
  }
  return { edge: null, alias: false };
}

function titleKey(title: string): string {
  return proseKey(title.replace(/\s*\([^()]*\)\s*$/, ""));
}

/** A passage titled one name whose first sentence opens with the other, as its subject. */
function titleAlias(documents: readonly CorpusDocument[], a: GraphNode, b: GraphNode): string | null {
  const termsOf = (n: GraphNode) => matchTerms({ name: n.label, node: n }).prose;
  const ta = termsOf(a);
  const tb = termsOf(b);
  for (const doc of documents) {
    if (doc.kind !== "passage" || !doc.title) continue;
    const title = titleKey(doc.title);
    const [titled, other] = ta.includes(title) ? [a, tb] : tb.includes(title) ? [b, ta] : [null, []];
    if (!titled || other.includes(title)) continue;
    const first = proseKey(splitSentences(doc.text)[0] ?? "").replace(/^the /, "");
    for (const term of other) {
      const bare = term.replace(/^the /, "");
      if (first.startsWith(bare) && /^\s*(\(|,|is\b|was\b|are\b|were\b|refers\b)/.test(first.slice(bare.length))) {
        return `the passage titled "${doc.title}" (${doc.docId}) opens with "${(splitSentences(doc.text)[0] ?? "").slice(0, 80)}"`;
      }
    }
  }
  return null;
}

function textAlias(documents: readonly CorpusDocument[], a: GraphNode, b: GraphNode): string | null {
  if (documents.length === 0) return null;
  const mentions = findCoMentions({ documents, a: matchTerms({ name: a.label, node: a }), b: matchTerms({ name: b.label, node: b }), limit: 20 });
  const alias = mentions.find(isAliasStatement);
  if (alias) return `${alias.doc.docId} states the alias: "${alias.unit.text.slice(0, 120)}"`;
  return titleAlias(documents, a, b);
}

// ---------------------------------------------------------------------------------------------
// Name match

/**
 * How a label is capitalised, at the grain that tells a name from a common noun: the first
 * letter ("The United States" the hotel, "the United States" the country), whether every word
 * that is not a stopword starts with a capital ("Kim Jong-il" and "Kim Jong Il" both do), and
 * all capitals ("TEN" is not "Ten").
 */
function caseShape(label: string): string {
  const words = label.split(/\s+/).filter((w) => /\p{L}/u.test(w));
  const content = words.filter((w) => !isStopword(w.toLowerCase().replace(/[^\p{L}]/gu, "")));
  const title = content.length > 0 && content.every((w) => /^[^\p{L}\p{N}]*[\p{Lu}\p{N}]/u.test(w));
  const letters = label.replace(/[^\p{L}]/gu, "");
  const caps = letters.length >= 2 && letters === letters.toUpperCase() && letters !== letters.toLowerCase();
  const first = /\p{Lu}/u.test(letters.charAt(0));
  return `${first}/${title}/${caps}`;
}

export function nameMatchOf(a: GraphNode, b: GraphNode, reason: DuplicateReason): NameMatch {
  const words = (n: GraphNode) => wordTokens(n.label).map((t) => t.norm).join(" ");
  if (words(a) === words(b)) return caseShape(a.label) === caseShape(b.label) ? "same name" : "case variant";
  return reason === "same words" ? "reordered words" : "name inside another";
}

// ---------------------------------------------------------------------------------------------

interface GraphEvidence {
  /** Evidence against that no text outweighs: kinds, years, a functional relation, a joining edge. */
  against: string | null;
  kinds: KindVerdict;
  aliasEdge: string | null;
  disjoint: string | null;
  neighbour: string | null;
}

function graphEvidence(graph: KnowledgeGraph, a: GraphNode, b: GraphNode): GraphEvidence {
  const index = roleIndexOf(graph);
  const key = a.id < b.id ? `${a.id}\u0000${b.id}` : `${b.id}\u0000${a.id}`;
  const cached = index.pairs.get(key);
  if (cached) return cached;
  const kinds = compareKinds(graph, a, b);
  const none = { kinds, aliasEdge: null, disjoint: null, neighbour: null };
  let against = kinds.verdict === "different" ? kinds.why : (differentYears(graph, a, b) ?? functionalConflict(graph, a, b));
  let evidence: GraphEvidence = { against, ...none };
  if (!against) {
    const joined = aliasEdge(graph, a, b);
    if (joined.edge && !joined.alias) against = `an edge joins them ("${joined.edge.relation}"): two things, one related to the other`;
    evidence = against
      ? { against, ...none }
      : {
          against,
          kinds,
          aliasEdge: joined.alias ? `an edge states the alias ("${joined.edge?.relation}")` : null,
          disjoint: disjointNeighbourhoods(graph, a, b),
          neighbour: sharedNeighbour(graph, a, b),
        };
  }
  return remember(index.pairs, key, evidence);
}

export function judgeMerge({ graph, a, b, reason, documents = [] }: JudgeMergeOptions): MergeJudgement {
  const na = graph.getNode(a);
  const nb = graph.getNode(b);
  if (!na || !nb) return { plausible: false, match: "same name", reasons: ["a node is missing"] };
  const match = nameMatchOf(na, nb, reason);
  const no = (why: string): MergeJudgement => ({ plausible: false, match, reasons: [why] });

  const g = graphEvidence(graph, na, nb);
  if (g.against) return no(g.against);
  const { kinds, neighbour } = g;
  // The passages are read unless the name alone suffices (and nothing in the graph speaks against it).
  const alias = g.aliasEdge ?? (match === "same name" && !g.disjoint ? null : textAlias(documents, na, nb));
  // Disjoint neighbourhoods are the graph's word against it; a text that names the alias outweighs it.
  if (g.disjoint && !alias) return no(g.disjoint);
  const forIt = [alias, neighbour, kinds.verdict === "same" ? kinds.why : null].filter((x): x is string => x !== null);
  const yes = (extra: string[]): MergeJudgement => ({ plausible: true, match, reasons: [...extra, ...forIt] });
  switch (match) {
    case "same name":
      return yes(["the same words in the same order"]);
    case "case variant":
      // A shared role itself, not roles that merely co-occur elsewhere ("has" / "has by").
      return alias || neighbour || kinds.shared
        ? yes(["the same words, capitalised differently"])
        : no("only the capitalisation differs (a name beside a common noun, or an acronym), and nothing else says they are one thing");
    case "reordered words":
    case "name inside another":
      if (alias || neighbour) return yes([match === "reordered words" ? "the same words in another order" : "one name inside the other"]);
      return no(`${match === "reordered words" ? "the same words in another order" : "one name is inside the other"}, and no alias statement or shared neighbour says they are one thing`);
  }
}
