/**
 * Heuristic refinement from source code: what a code graph's own files state.
 *
 * Why: a graphify code graph is built from source files, and those files state facts in code,
 * not prose: `class Client(BaseClient):`, `self._pool = ConnectionPool()`. The prose rule of
 * refine.ts needs two names and a connecting phrase in one clause, which code never has, so a
 * code graph with a missing edge got no proposal at all. These rules read the code with the
 * same language-aware checks the review uses (lib/review/code-evidence.ts), so a proposal rests
 * on a line of code that is shown with it:
 *
 * (e) insert_edge: for a question entity E that is a code symbol, and another code symbol X
 *     that is the other question entity, or — when the question asks for a relation — is named
 *     in the source file of E (E as subject) or whose source file names E (E as object): when
 *     the graph has no edge between the two and
 *     the subject's body shows the relation (`checkCodeRelation` confirmed). Relations tried:
 *     the graph's own relations with a code check (inherits, calls, uses, imports, …), only
 *     those the question asks for when it asks for one, and of those the ones the graph uses
 *     between endpoints of the same shape (callable / class-like / file), so the insert is
 *     named as its neighbours are; the most specific confirmed kind wins (a class line naming
 *     a base is inheritance before it is a use).
 * (g) insert_edge from a docstring: a question entity's own docstring (Python) or doc comment
 *     (the `/**` block above a TS/JS definition) is prose about it; a sentence there naming another
 *     code symbol the graph does not link to it (another question entity), with a short relation phrase before the name
 *     (`connectingPhrase`: "The async variant of HTTPTransport." → `async_variant_of`), is a
 *     statement about the pair. Weaker than code (a docstring can be out of date): the review
 *     checks it against the code.
 * (f) delete_edge: a retrieved edge at a question entity, of a relation the question asks for,
 *     whose subject's body was found and read and does not show it (`absent`): the graph claims
 *     what its own source does not say.
 * Nothing is proposed for a node whose source file is not among the documents: unread is not
 * unstated.
 */
import { DerivedCache, type GraphDelta } from "../../graph/derived-cache";
import type { GraphEdge, GraphNode, KnowledgeGraph, Triple } from "../../graph/model";
import type { CorpusDocument } from "../../import/corpus";
import type { RefinementAction } from "../../loop/types";
import {
  checkCodeRelation,
  codeLanguage,
  type CodeCheck,
  codeRelationKind,
  type CodeRelationKind,
  findCodeDefinition,
  isFileNode,
} from "../../review/code-evidence";
import { bareIdentifier } from "../../review/text-evidence";
import { getHeuristicIndex, nameFor } from "./graph-index";
import { connectingPhrase, formatRelation } from "./text";

export interface CodeEditsOptions {
  graph: KnowledgeGraph;
  /** Nodes the question names (strong mentions). */
  questionNodes: readonly string[];
  /** Relations the question's words ask for (the judge's families), empty when none. */
  askedRelations: ReadonlySet<string>;
  triples: readonly Triple[];
  documents: readonly CorpusDocument[];
  maxInserts: number;
  maxDeletes: number;
}

export interface CodeEdit {
  action: RefinementAction;
  note: string;
}

/** Candidate nodes checked per question entity and direction: each check reads one body. */
const MAX_CANDIDATES = 200;
/** Kinds proposed as inserts: `contains` / `method` are the syntax tree itself, which the extractor does not miss. */
const INSERT_KINDS: ReadonlySet<CodeRelationKind> = new Set(["inherits", "calls", "uses", "imports"]);
/** More specific kinds first when the graph's usage does not decide. */
const KIND_ORDER: readonly CodeRelationKind[] = ["inherits", "imports", "calls", "uses", "contains"];

type Shape = "file" | "callable" | "symbol";

function shapeOf(node: GraphNode): Shape {
  if (isFileNode(node)) return "file";
  return /\(\)$/.test(node.label) || node.label.startsWith(".") ? "callable" : "symbol";
}

/** A node that names one code symbol: an identifier label, with a readable source of a known language. */
function isCodeSymbol(node: GraphNode, docs: ReadonlyMap<string, CorpusDocument>): boolean {
  if (!node.sourceFile || isFileNode(node)) return false;
  const doc = docs.get(node.sourceFile);
  if (!doc || !codeLanguage(doc.path ?? doc.docId)) return false;
  // `.close()` is a method of some class: the name alone does not say which one is meant.
  if (node.label.startsWith(".")) return false;
  return /^[A-Za-z_$][\w$]*$/.test(bareIdentifier(node.label));
}

function identifierIn(text: string, ident: string): boolean {
  return new RegExp(`(?<![\\w$])${ident.replace(/[$]/g, "\\$")}(?![\\w$])`).test(text);
}

interface GraphCodeStats {
  /** `relation` → count, per "subjectShape>objectShape". */
  byShape: Map<string, Map<string, number>>;
  relations: Map<string, { kind: CodeRelationKind; count: number }>;
}

/** Per graph version, advanced with it (lib/graph/derived-cache.ts): counts patched by the change. */
const statsCache = new DerivedCache<GraphCodeStats>({ build: buildCodeStats, advance: advanceCodeStats });

function codeStats(graph: KnowledgeGraph): GraphCodeStats {
  return statsCache.get(graph);
}

/** The code statistics of a graph version (tests compare versions). */
export function graphCodeStats(graph: KnowledgeGraph): Readonly<GraphCodeStats> {
  return codeStats(graph);
}

/** Count a code edge in (+1) or out (-1) of `stats`, copying each map and entry it changes once (`copied`). */
function countCodeEdge(stats: GraphCodeStats, graph: KnowledgeGraph, e: GraphEdge, by: 1 | -1, copied?: Set<unknown>): void {
  const kind = codeRelationKind(e.relation);
  if (!kind) return;
  const old = stats.relations.get(e.relation);
  const count = (old?.count ?? 0) + by;
  if (count <= 0) stats.relations.delete(e.relation);
  else if (old && !copied) old.count = count;
  else stats.relations.set(e.relation, { kind, count });
  const s = graph.getNode(e.source);
  const o = graph.getNode(e.target);
  if (!s || !o) return;
  const key = `${shapeOf(s)}>${shapeOf(o)}`;
  let m = stats.byShape.get(key);
  if (!m || (copied && !copied.has(m))) {
    m = new Map(m);
    copied?.add(m);
    stats.byShape.set(key, m);
  }
  const n = (m.get(e.relation) ?? 0) + by;
  if (n > 0) m.set(e.relation, n);
  else m.delete(e.relation);
  if (m.size === 0) stats.byShape.delete(key);
}

function buildCodeStats(graph: KnowledgeGraph): GraphCodeStats {
  const stats: GraphCodeStats = { byShape: new Map(), relations: new Map() };
  for (const e of graph.edges.values()) countCodeEdge(stats, graph, e, 1);
  return stats;
}

/** The counts of `graph` from those of `delta.previous`: changed edges out and in, and the edges of a node whose shape changed. */
function advanceCodeStats(old: GraphCodeStats, delta: GraphDelta, graph: KnowledgeGraph): GraphCodeStats {
  const stats: GraphCodeStats = { byShape: new Map(old.byShape), relations: new Map(old.relations) };
  const copied = new Set<unknown>();
  const { previous } = delta;
  for (const key of delta.edges) {
    const before = previous.edges.get(key);
    const after = graph.edges.get(key);
    if (before) countCodeEdge(stats, previous, before, -1, copied);
    if (after) countCodeEdge(stats, graph, after, 1, copied);
  }
  const recounted = new Set<string>();
  for (const id of delta.nodes) {
    const before = previous.getNode(id);
    const after = graph.getNode(id);
    if (!before || !after || shapeOf(before) === shapeOf(after)) continue;
    // Its other edges, unchanged themselves, now join nodes of other shapes.
    for (const key of [...graph.outEdgeKeys(id), ...graph.inEdgeKeys(id)]) {
      if (delta.edges.has(key) || recounted.has(key)) continue;
      recounted.add(key);
      const e = graph.edges.get(key);
      if (!e) continue;
      countCodeEdge(stats, previous, e, -1, copied);
      countCodeEdge(stats, graph, e, 1, copied);
    }
  }
  return stats;
}

function isGuess(confidence: unknown): boolean {
  return typeof confidence === "string" && /^(inferred|ambiguous)$/i.test(confidence);
}

function directlyLinked(graph: KnowledgeGraph, a: string, b: string): boolean {
  const [small, other] = graph.degree(a) <= graph.degree(b) ? [a, b] : [b, a];
  for (const e of graph.incidentEdges(small)) if (e.source === other || e.target === other) return true;
  return false;
}

function describe(check: Extract<CodeCheck, { status: "confirmed" }>): string {
  return `${check.doc.path ?? check.doc.docId}:${check.hit.line} \`${check.hit.text.slice(0, 100)}\` (${check.hit.note})`;
}

export function planCodeEdits(options: CodeEditsOptions): CodeEdit[] {
  const { graph, documents } = options;
  if (documents.length === 0 || options.questionNodes.length === 0) return [];
  const docs = new Map(documents.map((d) => [d.docId, d]));
  const stats = codeStats(graph);
  // The relations tried: the graph's code relations; only those asked for when the question asks.
  const all = [...stats.relations.entries()].filter(([, r]) => INSERT_KINDS.has(r.kind));
  const asked = all.filter(([rel]) => options.askedRelations.has(rel));
  const relations = (asked.length > 0 ? asked : all).map(([rel, r]) => ({ relation: rel, kind: r.kind, count: r.count }));
  if (relations.length === 0) return [];

  const questionNodes = [...new Set(options.questionNodes)]
    .map((id) => graph.getNode(id))
    .filter((n): n is GraphNode => n !== undefined && isCodeSymbol(n, docs));
  const symbols = [...graph.nodes.values()].filter((n) => isCodeSymbol(n, docs));
  const byDoc = new Map<string, GraphNode[]>();
  for (const n of symbols) {
    const list = byDoc.get(n.sourceFile as string) ?? [];
    list.push(n);
    byDoc.set(n.sourceFile as string, list);
  }

  const edits: CodeEdit[] = [];
  const seenPairs = new Set<string>();
  // Tier 0: between question entities (what the question asks); 1: a question entity and another node.
  const inserts: (CodeEdit & { tier: number })[] = [];
  let tier = 0;
  const propose = (subject: GraphNode, object: GraphNode) => {
    if (subject.id === object.id) return;
    const pairKey = [subject.id, object.id].sort().join("\u0000");
    if (seenPairs.has(pairKey)) return;
    // Any edge between them already says how they relate: a second one would be a variant.
    if (directlyLinked(graph, subject.id, object.id)) return;
    // The relations the graph uses between endpoints of these shapes, the most specific first.
    const shape = stats.byShape.get(`${shapeOf(subject)}>${shapeOf(object)}`);
    const fitting = relations.filter((r) => (shape?.get(r.relation) ?? 0) > 0);
    const ranked = (fitting.length > 0 ? fitting : relations).sort(
      (a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || (shape?.get(b.relation) ?? 0) - (shape?.get(a.relation) ?? 0) || b.count - a.count,
    );
    for (const r of ranked) {
      const check = checkCodeRelation({ documents: docs, relation: r.relation, subject, object, objectName: object.label });
      if (check.status !== "confirmed") continue;
      const s = nameFor(graph, subject.id);
      const o = nameFor(graph, object.id);
      if (!s || !o) return;
      seenPairs.add(pairKey);
      inserts.push({
        tier,
        action: { type: "insert_edge", subject: s, relation: r.relation, object: o },
        note: `the code states it: ${describe(check)}; the graph has no edge between them`,
      });
      return;
    }
  };

  const questionIds = new Set(questionNodes.map((n) => n.id));
  // Pairs of question entities first: the question asks how they relate.
  for (const a of questionNodes) for (const b of questionNodes) if (a.id !== b.id) propose(a, b);
  tier = 1;
  // A question entity and a node the question does not name: only for the relation it asks for
  // ("What does BearerAuth inherit from?"), or every use in a class body would be proposed.
  for (const e of asked.length > 0 ? questionNodes : []) {
    const ident = bareIdentifier(e.label);
    const own = docs.get(e.sourceFile as string);
    // E as subject: symbols its own file names (the body check then decides).
    if (own) {
      const named = symbols.filter((x) => !questionIds.has(x.id) && identifierIn(own.text, bareIdentifier(x.label))).slice(0, MAX_CANDIDATES);
      for (const x of named) propose(e, x);
    }
    // E as object: symbols defined in files that name E.
    const naming = documents.filter((d) => identifierIn(d.text, ident)).flatMap((d) => byDoc.get(d.docId) ?? []);
    for (const x of naming.filter((n) => !questionIds.has(n.id)).slice(0, MAX_CANDIDATES)) propose(x, e);
  }
  for (const e of questionNodes) {
    for (const edit of docstringInserts(graph, e, docs, symbols)) {
      const pairKey = [edit.pair[0], edit.pair[1]].sort().join("\u0000");
      if (seenPairs.has(pairKey)) continue;
      seenPairs.add(pairKey);
      if (questionIds.has(edit.pair[1])) inserts.push({ ...edit, tier: 0 });
    }
  }
  inserts.sort((a, b) => a.tier - b.tier);
  edits.push(...inserts.slice(0, Math.max(0, options.maxInserts)).map(({ action, note }) => ({ action, note })));

  // (f) Retrieved edges at a question entity that the subject's own code does not show.
  if (options.maxDeletes > 0) {
    const deletes: CodeEdit[] = [];
    const seen = new Set<string>();
    const asksFor = (relation: string) => options.askedRelations.size === 0 || options.askedRelations.has(relation);
    for (const t of options.triples) {
      if (!asksFor(t.relation) || !codeRelationKind(t.relation)) continue;
      if (!questionIds.has(t.subject_id) && !questionIds.has(t.object_id)) continue;
      const key = `${t.subject_id}\u0000${t.relation}\u0000${t.object_id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const subject = graph.getNode(t.subject_id);
      const object = graph.getNode(t.object_id);
      if (!subject || !object || !isCodeSymbol(subject, docs)) continue;
      const pairEdges = graph.outEdges(subject.id).filter((e) => e.target === object.id && e.relation === t.relation);
      // An edge its extractor marks as a guess (graphify INFERRED / AMBIGUOUS) claims no line of code.
      if (pairEdges.length === 0 || pairEdges.some((e) => isGuess(e.attrs.confidence))) continue;
      const check = checkCodeRelation({ documents: docs, relation: t.relation, subject, object, objectName: object.label, pairEdges });
      if (check.status !== "absent") continue;
      const s = nameFor(graph, subject.id);
      const o = nameFor(graph, object.id);
      if (!s || !o) continue;
      deletes.push({
        action: { type: "delete_edge", subject: s, relation: t.relation, object: o },
        note: `the code does not state it: ${check.doc.path ?? check.doc.docId} lines ${check.range.start}-${check.range.end} (the body of ${subject.label}) show no "${check.kind}" of ${object.label}`,
      });
      if (deletes.length >= options.maxDeletes) break;
    }
    edits.unshift(...deletes);
  }
  return edits;
}

/** The docstring (Python) or doc comment (TS/JS) of a definition: its lines, 1-based first line. */
function docComment(lines: readonly string[], defLine: number, python: boolean): { first: number; text: string } | null {
  if (python) {
    let i = defLine - 1;
    // The header ends at the line closing with `:` (multi-line signatures).
    for (let k = 0; k < 10 && i < lines.length && !/:\s*(#.*)?$/.test(lines[i] ?? ""); k++) i++;
    i++;
    while (i < lines.length && (lines[i] ?? "").trim() === "") i++;
    const open = /^\s*[rRuU]?("""|''')/.exec(lines[i] ?? "");
    if (!open) return null;
    const quote = open[1] as string;
    const first = i + 1;
    let text = (lines[i] ?? "").slice(open[0].length);
    while (!text.includes(quote) && i + 1 < lines.length && i - first < 40) text += `\n${lines[++i] ?? ""}`;
    return { first, text: text.slice(0, text.includes(quote) ? text.indexOf(quote) : text.length) };
  }
  let end = defLine - 2;
  while (end >= 0 && (lines[end] ?? "").trim() === "") end--;
  if (!/\*\/\s*$/.test(lines[end] ?? "")) return null;
  let start = end;
  while (start > 0 && !/\/\*\*/.test(lines[start] ?? "") && end - start < 40) start--;
  if (!/\/\*\*/.test(lines[start] ?? "")) return null;
  const text = lines
    .slice(start, end + 1)
    .map((l) => l.replace(/^\s*\/?\*+\/?/, "").replace(/\*\/\s*$/, ""))
    .join("\n");
  return { first: start + 1, text };
}

function docstringInserts(
  graph: KnowledgeGraph,
  e: GraphNode,
  docs: ReadonlyMap<string, CorpusDocument>,
  symbols: readonly GraphNode[],
): (CodeEdit & { pair: [string, string] })[] {
  const def = findCodeDefinition({ documents: docs, node: e });
  if (!def) return [];
  const language = codeLanguage(def.doc.path ?? def.doc.docId);
  const lines = def.doc.text.split(/\r?\n/);
  const comment = docComment(lines, def.line, language === "python");
  if (!comment) return [];
  const style = getHeuristicIndex(graph).relationStyle;
  const out: (CodeEdit & { pair: [string, string] })[] = [];
  const subject = nameFor(graph, e.id);
  if (!subject) return [];
  for (const sentence of comment.text.split(/(?<=[.!?])\s+|\n\s*\n/)) {
    const flat = sentence.replace(/\s+/g, " ").trim();
    if (!flat) continue;
    for (const x of symbols) {
      if (x.id === e.id || directlyLinked(graph, e.id, x.id)) continue;
      const ident = bareIdentifier(x.label);
      const at = new RegExp(`(?<![\\w$])${ident.replace(/[$]/g, "\\$")}(?![\\w$])`).exec(flat);
      if (!at) continue;
      // The phrase runs from the sentence's start: the docstring's subject is its definition.
      const before = flat.slice(0, at.index);
      const words = connectingPhrase(before.charAt(0).toLowerCase() + before.slice(1));
      const object = nameFor(graph, x.id);
      if (!words || !object) continue;
      out.push({
        pair: [e.id, x.id],
        action: { type: "insert_edge", subject, relation: formatRelation(words, style), object },
        note: `the docstring of ${e.label} states it: ${def.doc.path ?? def.doc.docId}:${comment.first} "${flat.slice(0, 120)}"; the graph has no edge between them`,
      });
    }
  }
  return out;
}
