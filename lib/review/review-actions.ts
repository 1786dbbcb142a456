/**
 * Review of proposed refinement actions: a HIGH / MEDIUM / LOW label per action with the reasons
 * that produced it, the graph, text and code evidence behind it, warnings, and ranked
 * suggestions. The rules, with a worked example of each label and warning, are in
 * docs/review-rules.md; this file implements that document.
 *
 * What it fixes in `deeprefine review` (reference.md §1.3): names go through the one resolver
 * apply uses; an existing edge is a no-op (EDGE_EXISTS, never HIGH), not evidence; one existing
 * endpoint is not enough for MEDIUM; the cross-community and k-hop checks exist; suggestions are
 * ranked with a score and a reason; code evidence covers Python and TS/JS and graphify's real
 * relations, starting from the `source_location` of existing edges.
 */
import type { GraphEdge, GraphNode, KnowledgeGraph, Triple } from "../graph/model";
import { normalizeLabel, stripCallSuffix } from "../graph/normalize";
import type { NameCandidate } from "../graph/resolve-name";
import { identifierWords, qualifiedName } from "../graph/resolve-name";
import type { CorpusDocument } from "../import/corpus";
import { documentIdsOf } from "../import/corpus";
import { formatAction } from "../loop/parse-output";
import type { RefinementAction } from "../loop/types";
import type { CodeCheck } from "./code-evidence";
import { checkCodeRelation, codeRelationKind } from "./code-evidence";
import { RelationIndex, edgesBetween, normalizeRelation, relationUsage, relationsBetweenSimilar, shortestPath } from "./graph-evidence";
import type { NameResolver, ResolvedAction } from "./resolve-action";
import { createNameResolver, resolveActionNames } from "./resolve-action";
import type { CoMention, MatchTerms } from "./text-evidence";
import { documentMentions, findCoMentions, isAliasStatement, matchTerms, relationWordsOf, stem, unqualified } from "./text-evidence";
import type { ActionReview, Confidence, EvidenceItem, EvidenceSource, ResolvedName, ReviewWarning, Suggestion, WarningCode } from "./types";

/** An entry the parser could not read: reviewed as LOW / UNPARSEABLE so it is shown, not lost. */
export interface UnparseableAction {
  raw: string;
  error: string;
}

export type ReviewInput = RefinementAction | UnparseableAction;

export interface ReviewActionsOptions {
  graph: KnowledgeGraph;
  /**
   * A memoising resolver (createNameResolver) shared with `documentIdsForReview`, so names are
   * resolved once per request: a not-found name costs a fuzzy scan of every node.
   */
  resolve?: NameResolver;
  actions: readonly ReviewInput[];
  /** The documents the server fetched for `documentIdsForReview`: nothing else is read. */
  documents: ReadonlyMap<string, CorpusDocument>;
  /** The run's last-step subgraph; actions touching none of its nodes get OUTSIDE_RETRIEVED. */
  retrieved?: readonly Triple[];
  /** Path search depth (hops). */
  k?: number;
}

/** Warnings that inform but do not force LOW (EDGE_EXISTS caps at MEDIUM instead). */
const NON_BLOCKING: ReadonlySet<WarningCode> = new Set(["OUTSIDE_RETRIEVED", "PARALLEL_RELATION", "MERGE_EXISTING", "EDGE_EXISTS"]);

/** Bare names that say nothing about which node is meant (reference.md §1.3, plus dunder kin). */
const GENERIC_NAMES = new Set(["main", "__main__", "run", "train", "test", "setup", "init", "__init__", "get", "set", "start", "call", "__call__", "execute"]);

/** Placeholder objects an extraction writes when it has no answer. */
const GENERIC_OBJECTS = new Set(["unknown", "n/a", "none", "null", "nil", "other", "others", "misc", "miscellaneous", "various", "", "?", "-", "unspecified", "undefined", "tbd", "etc"]);

const MAX_TEXT_QUOTES = 3;
const MAX_SUGGESTIONS = 8;
const MAX_CANDIDATE_SUGGESTIONS = 5;

function isUnparseable(item: ReviewInput): item is UnparseableAction {
  return "raw" in item && "error" in item && !("type" in item);
}

export function isGenericName(name: string): boolean {
  if (name.includes("::")) return false;
  return GENERIC_NAMES.has(stripCallSuffix(normalizeLabel(name)));
}

/** Relations that read the same both ways, so an edge and its reverse are one fact. */
const SYMMETRIC =
  /\b(married|spouses?|siblings?|brothers?|sisters?|cousins?|twins?|partners?|friends?|neighbou?rs?|neighbou?ring|borders?|bordering|adjacent|merged|same as|equivalent|alias|synonyms?|related|collaborat\w*|recorded with|met|meets)\b/;

export function isSymmetric(relation: string): boolean {
  return SYMMETRIC.test(normalizeRelation(relation));
}

export function isGenericObject(name: string): boolean {
  const n = normalizeLabel(name).replace(/^["'`]+|["'`.]+$/g, "");
  return GENERIC_OBJECTS.has(n) || /^\?+$/.test(n);
}

// ---------------------------------------------------------------------------------------------
// Documents

/** Document ids behind a node: its own source, then its incident edges' passages/files, deduplicated. */
function nodeDocumentIds(graph: KnowledgeGraph, id: string): string[] {
  const node = graph.getNode(id);
  if (!node) return [];
  const ids = new Set(documentIdsOf(node));
  for (const e of graph.incidentEdges(id)) for (const d of documentIdsOf(e)) ids.add(d);
  return [...ids];
}

function exactIds(resolved: ResolvedAction): string[] {
  return [resolved.subject, resolved.object, resolved.old, resolved.new]
    .map((r) => r?.nodeId)
    .filter((id): id is string => typeof id === "string");
}

/**
 * The document ids (passages, source files) the review reads: those behind the nodes the actions
 * name exactly, and behind their incident edges. The server fetches just these, after confining
 * file paths to the project root. Ambiguous names are LOW whatever the text says and unknown names
 * have no node, so neither adds documents.
 */
export function documentIdsForReview({
  graph,
  actions,
  resolve = createNameResolver({ graph }),
}: {
  graph: KnowledgeGraph;
  actions: readonly ReviewInput[];
  resolve?: NameResolver;
}): string[] {
  const ids = new Set<string>();
  const seenNodes = new Set<string>();
  for (const item of actions) {
    if (isUnparseable(item)) continue;
    for (const id of exactIds(resolveActionNames({ graph, action: item, resolve }))) {
      if (seenNodes.has(id)) continue;
      seenNodes.add(id);
      for (const d of nodeDocumentIds(graph, id)) ids.add(d);
    }
  }
  return [...ids];
}

// ---------------------------------------------------------------------------------------------
// Shared per-review state

interface Context {
  graph: KnowledgeGraph;
  documents: ReadonlyMap<string, CorpusDocument>;
  k: number;
  resolve: NameResolver;
  /** Node id → how many retrieved triples touch it; null when no retrieved subgraph was given. */
  retrieved: Map<string, number> | null;
  docsOf: (id: string) => CorpusDocument[];
  path: (a: string, b: string) => GraphEdge[] | null;
  relations: () => RelationIndex;
}

function createContext({
  graph,
  documents,
  retrieved,
  k,
  resolve,
}: {
  graph: KnowledgeGraph;
  documents: ReadonlyMap<string, CorpusDocument>;
  retrieved?: readonly Triple[];
  k: number;
  resolve: NameResolver;
}): Context {
  let counts: Map<string, number> | null = null;
  if (retrieved && retrieved.length > 0) {
    counts = new Map();
    for (const t of retrieved) {
      for (const id of new Set([t.subject_id, t.object_id])) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
  }
  const docCache = new Map<string, CorpusDocument[]>();
  const pathCache = new Map<string, GraphEdge[] | null>();
  let index: RelationIndex | undefined;
  return {
    graph,
    documents,
    k,
    resolve,
    retrieved: counts,
    docsOf: (id) => {
      let docs = docCache.get(id);
      if (!docs) {
        docs = nodeDocumentIds(graph, id)
          .map((d) => documents.get(d))
          .filter((d): d is CorpusDocument => d !== undefined);
        docCache.set(id, docs);
      }
      return docs;
    },
    path: (a, b) => {
      const key = JSON.stringify([a, b]);
      if (!pathCache.has(key)) pathCache.set(key, shortestPath({ graph, from: a, to: b, maxHops: k }));
      return pathCache.get(key) ?? null;
    },
    relations: () => (index ??= new RelationIndex(graph)),
  };
}

// ---------------------------------------------------------------------------------------------
// One review

class Review {
  readonly reasons: string[] = [];
  readonly evidence: EvidenceItem[] = [];
  readonly warnings: ReviewWarning[] = [];
  readonly suggestions: Suggestion[] = [];

  constructor(
    readonly ctx: Context,
    readonly action: RefinementAction,
    readonly resolved: ResolvedAction,
  ) {}

  warn(code: WarningCode, message: string, candidates?: NameCandidate[]): void {
    this.warnings.push(candidates ? { code, message, candidates } : { code, message });
  }

  has(code: WarningCode): boolean {
    return this.warnings.some((w) => w.code === code);
  }

  suggest(action: RefinementAction, reason: string, score: number): void {
    const text = formatAction(action);
    if (text === formatAction(this.action) || this.suggestions.some((s) => s.text === text)) return;
    this.suggestions.push({ action, text, reason, score: Math.round(score * 1000) / 1000 });
  }

  node(r: ResolvedName | undefined): GraphNode | null {
    return r?.nodeId ? (this.ctx.graph.getNode(r.nodeId) ?? null) : null;
  }

  /** The blocking warnings' codes, in order, for the LOW reason. */
  blocking(): WarningCode[] {
    return [...new Set(this.warnings.filter((w) => !NON_BLOCKING.has(w.code)).map((w) => w.code))];
  }

  finish(index: number, confidence: Confidence, why: string): ActionReview {
    this.reasons.push(`${confidence}: ${why}`);
    // An edge that exists needs no alternative: nothing would change either way.
    if (this.has("EDGE_EXISTS")) this.suggestions.length = 0;
    this.suggestions.sort((a, b) => b.score - a.score || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
    return {
      index,
      action: this.action,
      text: formatAction(this.action),
      confidence,
      reasons: this.reasons,
      evidence: this.evidence,
      warnings: this.warnings,
      suggestions: this.suggestions.slice(0, MAX_SUGGESTIONS),
      resolved: this.resolved,
    };
  }
}

function describeNode(graph: KnowledgeGraph, node: GraphNode): string {
  const q = qualifiedName(graph, node.id);
  const parts = [q === node.label ? node.id : q];
  if (node.community !== null) parts.push(`community ${node.community}`);
  parts.push(`degree ${graph.degree(node.id)}`);
  return `"${node.label}" (${parts.join(", ")})`;
}

function tripleText(t: Triple): string {
  return `${t.subject} --${t.relation}--> ${t.object}`;
}

function edgeWhere(e: GraphEdge): string {
  const file = typeof e.attrs.source_file === "string" ? e.attrs.source_file.split("/").pop() : null;
  const loc = typeof e.attrs.source_location === "string" ? e.attrs.source_location : null;
  const passage = typeof e.attrs.source_passage === "string" ? e.attrs.source_passage : null;
  const where = [passage, file && loc ? `${file}:${loc.replace(/^L/, "")}` : file].filter(Boolean).join(", ");
  return where ? ` [${where}]` : "";
}

function docLabel(doc: CorpusDocument): string {
  return doc.path ?? doc.docId;
}

function sourceOf(doc: CorpusDocument, line: number | null): EvidenceSource {
  return { docId: doc.docId, title: doc.title, path: doc.path, line };
}

// ----- names ---------------------------------------------------------------------------------

type Role = "subject" | "object" | "old" | "new";

/** Substitute one name of the action. */
function withName(action: RefinementAction, role: Role, name: string): RefinementAction {
  if (action.type === "replace_node") return role === "old" ? { ...action, old: name } : role === "new" ? { ...action, new: name } : action;
  return role === "subject" ? { ...action, subject: name } : role === "object" ? { ...action, object: name } : action;
}

interface RankedCandidate {
  candidate: NameCandidate;
  score: number;
  why: string[];
}

/**
 * Candidates for a name ranked by the resolver's score, then whether they are in the retrieved
 * subgraph, their degree, and whether they fit the rest of the action (the edge to delete
 * exists; the other endpoint is within k hops). Never "the first candidate" by accident.
 */
function rankCandidates(rv: Review, role: Role, candidates: readonly NameCandidate[], maxFuzzy: number): RankedCandidate[] {
  const { graph } = rv.ctx;
  const maxDegree = Math.max(1, ...candidates.map((c) => graph.degree(c.id)));
  const other = otherEndpoint(rv, role);
  return candidates
    .map((candidate, order) => {
      const why: string[] = [];
      const resolver = candidate.matchedBy === "fuzzy" ? candidate.score / maxFuzzy : candidate.score / 105;
      why.push(candidate.matchedBy === "fuzzy" ? `similar name (${candidate.score})` : `resolver match by ${candidate.matchedBy} (${candidate.score})`);
      const inRetrieved = rv.ctx.retrieved?.has(candidate.id) ? 1 : 0;
      if (inRetrieved) why.push("in the retrieved subgraph");
      const degree = graph.degree(candidate.id);
      why.push(`degree ${degree}`);
      let fit = 0;
      if (other && rv.action.type !== "replace_node") {
        const [s, o] = role === "subject" ? [candidate.id, other.id] : [other.id, candidate.id];
        const action = rv.action;
        if (action.type === "delete_edge") {
          if (graph.outEdges(s).some((e) => e.target === o && e.relation === action.relation)) {
            fit = 1;
            why.push("the edge to delete exists with it");
          }
        } else {
          const p = candidate.id === other.id ? null : rv.ctx.path(s, o);
          if (p) {
            fit = 0.5;
            why.push(`${p.length} hop${p.length === 1 ? "" : "s"} from "${other.label}"`);
          }
        }
      }
      const score = 0.5 * resolver + 0.15 * inRetrieved + 0.1 * (Math.log1p(degree) / Math.log1p(maxDegree)) + 0.25 * fit;
      return { candidate, score, why, order };
    })
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map(({ order: _order, ...rest }) => rest);
}

function otherEndpoint(rv: Review, role: Role): GraphNode | null {
  if (role === "subject") return rv.node(rv.resolved.object);
  if (role === "object") return rv.node(rv.resolved.subject);
  return null;
}

const PARTNER: Record<Role, Role> = { subject: "object", object: "subject", old: "new", new: "old" };

function nameOf(action: RefinementAction, role: Role): string {
  if (action.type === "replace_node") return role === "old" ? action.old : action.new;
  return role === "subject" ? action.subject : action.object;
}

/** GENERIC_NAME, GENERIC_OBJECT, AMBIGUOUS_NAME / UNKNOWN_ENTITY for each name, with suggestions. */
function checkNames(rv: Review, roles: readonly Role[], { unknownIsWarning, genericObjectRoles }: { unknownIsWarning: (role: Role) => boolean; genericObjectRoles: readonly Role[] }): void {
  const { graph } = rv.ctx;
  for (const role of roles) {
    const name = nameOf(rv.action, role);
    const r = rv.resolved[role];
    if (!r) continue;
    if (isGenericName(name)) {
      rv.warn("GENERIC_NAME", `${role} "${name}" is a generic name that many code bases share; qualify it as file::label`);
      const node = rv.node(r);
      if (node) {
        const q = qualifiedName(graph, node.id);
        if (q !== name) rv.suggest(withName(rv.action, role, q), `qualify the generic ${role} "${name}" as the node it resolves to`, 0.6);
      }
    }
    if (genericObjectRoles.includes(role) && isGenericObject(name)) {
      rv.warn("GENERIC_OBJECT", `${role} "${name}" is a placeholder, not an entity: the edge would say nothing`);
    }
    // A candidate equal to the action's other node would make a self-loop or a no-op merge.
    const otherId = rv.resolved[PARTNER[role]]?.nodeId ?? null;
    if (r.status === "ambiguous") {
      const top = r.candidates[0]?.score;
      const tied = r.candidates.filter((c) => c.score === top);
      const ranked = rankCandidates(rv, role, tied, 45);
      rv.warn(
        "AMBIGUOUS_NAME",
        `${role} "${name}" matches ${tied.length} nodes equally; name one of: ${ranked.map((c) => c.candidate.qualified).join(", ")}`,
        ranked.map((c) => c.candidate),
      );
      for (const c of ranked.filter((x) => x.candidate.id !== otherId).slice(0, MAX_CANDIDATE_SUGGESTIONS)) {
        rv.suggest(withName(rv.action, role, c.candidate.qualified), `${role} "${name}" is ambiguous; "${c.candidate.qualified}" (${c.candidate.label}): ${c.why.join(", ")}`, c.score);
      }
    } else if (r.status === "not_found") {
      if (unknownIsWarning(role)) rv.warn("UNKNOWN_ENTITY", `${role} "${name}" names no node in the graph`);
      // A replace_node's unknown new name is a rename, said once in reviewReplace.
      else if (role !== "new") rv.reasons.push(`${role} "${name}" is not in the graph: apply creates it`);
      // For an insert a new name is legitimate: only close names are worth a "did you mean".
      const fuzzy = r.candidates.filter((c) => (unknownIsWarning(role) || c.score >= 30) && c.id !== otherId);
      for (const c of rankCandidates(rv, role, fuzzy, 45).slice(0, MAX_CANDIDATE_SUGGESTIONS)) {
        rv.suggest(withName(rv.action, role, c.candidate.qualified), `"${name}" is not in the graph; did you mean "${c.candidate.label}"? ${c.why.join(", ")}`, c.score * 0.8);
      }
    } else {
      const node = rv.node(r);
      if (node) {
        rv.reasons.push(`${role} exists: ${describeNode(graph, node)}`);
        rv.evidence.push({ kind: "node", summary: `${role} "${name}" is node ${describeNode(graph, node)}` });
      }
    }
  }
}

function checkRetrieved(rv: Review, nodes: readonly (GraphNode | null)[]): void {
  const retrieved = rv.ctx.retrieved;
  if (!retrieved) return;
  const touched = nodes.filter((n): n is GraphNode => n !== null && retrieved.has(n.id));
  if (touched.length === 0) {
    rv.warn("OUTSIDE_RETRIEVED", "the action touches none of the nodes of the run's retrieved subgraph");
    return;
  }
  const list = touched.map((n) => `"${n.label}" (${retrieved.get(n.id)} triple${retrieved.get(n.id) === 1 ? "" : "s"})`).join(", ");
  rv.reasons.push("touches the retrieved subgraph");
  rv.evidence.push({ kind: "retrieved", summary: `in the retrieved subgraph: ${list}` });
}

function addPathEvidence(rv: Review, a: GraphNode, b: GraphNode): GraphEdge[] | null {
  const { graph, k } = rv.ctx;
  const path = rv.ctx.path(a.id, b.id);
  if (!path) {
    rv.reasons.push(`no path within ${k} hops`);
    return null;
  }
  const triples = path.map((e) => graph.toTriple(e));
  rv.reasons.push(`path of ${path.length} hop${path.length === 1 ? "" : "s"}`);
  rv.evidence.push({ kind: "path", summary: `path of ${path.length} hop${path.length === 1 ? "" : "s"}: ${triples.map(tripleText).join("; ")}`, path: triples });
  return path;
}

/** Documents behind the exact endpoints, each once, subject's first. */
function endpointDocuments(rv: Review, nodes: readonly (GraphNode | null)[]): CorpusDocument[] {
  const seen = new Set<string>();
  const out: CorpusDocument[] = [];
  for (const n of nodes) {
    if (!n) continue;
    for (const d of rv.ctx.docsOf(n.id)) {
      if (seen.has(d.docId)) continue;
      seen.add(d.docId);
      out.push(d);
    }
  }
  return out;
}

function termsFor(rv: Review, role: Role): MatchTerms {
  return matchTerms({ name: nameOf(rv.action, role), node: rv.node(rv.resolved[role]) });
}

/** Text evidence items for co-mentions; returns those in prose (passages, non-code files). */
function addCoMentions(rv: Review, mentions: readonly CoMention[], what: (m: CoMention) => string): void {
  for (const m of mentions) {
    const where = m.unit.line !== null ? `${docLabel(m.doc)}:${m.unit.line}` : m.doc.docId;
    const title = m.doc.title ? ` (${m.doc.title})` : "";
    const words = m.relationWords.length ? `; relation words: ${m.relationWords.join(", ")}` : "";
    rv.evidence.push({
      kind: "text",
      summary: `${m.code ? "line" : "sentence"} in ${where}${title} ${what(m)}${words}`,
      quote: m.unit.text.trim(),
      source: sourceOf(m.doc, m.unit.line),
      highlights: m.highlights,
    });
  }
}

function addCodeEvidence(rv: Review, check: CodeCheck, label: string): string | null {
  if (check.status !== "confirmed") return null;
  const where = `${docLabel(check.doc)}:${check.hit.line}`;
  const via = check.where === "edge" ? " (at an existing edge's source_location)" : "";
  rv.evidence.push({
    kind: "code",
    summary: `${where}: ${label} — ${check.hit.note}${via}`,
    quote: check.hit.text,
    source: sourceOf(check.doc, check.hit.line),
    highlights: [check.hit.note.split(" ").pop()?.replace(/\($/, "") ?? ""].filter(Boolean),
  });
  return where;
}

// ----- suggestions for relations ---------------------------------------------------------------

function relationStems(relation: string): string[] {
  const words = relationWordsOf(relation);
  return [...new Set((words.length ? words : identifierWords(relation)).map(stem))];
}

/** Closest relations already used between nodes like these, when the proposed one is new to the graph. */
function suggestRelations(rv: Review, subject: GraphNode | null, object: GraphNode | null): void {
  if (rv.action.type !== "insert_edge") return;
  const wanted = rv.action.relation;
  const kind = codeRelationKind(wanted);
  const relations = rv.ctx.relations();
  const want = relationStems(wanted);
  if (want.length === 0 && !kind) return;
  // Only relations that share a word's stem as a substring can score: a cheap filter before
  // stemming 5k relation names per action.
  const options = relationsBetweenSimilar({ index: relations, subject, object }).filter((o) => {
    if (o.similar === 0) return false;
    if (kind && codeRelationKind(o.relation) === kind) return true;
    const lower = o.relation.toLowerCase();
    return want.some((w) => lower.includes(w));
  });
  const maxSimilar = Math.max(1, ...options.map((o) => o.similar));
  const scored = options
    .map((o) => {
      let sim = 0;
      if (kind && codeRelationKind(o.relation) === kind) sim = 1;
      else {
        // Dice coefficient over stemmed content words.
        const have = relations.words(o.relation, relationStems);
        const shared = want.filter((w) => have.includes(w)).length;
        sim = (2 * shared) / Math.max(1, want.length + have.length);
      }
      return { ...o, sim, score: 0.7 * sim + 0.3 * (o.similar / maxSimilar) };
    })
    // Strictly more than one shared word of two: "first president" must not suggest "first published in".
    .filter((o) => o.sim > 0.5)
    // A relation whose edge already exists is no alternative.
    .filter((o) => !(subject && object && subject.id !== object.id && rv.ctx.graph.outEdges(subject.id).some((e) => e.target === object.id && e.relation === o.relation)))
    .sort((a, b) => b.score - a.score || (a.relation < b.relation ? -1 : 1))
    .slice(0, 3);
  for (const o of scored) {
    rv.suggest(
      { ...rv.action, relation: o.relation },
      `"${wanted}" is never used in the graph; "${o.relation}" is (${o.similar} time${o.similar === 1 ? "" : "s"} between nodes like these${o.sim === 1 ? ", same meaning" : ""})`,
      o.score,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// insert_edge

function reviewInsert(rv: Review, index: number): ActionReview {
  const action = rv.action as Extract<RefinementAction, { type: "insert_edge" }>;
  const { graph, k } = rv.ctx;
  checkNames(rv, ["subject", "object"], { unknownIsWarning: () => false, genericObjectRoles: ["subject", "object"] });
  const s = rv.node(rv.resolved.subject);
  const o = rv.node(rv.resolved.object);
  let capMedium: string | null = null;

  if ((s && o && s.id === o.id) || (!s && !o && normalizeLabel(unqualified(action.subject)) === normalizeLabel(unqualified(action.object)))) {
    rv.warn("SELF_LOOP", `subject and object are the same node${s ? ` ${describeNode(graph, s)}` : ""}`);
  }

  const relationKnown = rv.ctx.relations().get(action.relation);
  let pair: GraphEdge[] = [];
  let path: GraphEdge[] | null = null;
  if (s && o && s.id !== o.id) {
    rv.reasons.push("both endpoints exist");
    pair = edgesBetween(graph, s.id, o.id);
    const same = pair.filter((e) => e.source === s.id && e.target === o.id && e.relation === action.relation);
    if (same.length > 0) {
      const e = same[0] as GraphEdge;
      rv.warn("EDGE_EXISTS", `the edge already exists${edgeWhere(e)}: applying this changes nothing`);
      rv.evidence.push({ kind: "edge", summary: `existing edge: ${tripleText(graph.toTriple(e))}${edgeWhere(e)}`, path: [graph.toTriple(e)] });
      capMedium = "the edge already exists, so applying it changes nothing";
    } else {
      // Same relation in other words: another spelling, or a synonym with the same code meaning
      // ("extends" beside graphify's "inherits").
      const kind = codeRelationKind(action.relation);
      const sameMeaning = (e: GraphEdge) =>
        normalizeRelation(e.relation) === normalizeRelation(action.relation) || (kind !== null && codeRelationKind(e.relation) === kind);
      const spelled = pair.filter((e) => e.source === s.id && sameMeaning(e));
      const reverse = pair.filter((e) => e.source === o.id && sameMeaning(e));
      const others = pair.filter((e) => !sameMeaning(e));
      for (const e of [...spelled, ...reverse, ...others]) {
        rv.evidence.push({ kind: "edge", summary: `existing edge between the pair: ${tripleText(graph.toTriple(e))}${edgeWhere(e)}`, path: [graph.toTriple(e)] });
      }
      if (spelled.length > 0) {
        rv.warn("PARALLEL_RELATION", `the pair is already linked by "${spelled[0]?.relation}", the same relation in other words: this would add a near-duplicate edge`);
        capMedium = "a near-duplicate of an existing edge";
      } else if (others.length > 0) {
        const rels = [...new Set(others.map((e) => e.relation))].map((r) => `"${r}"`).join(", ");
        rv.warn("PARALLEL_RELATION", `the pair is already linked by ${rels}; this adds a parallel "${action.relation}" edge`);
      }
      if (reverse.length > 0) rv.reasons.push(`the reverse edge exists (${tripleText(graph.toTriple(reverse[0] as GraphEdge))})`);
    }
    path = addPathEvidence(rv, s, o);
    const usage = relationKnown ? relationUsage({ index: rv.ctx.relations(), relation: action.relation, subject: s, object: o }) : null;
    if (usage) {
      const parts = [`"${usage.relation}" is used ${usage.total} time${usage.total === 1 ? "" : "s"}`];
      if (usage.sameTypes !== null) parts.push(`${usage.sameTypes} between ${s.fileType}→${o.fileType} nodes`);
      if (usage.sameCommunities !== null) parts.push(`${usage.sameCommunities} from community ${s.community} to ${o.community}`);
      parts.push(`the subject already has ${usage.subjectOut}, the object receives ${usage.objectIn}`);
      rv.evidence.push({ kind: "relation_usage", summary: parts.join("; ") });
    }
  }
  if (!relationKnown) {
    rv.reasons.push(`the relation "${action.relation}" is new to the graph`);
    suggestRelations(rv, s, o);
  }
  checkRetrieved(rv, [s, o]);

  // Text: sentences / lines naming both, in the documents behind the existing endpoint(s).
  let proseQuote: CoMention | null = null;
  let codeLine: CoMention | null = null;
  if (s || o) {
    const mentions = findCoMentions({
      documents: endpointDocuments(rv, [s, o]),
      a: termsFor(rv, "subject"),
      b: termsFor(rv, "object"),
      relation: action.relation,
      limit: MAX_TEXT_QUOTES,
    });
    addCoMentions(rv, mentions, () => `mentions both "${unqualified(action.subject)}" and "${unqualified(action.object)}"`);
    proseQuote = mentions.find((m) => !m.code) ?? null;
    codeLine = mentions.find((m) => m.code) ?? null;
    if (proseQuote) rv.reasons.push(`quoted sentence in ${proseQuote.doc.docId}`);
    else if (codeLine) rv.reasons.push(`a line of ${docLabel(codeLine.doc)} names both`);
  }

  // Code: the language-aware check in the subject's source.
  let codeAt: string | null = null;
  if (s && !rv.has("SELF_LOOP")) {
    const check = checkCodeRelation({ documents: rv.ctx.documents, relation: action.relation, subject: s, object: o, objectName: action.object, pairEdges: pair });
    codeAt = addCodeEvidence(rv, check, `${s.label} ${action.relation} ${o?.label ?? unqualified(action.object)}`);
    if (codeAt) rv.reasons.push(`code confirms ${check.status === "confirmed" ? check.kind : action.relation} at ${codeAt}`);
    else if (check.status === "absent") rv.reasons.push(`the code of ${s.label} (${docLabel(check.doc)}:${check.range.start}-${check.range.end}) does not show ${check.kind}`);
  }

  // Different communities with no path: a jump nothing in the graph supports. A quote or the
  // code stating the relation is support of its own, so then it is a reason, not a warning.
  if (s && o && s.id !== o.id && !path && s.community !== null && o.community !== null && s.community !== o.community) {
    const msg = `"${s.label}" (community ${s.community}) and "${o.label}" (community ${o.community}) are in different communities with no path within ${k} hops`;
    if (proseQuote || codeAt) rv.reasons.push(`${msg}, but the source states it`);
    else rv.warn("CROSS_COMMUNITY_NO_PATH", msg);
  }

  // Cascade.
  const blocking = rv.blocking();
  if (blocking.length) return rv.finish(index, "LOW", `warning${blocking.length > 1 ? "s" : ""} ${blocking.join(", ")}`);
  const strong = codeAt ? `the code confirms it (${codeAt})` : proseQuote ? `a sentence in ${proseQuote.doc.docId} mentions both` : null;
  if (s && o && strong) {
    if (capMedium) return rv.finish(index, "MEDIUM", `both endpoints exist and ${strong}, but capped: ${capMedium}`);
    return rv.finish(index, "HIGH", `both endpoints exist and ${strong}`);
  }
  if (s && o) return rv.finish(index, "MEDIUM", capMedium ? `both endpoints exist; ${capMedium}` : "both endpoints exist, without a quote or code that states the relation");
  const quote = strong ?? (codeLine ? `a line of ${docLabel(codeLine.doc)} names both` : null);
  if ((s || o) && quote) return rv.finish(index, "MEDIUM", `one endpoint exists and ${quote}`);
  if (s || o) return rv.finish(index, "LOW", "only one endpoint exists and no text mentions both");
  return rv.finish(index, "LOW", "no evidence: neither endpoint is in the graph");
}

// ---------------------------------------------------------------------------------------------
// delete_edge

function reviewDelete(rv: Review, index: number): ActionReview {
  const action = rv.action as Extract<RefinementAction, { type: "delete_edge" }>;
  const { graph, documents } = rv.ctx;
  checkNames(rv, ["subject", "object"], { unknownIsWarning: () => true, genericObjectRoles: [] });
  const s = rv.node(rv.resolved.subject);
  const o = rv.node(rv.resolved.object);
  checkRetrieved(rv, [s, o]);
  if (!s || !o) {
    const blocking = rv.blocking();
    return rv.finish(index, "LOW", blocking.length ? `warning${blocking.length > 1 ? "s" : ""} ${blocking.join(", ")}` : "the endpoints are not both nodes");
  }

  const pair = edgesBetween(graph, s.id, o.id);
  const targets = pair.filter((e) => e.source === s.id && e.target === o.id && e.relation === action.relation);
  if (targets.length === 0) {
    const rels = pair.map((e) => `${e.source === s.id ? "" : "(reverse) "}"${e.relation}"`);
    rv.warn("DELETE_MISSING", `there is no edge ${s.label} --${action.relation}--> ${o.label} to delete${rels.length ? `; the pair is linked by ${[...new Set(rels)].join(", ")}` : ""}`);
    for (const e of pair) {
      const forward = e.source === s.id;
      const sameRel = normalizeRelation(e.relation) === normalizeRelation(action.relation);
      // The same relation stored under another spelling or the other way round is almost
      // certainly what was meant; a different relation on the pair is only a lead.
      const score = (sameRel ? 0.9 : 0.4) - (forward ? 0 : 0.1);
      rv.suggest(
        { type: "delete_edge", subject: nameOf(action, forward ? "subject" : "object"), relation: e.relation, object: nameOf(action, forward ? "object" : "subject") },
        `the stored edge between the pair is ${tripleText(graph.toTriple(e))}${edgeWhere(e)}`,
        score,
      );
    }
    addPathEvidence(rv, s, o);
    return rv.finish(index, "LOW", `warning${rv.blocking().length > 1 ? "s" : ""} ${rv.blocking().join(", ")}`);
  }

  rv.reasons.push(`the edge exists${targets.length > 1 ? ` (${targets.length} identical copies; all are removed)` : ""}`);
  for (const e of targets) rv.evidence.push({ kind: "edge", summary: `edge to delete: ${tripleText(graph.toTriple(e))}${edgeWhere(e)}`, path: [graph.toTriple(e)] });

  // A copy survives the delete: the same relation spelled differently, or, for a symmetric
  // relation ("married to"), stored the other way. The reverse of "part of" is another claim.
  const sameRelation = pair.filter((e) => !targets.includes(e) && normalizeRelation(e.relation) === normalizeRelation(action.relation));
  const copies = sameRelation.filter((e) => e.source === s.id || isSymmetric(action.relation));
  for (const e of copies) rv.evidence.push({ kind: "edge", summary: `duplicate kept: ${tripleText(graph.toTriple(e))}${edgeWhere(e)}`, path: [graph.toTriple(e)] });
  if (copies.length) rv.reasons.push("a duplicate of the edge remains, so no fact is lost");
  const reversed = sameRelation.find((e) => !copies.includes(e));
  if (reversed) rv.reasons.push(`the reverse edge exists too (${tripleText(graph.toTriple(reversed))}): at most one of them holds`);

  // Does the edge's own source state it?
  let contradicted: string | null = null;
  let supported: string | null = null;
  const sTerms = termsFor(rv, "subject");
  const oTerms = termsFor(rv, "object");
  for (const e of targets) {
    for (const docId of documentIdsOf(e)) {
      const doc = documents.get(docId);
      if (!doc) continue;
      const codeKind = codeRelationKind(action.relation);
      if (doc.kind === "file" && codeKind) {
        const check = checkCodeRelation({ documents, relation: action.relation, subject: s, object: o, objectName: action.object, pairEdges: [e] });
        if (check.status === "confirmed") supported ??= addCodeEvidence(rv, check, `the code shows ${s.label} ${action.relation} ${o.label}`);
        else if (check.status === "absent") {
          contradicted ??= `the code of ${s.label} (${docLabel(check.doc)}:${check.range.start}-${check.range.end}) does not show ${check.kind} ${o.label}`;
        }
        continue;
      }
      if (doc.kind === "passage" || doc.kind === "file") {
        const missing = [sTerms, oTerms].filter((t) => documentMentions(doc, t) === false).map((t) => t.display);
        if (missing.length) {
          contradicted ??= `its source ${doc.docId} never mentions ${missing.map((m) => `"${m}"`).join(" or ")}`;
          continue;
        }
        const mentions = findCoMentions({ documents: [doc], a: sTerms, b: oTerms, relation: action.relation, limit: 1 }).filter((m) => m.relationWords.length > 0);
        if (mentions.length) {
          addCoMentions(rv, mentions, () => "states the edge being deleted");
          supported ??= `a sentence in ${doc.docId} states it`;
        }
      }
    }
  }
  if (contradicted) rv.reasons.push(contradicted);

  const blocking = rv.blocking();
  if (blocking.length) return rv.finish(index, "LOW", `warning${blocking.length > 1 ? "s" : ""} ${blocking.join(", ")}`);
  // A surviving duplicate first: then no fact is lost, whatever the source says.
  if (copies.length) return rv.finish(index, "HIGH", "the edge exists and a duplicate remains after the delete");
  // Text matches both directions of "part of" alike: with the reverse edge present it cannot
  // tell which one the source states, so the reviewer decides.
  if (supported && reversed) return rv.finish(index, "MEDIUM", `the source names the pair (${supported}) but the reverse edge exists too: check which direction it states`);
  if (supported) return rv.finish(index, "LOW", `the edge's own source supports it (${supported}): deleting it removes a stated fact`);
  if (contradicted) return rv.finish(index, "HIGH", `the edge exists and its source contradicts it: ${contradicted}`);
  return rv.finish(index, "MEDIUM", "the edge exists; its source neither confirms nor contradicts it");
}

// ---------------------------------------------------------------------------------------------
// replace_node

/** Names compared without case, accents, punctuation, spacing or `()`: "Person - centered" = "person-centered". */
function canonical(name: string): string {
  // `_` stays: `_split` and `split` are different identifiers in code.
  return stripCallSuffix(normalizeLabel(unqualified(name))).replace(/[^\p{L}\p{N}_]+/gu, "");
}

function wordSet(name: string): Set<string> {
  return new Set(normalizeLabel(unqualified(name)).match(/[\p{L}\p{N}]+/gu) ?? []);
}

function reviewReplace(rv: Review, index: number): ActionReview {
  const action = rv.action as Extract<RefinementAction, { type: "replace_node" }>;
  const { graph } = rv.ctx;
  checkNames(rv, ["old", "new"], { unknownIsWarning: (role) => role === "old", genericObjectRoles: ["new"] });
  const oldNode = rv.node(rv.resolved.old);
  const newNode = rv.node(rv.resolved.new);

  if (oldNode && newNode) {
    if (oldNode.id === newNode.id) {
      rv.warn("SELF_LOOP", `"${action.old}" and "${action.new}" are the same node ${describeNode(graph, oldNode)}: nothing to replace`);
    } else {
      const rewired = graph.incidentEdges(oldNode.id);
      const between = rewired.filter((e) => e.source === newNode.id || e.target === newNode.id).length;
      const newKeys = new Set(graph.incidentEdges(newNode.id).map((e) => `${e.source}\u0000${e.relation}\u0000${e.target}`));
      const dup = rewired.filter((e) => {
        const src = e.source === oldNode.id ? newNode.id : e.source;
        const tgt = e.target === oldNode.id ? newNode.id : e.target;
        return newKeys.has(`${src}\u0000${e.relation}\u0000${tgt}`);
      }).length;
      const extra = [between ? `${between} between the two become self-loops` : "", dup ? `${dup} duplicate edges "${newNode.label}" already has` : ""].filter(Boolean);
      rv.warn(
        "MERGE_EXISTING",
        `"${action.new}" is an existing node: this is a merge. ${describeNode(graph, newNode)} survives; ${describeNode(graph, oldNode)} is removed and its ${rewired.length} edge${rewired.length === 1 ? "" : "s"} are rewired onto the survivor${extra.length ? ` (${extra.join("; ")})` : ""}`,
      );
      addPathEvidence(rv, oldNode, newNode);
    }
  } else if (oldNode && rv.resolved.new?.status === "not_found") {
    rv.reasons.push(`"${action.new}" is not a node: "${oldNode.label}" is renamed to it (a relabel, not a merge)`);
  }
  checkRetrieved(rv, [oldNode, newNode]);

  // Evidence that the names are one thing.
  const equal = oldNode !== null && canonical(oldNode.label) === canonical(newNode?.label ?? action.new);
  if (equal) rv.reasons.push("normalised labels are equal");
  const a = wordSet(oldNode?.label ?? action.old);
  const b = wordSet(newNode?.label ?? action.new);
  const contained = !equal && a.size > 0 && b.size > 0 && ([...a].every((w) => b.has(w)) || [...b].every((w) => a.has(w)));
  if (contained) rv.reasons.push("one name's words are all in the other");
  let alias: CoMention | null = null;
  let together: CoMention | null = null;
  if (oldNode && !rv.has("SELF_LOOP")) {
    const mentions = findCoMentions({ documents: endpointDocuments(rv, [oldNode, newNode]), a: termsFor(rv, "old"), b: termsFor(rv, "new"), limit: 20 });
    alias = mentions.find(isAliasStatement) ?? null;
    together = mentions[0] ?? null;
    const shown = alias ? [alias, ...mentions.filter((m) => m !== alias)].slice(0, MAX_TEXT_QUOTES) : mentions.slice(0, MAX_TEXT_QUOTES);
    addCoMentions(rv, shown, (m) => (m === alias ? "states that the two names are one thing" : `mentions both "${unqualified(action.old)}" and "${unqualified(action.new)}"`));
    if (alias) rv.reasons.push(`alias statement in ${alias.doc.docId}${alias.unit.line !== null ? `:${alias.unit.line}` : ""}`);
    else if (together) rv.reasons.push(`both names appear in ${together.doc.docId}`);
  }

  const blocking = rv.blocking();
  if (blocking.length) return rv.finish(index, "LOW", `warning${blocking.length > 1 ? "s" : ""} ${blocking.join(", ")}`);
  if (!oldNode) return rv.finish(index, "LOW", `"${action.old}" is not a node`);
  if (equal) return rv.finish(index, "HIGH", "the old node exists and the normalised labels are equal");
  if (alias) return rv.finish(index, "HIGH", `the old node exists and ${alias.doc.docId} states the two names are one thing`);
  if (together || contained) {
    return rv.finish(index, "MEDIUM", `the old node exists and ${together ? `both names appear in ${together.doc.docId}` : "one name contains the other"}, without an alias statement`);
  }
  return rv.finish(index, "LOW", "nothing shows the two names refer to the same thing");
}

// ---------------------------------------------------------------------------------------------

const PLACEHOLDER: RefinementAction = { type: "insert_edge", subject: "", relation: "", object: "" };

/**
 * Review every action (in order; `index` is the position in `actions`). Never throws for odd
 * names or graphs: an entry the parser could not read comes back LOW with UNPARSEABLE, its
 * `text` the raw text and its `action` an empty placeholder that must not be applied.
 */
export function reviewActions({
  graph,
  actions,
  documents,
  retrieved,
  k = 3,
  resolve = createNameResolver({ graph }),
}: ReviewActionsOptions): ActionReview[] {
  const ctx = createContext({ graph, documents, retrieved, k, resolve });
  return actions.map((item, index): ActionReview => {
    if (isUnparseable(item)) {
      return {
        index,
        action: PLACEHOLDER,
        text: item.raw,
        confidence: "LOW",
        reasons: [`LOW: the action does not parse (${item.error})`],
        evidence: [],
        warnings: [{ code: "UNPARSEABLE", message: item.error }],
        suggestions: [],
        resolved: {},
      };
    }
    const rv = new Review(ctx, item, resolveActionNames({ graph, action: item, resolve: ctx.resolve }));
    if (item.type === "insert_edge") return reviewInsert(rv, index);
    if (item.type === "delete_edge") return reviewDelete(rv, index);
    return reviewReplace(rv, index);
  });
}
