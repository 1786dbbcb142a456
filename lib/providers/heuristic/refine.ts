/**
 * Heuristic refinement: edits backed by evidence, never invented.
 * (a) Corpus evidence → insert_edge. In the given documents (or the original text when there
 *     are none), a question entity (or a question phrase the graph lacks) and a second name
 *     within one short clause (`connectingPhrase`, at most ~90 characters apart):
 *     - another question entity that the retrieved triples do not connect to it, or
 *     - a graph node named there (a capitalised or multi-word name; one with digits only when
 *       the question asks for a date or number) that the question entity relates to: ranked
 *       higher when the connecting phrase matches the question's relation words or the node is
 *       among the retrieved triples; with neither, only when the question entity comes first
 *       (the passage states something about it).
 *     The two mentions must be neighbours (no other name between them).
 *     The relation is the words between the two mentions trimmed to a short verb phrase, in
 *     the graph's relation style; the subject is the mention that comes first. Pairs already
 *     joined by an edge are skipped, and so is a mention that is only part of a longer name.
 * (b) Near-duplicate nodes among the question entities and retrieved endpoints that are
 *     plausibly one thing (`judgeMerge`, merge-evidence.ts: no different kinds or years, and
 *     for anything but the same name, an alias statement or a shared neighbour) →
 *     replace_node(duplicate, canonical), canonical = the higher-degree node; at most three,
 *     those touching a question entity first; other pairs only when both labels are names.
 * (c) Exact duplicate edges behind the retrieved triples → one delete_edge per group, which
 *     removes the extra copies and keeps one (the fact stays).
 * (d) A conflicting value of a one-valued relation (two birth dates) → delete_edge, only when
 *     another value is stated and no sentence of any passage of any copy of this edge states it
 *     (`planConflictDeletes`). Nothing else is deleted. Names are ones `resolveName` maps back to the intended node (label,
 * else `file::label`, else id); an action whose node has no such name is dropped.
 * (e)–(g) Code graphs: inserts the source code (or a definition's docstring) states, and deletes
 *     of extracted edges the code contradicts (`planCodeEdits`, code-evidence-edits.ts).
 * Budget (maxActions): code inserts, inserts between question entities, merges, deletes, other inserts.
 * Emitted order: deletes, merges, inserts (inserts already name the merge survivors).
 */
import type { KnowledgeGraph, Triple } from "../../graph/model";
import { type CorpusDocument, documentIdsOf } from "../../import/corpus";
import type { RefinementAction } from "../../loop/types";
import { documentMentions, findStatements, matchTerms, proseKey } from "../../review/text-evidence";
import { type DuplicatePair, findDuplicateEdges, findDuplicatePairs, isFunctionalRelation } from "./abduce";
import { planCodeEdits } from "./code-evidence-edits";
import { getHeuristicIndex, type HeuristicIndex, nameFor } from "./graph-index";
import { askedRelations } from "./judge";
import { findQuestionEntities, type QuestionEntities } from "./question-entities";
import {
  connectingPhrase,
  formatRelation,
  isStopword,
  MAX_BETWEEN_CHARS,
  matchedStems,
  mayBeVerb,
  questionStems,
  startsSentence,
  type WordToken,
  wordTokens,
} from "./text";

export interface RefinementOptions {
  graph: KnowledgeGraph;
  question: string;
  triples: readonly Triple[];
  documents: readonly CorpusDocument[];
  originalText?: string;
  maxActions: number;
  /** Most insert_edge actions proposed (default 3). */
  maxInserts?: number;
}

interface Source {
  text: string;
  tokens: WordToken[];
}

const sourceCache = new WeakMap<CorpusDocument, Source>();

function sourceOf(doc: CorpusDocument): Source {
  let s = sourceCache.get(doc);
  if (!s || s.text !== doc.text) sourceCache.set(doc, (s = { text: doc.text, tokens: wordTokens(doc.text) }));
  return s;
}

interface Anchor {
  /** Node of a question entity; null for a question phrase the graph lacks. */
  nodeId: string | null;
  keys: string[][];
  questionEntity: boolean;
  /** A capitalised name matches only capitalised text: "Diocese" is not every "diocese". */
  capitalised: boolean;
}

interface Span {
  i: number;
  n: number;
}

interface Mention {
  id: string | null;
  span: Span;
  anchor: Anchor | null;
}

interface Proposal {
  subject: string;
  object: string;
  /** Node ids (or names of new nodes), for deduplication. */
  pair: [string, string];
  relation: string;
  score: number;
  order: number;
}

const WINDOW_TOKENS = 24;
/** Occurrences of one question entity examined per call, over all texts, in document order. */
const MAX_HITS_PER_ANCHOR = 50;
const MAX_MERGES = 3;
/** Score of an insert between two question entities; a phrase match adds 2, a retrieved node 1. */
const QUESTION_PAIR_SCORE = 4;
const WANTS_NUMBER = /\b(when|year|years|date|dates|how many|how much|population|number)\b/i;

function matchesAt(tokens: readonly WordToken[], i: number, key: readonly string[]): boolean {
  for (let k = 0; k < key.length; k++) if (tokens[i + k]?.norm !== key[k]) return false;
  return key.length > 0;
}

function directlyLinked(graph: KnowledgeGraph, a: string, b: string): boolean {
  const [small, other] = graph.degree(a) <= graph.degree(b) ? [a, b] : [b, a];
  for (const e of graph.incidentEdges(small)) if (e.source === other || e.target === other) return true;
  return false;
}

function runKey(tokens: readonly WordToken[], i: number, n: number): string {
  let key = "";
  for (let k = i; k < i + n; k++) key += (k === i ? "" : " ") + (tokens[k]?.norm ?? "");
  return key;
}

/** Whether a longer node name in the text covers the span ("British" inside "British Empire"). */
function insideLongerName(index: HeuristicIndex, tokens: readonly WordToken[], span: Span): boolean {
  for (let s = Math.max(0, span.i - index.maxKeyWords + 1); s <= span.i; s++) {
    const most = index.maxWordsFrom.get(tokens[s]?.norm ?? "") ?? 0;
    for (let n = span.i + span.n - s; s + n <= tokens.length && n <= most; n++) {
      if (n > span.n && index.byKey.has(runKey(tokens, s, n))) return true;
    }
  }
  return false;
}

/** Graph nodes named in `tokens[lo, hi)` outside `taken`: longest first, names only. */
function namesIn(index: HeuristicIndex, graph: KnowledgeGraph, source: Source, lo: number, hi: number, taken: Set<number>, allowDigits: boolean): Mention[] {
  const { text, tokens } = source;
  const found: { i: number; n: number; ids: string[] }[] = [];
  for (let i = lo; i < hi; i++) {
    for (let n = Math.min(index.maxWordsFrom.get(tokens[i]?.norm ?? "") ?? 0, hi - i); n >= 1; n--) {
      const ids = index.byKey.get(runKey(tokens, i, n));
      if (!ids || tokens.slice(i, i + n).every((t) => isStopword(t.norm))) continue;
      found.push({ i, n, ids });
      break;
    }
  }
  found.sort((a, b) => b.n - a.n || a.i - b.i);
  const out: Mention[] = [];
  for (const f of found) {
    const run = tokens.slice(f.i, f.i + f.n);
    if (run.some((_, k) => taken.has(f.i + k))) continue;
    if (!isName(text, run) || isModifier(source, f.i + f.n)) continue;
    if (!allowDigits && run.some((t) => /\p{N}/u.test(t.raw))) continue;
    for (let k = f.i; k < f.i + f.n; k++) taken.add(k);
    const id = [...f.ids].sort((a, b) => graph.degree(b) - graph.degree(a) || (a < b ? -1 : 1))[0];
    if (id !== undefined) out.push({ id, span: { i: f.i, n: f.n }, anchor: null });
  }
  return out;
}

/**
 * Whether a run of words reads as a name: most of its words (ignoring stopwords and single
 * letters) capitalised or numbers, and a single word not just capitalised as a sentence's first.
 */
function isName(text: string, run: readonly WordToken[]): boolean {
  const marked = (t: WordToken) => /^[\p{Lu}\p{N}]/u.test(t.raw);
  const first = run[0];
  if (!first) return false;
  if (run.length === 1) return first.norm.length > 1 && marked(first) && (/^\p{N}/u.test(first.raw) || !startsSentence(text, first.start));
  const content = run.filter((t) => t.norm.length > 1 && !isStopword(t.norm));
  return content.length > 0 && 2 * content.filter(marked).length >= content.length;
}

/**
 * A name directly followed by a lower-case noun modifies it ("Norwegian playwright", "British
 * dependent territory"); before a verb it is a subject ("Publix operates").
 */
function isModifier(source: Source, next: number): boolean {
  const after = source.tokens[next];
  const last = source.tokens[next - 1];
  if (!after || !last || !/^\s+$/.test(source.text.slice(last.end, after.start))) return false;
  return /^\p{Ll}/u.test(after.raw) && !isStopword(after.norm) && !mayBeVerb(after.norm);
}

function retrievedGraph(triples: readonly Triple[]): Map<string, Set<string>> {
  const adjacency = new Map<string, Set<string>>();
  for (const t of triples) {
    for (const [a, b] of [[t.subject_id, t.object_id], [t.object_id, t.subject_id]] as const) {
      let set = adjacency.get(a);
      if (!set) adjacency.set(a, (set = new Set()));
      set.add(b);
    }
  }
  return adjacency;
}

function connected(adjacency: Map<string, Set<string>>, a: string, b: string): boolean {
  const seen = new Set([a]);
  const stack = [a];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (id === b) return true;
    for (const n of adjacency.get(id) ?? []) {
      if (!seen.has(n)) {
        seen.add(n);
        stack.push(n);
      }
    }
  }
  return false;
}

/** The proposed actions and, for some, why (one line each, shown beside the action). */
export interface Refinements {
  actions: RefinementAction[];
  notes: Map<RefinementAction, string>;
}

export function proposeRefinements(options: RefinementOptions): RefinementAction[] {
  return planRefinements(options).actions;
}

export function planRefinements(options: RefinementOptions): Refinements {
  const { graph, question, triples, maxActions } = options;
  const notes = new Map<RefinementAction, string>();
  if (maxActions <= 0) return { actions: [], notes };
  const entities = findQuestionEntities({ graph, question });
  const questionNodes = new Set(entities.mentions.flatMap((m) => m.nodeIds));
  const { merges, survivor } = planMerges(graph, triples, questionNodes, options.documents, notes);
  const deletes = [...planDeletes(graph, triples, notes), ...planConflictDeletes(graph, triples, options.documents, notes)];
  const maxInserts = Math.max(0, options.maxInserts ?? 3);
  const codeEdits = planCodeEdits({
    graph,
    questionNodes: entities.mentions.filter((m) => m.strong || entities.mentions.length === 1).flatMap((m) => m.nodeIds),
    askedRelations: new Set(askedRelations(graph, entities.relationWords).flatMap((g) => [...g.relations])),
    triples,
    documents: options.documents,
    maxInserts,
    maxDeletes: 2,
  });
  for (const e of codeEdits) notes.set(e.action, e.note);
  const codeInserts = codeEdits.map((e) => e.action).filter((a) => a.type === "insert_edge");
  deletes.push(...codeEdits.map((e) => e.action).filter((a) => a.type === "delete_edge"));
  const codePairs = new Set(codeInserts.map((a) => [a.subject, a.object].sort().join("\u0000")));
  const proposals = findEvidenceInserts(options, entities, survivor)
    .filter((p) => !codePairs.has([p.subject, p.object].sort().join("\u0000")))
    .slice(0, Math.max(0, maxInserts - codeInserts.length));
  const toInsert = (p: Proposal): RefinementAction => ({ type: "insert_edge", subject: p.subject, relation: p.relation, object: p.object });

  let left = maxActions;
  const take = (list: RefinementAction[]) => {
    const kept = list.slice(0, Math.max(0, left));
    left -= kept.length;
    return kept;
  };
  const keptCodeInserts = take(codeInserts);
  const questionInserts = take(proposals.filter((p) => p.score >= QUESTION_PAIR_SCORE).map(toInsert));
  const keptMerges = take(merges);
  const keptDeletes = take(deletes);
  const otherInserts = take(proposals.filter((p) => p.score < QUESTION_PAIR_SCORE).map(toInsert));
  const actions = [...keptDeletes, ...keptMerges, ...keptCodeInserts, ...questionInserts, ...otherInserts];
  for (const a of notes.keys()) if (!actions.includes(a)) notes.delete(a);
  return { actions, notes };
}

/** (b) Near-duplicate merges, and the survivor each merged node becomes. */
function planMerges(
  graph: KnowledgeGraph,
  triples: readonly Triple[],
  questionNodes: ReadonlySet<string>,
  documents: readonly CorpusDocument[],
  notes: Map<RefinementAction, string>,
): { merges: RefinementAction[]; survivor: Map<string, string> } {
  const endpointIds = new Set<string>(questionNodes);
  for (const t of triples) {
    endpointIds.add(t.subject_id);
    endpointIds.add(t.object_id);
  }
  const touchesQuestion = (p: DuplicatePair) => questionNodes.has(p.duplicate) || questionNodes.has(p.canonical);
  const named = (id: string) => {
    const label = graph.getNode(id)?.label ?? "";
    return isName(label, wordTokens(label));
  };
  // Case variants of common words ("euro"/"Euro") are left to the abduction report.
  const pairs = findDuplicatePairs(graph, endpointIds, documents)
    .filter((p) => touchesQuestion(p) || (named(p.duplicate) && named(p.canonical)))
    .sort((a, b) => Number(touchesQuestion(b)) - Number(touchesQuestion(a)))
    .slice(0, MAX_MERGES);
  const survivor = new Map<string, string>();
  const merges: RefinementAction[] = [];
  for (const pair of pairs) {
    const oldName = nameFor(graph, pair.duplicate);
    const newName = nameFor(graph, pair.canonical);
    if (!oldName || !newName) continue;
    const merge: RefinementAction = { type: "replace_node", old: oldName, new: newName };
    merges.push(merge);
    notes.set(merge, `one thing under two names: ${pair.evidence.join("; ")}`);
    survivor.set(pair.duplicate, pair.canonical);
  }
  return { merges, survivor };
}

/**
 * (c) One delete per group of exact duplicate edges behind the triples: applied, it removes the
 * extra copies and keeps one (plan-actions.ts), so the fact stays whatever its passages say.
 */
function planDeletes(graph: KnowledgeGraph, triples: readonly Triple[], notes: Map<RefinementAction, string>): RefinementAction[] {
  const deletes: RefinementAction[] = [];
  for (const group of findDuplicateEdges(graph, triples)) {
    const s = nameFor(graph, group.triple.subject_id);
    const o = nameFor(graph, group.triple.object_id);
    if (!s || !o) continue;
    const action: RefinementAction = { type: "delete_edge", subject: s, relation: group.triple.relation, object: o };
    deletes.push(action);
    const extra = group.count - 1;
    notes.set(action, `duplicate clean-up: stored ${group.count} times; removes the ${extra} extra cop${extra === 1 ? "y" : "ies"} and keeps 1`);
  }
  return deletes;
}

/** Statement kinds that say a sentence states the edge (a list or a bare co-mention does not). */
const STATING = new Set(["stated", "clause", "across"]);

/**
 * (d) Conflicts: one subject, a relation that holds one value (birth date, capital, …), two
 * values of one kind among the triples. The delete of a value is proposed only when another
 * value is stated by a sentence with the relation's words, no given sentence names this value
 * with the subject (not even in a list), and every passage cited by every copy of its edge,
 * title included, never names the value at all (an extraction error, not a second fact); a
 * copy whose passage is not at hand blocks the delete (unread is not unstated).
 */
function planConflictDeletes(
  graph: KnowledgeGraph,
  triples: readonly Triple[],
  documents: readonly CorpusDocument[],
  notes: Map<RefinementAction, string>,
): RefinementAction[] {
  if (documents.length === 0) return [];
  const byId = new Map(documents.map((d) => [d.docId, d]));
  const groups = new Map<string, { subject: string; relation: string; objects: Set<string> }>();
  for (const t of triples) {
    if (!isFunctionalRelation(t.relation)) continue;
    const key = `${t.subject_id}\u0000${t.relation}`;
    const g = groups.get(key) ?? { subject: t.subject_id, relation: t.relation, objects: new Set<string>() };
    g.objects.add(t.object_id);
    groups.set(key, g);
  }
  const deletes: RefinementAction[] = [];
  for (const { subject, relation, objects } of groups.values()) {
    const subjectNode = graph.getNode(subject);
    if (!subjectNode || objects.size < 2) continue;
    // "born in 1950" and "born in Paris" are two facts: compare like with like.
    const dated = (id: string) => /\d/.test(graph.getNode(id)?.label ?? id);
    for (const kind of [true, false]) {
      const values = [...objects].filter((id) => dated(id) === kind);
      if (values.length < 2) continue;
      const verdicts = values.map((id) => {
        const node = graph.getNode(id);
        const copies = graph.outEdges(subject).filter((e) => e.target === id && e.relation === relation);
        const cited = [...new Set(copies.flatMap((e) => documentIdsOf(e)))];
        const allRead = cited.length > 0 && cited.every((d) => byId.has(d));
        const objectTerms = matchTerms({ name: node?.label ?? id, node });
        const statements = findStatements({ documents, a: matchTerms({ name: subjectNode.label, node: subjectNode }), b: objectTerms, relation });
        // Any sentence naming both, even a list, may state it: only a source silent about the value counts against it.
        const stating = statements.find((st) => STATING.has(st.kind)) ?? statements[0] ?? null;
        const silent = allRead && cited.every((d) => {
          const doc = byId.get(d);
          return doc !== undefined && documentMentions(doc, objectTerms) === false && !(doc.title && objectTerms.prose.includes(proseKey(doc.title))) && !namesWords(doc, node?.label ?? id);
        });
        return { id, copies: copies.length, cited, allRead: silent, stating };
      });
      const support = verdicts.find((v) => v.stating?.kind === "stated");
      if (!support?.stating) continue;
      for (const v of verdicts) {
        if (v.stating || !v.allRead) continue;
        const s = nameFor(graph, subject);
        const o = nameFor(graph, v.id);
        if (!s || !o) continue;
        const action: RefinementAction = { type: "delete_edge", subject: s, relation, object: o };
        deletes.push(action);
        const quote = support.stating.quote.replace(/\s+/g, " ").slice(0, 120);
        notes.set(
          action,
          `conflict: "${s}" has ${values.length} values for "${relation}"; "${nameFor(graph, support.id) ?? support.id}" is stated in ${support.stating.doc.docId} ("${quote}"); ` +
            `${v.cited.join(", ")} (every passage of the ${v.copies} cop${v.copies === 1 ? "y" : "ies"} of this edge, title included) never names "${o}", and no given passage states it`,
        );
      }
    }
  }
  return deletes;
}

/** Whether a passage has every content word of a label, up to its ending ("co-production" in "co-produce"). */
function namesWords(doc: CorpusDocument, label: string): boolean {
  const words = wordTokens(label).map((t) => t.norm).filter((w) => w.length > 2 && !isStopword(w));
  if (words.length === 0) return false;
  const text = new Set(sourceOf(doc).tokens.map((t) => t.norm.slice(0, 5)));
  return words.every((w) => text.has(w.slice(0, 5)));
}

function anchorsOf(graph: KnowledgeGraph, { mentions, missing }: QuestionEntities): Anchor[] {
  const anchors: Anchor[] = [];
  const usable = (k: string[]) => k.length > 0 && !k.every(isStopword) && !k.every((w) => /^\d+$/.test(w));
  const capital = (text: string) => /^\p{Lu}/u.test(text);
  // Common words of a name-less question ("church") would match every passage: names only.
  for (const m of mentions.filter((x) => x.strong)) {
    for (const id of m.nodeIds) {
      const node = graph.getNode(id);
      if (!node) continue;
      const keys = [node.label, ...node.aliases, m.text].map((name) => wordTokens(name).map((t) => t.norm)).filter(usable);
      if (keys.length > 0) anchors.push({ nodeId: id, keys: dedupeKeys(keys), questionEntity: true, capitalised: capital(node.label) || capital(m.text) });
    }
  }
  for (const m of missing) {
    const key = wordTokens(m.text).map((t) => t.norm);
    if (usable(key)) anchors.push({ nodeId: null, keys: [key], questionEntity: false, capitalised: capital(m.text) });
  }
  return anchors;
}

/**
 * Where the anchors occur in a text: capitalised like the name, not part of a longer name, not
 * a modifier. `budget` counts the occurrences each anchor may still have (a class named all
 * over its source files would otherwise cost a window scan per mention).
 */
function anchorHits(index: HeuristicIndex, source: Source, anchors: readonly Anchor[], budget: Map<Anchor, number>): Mention[] {
  const { tokens } = source;
  const hits: Mention[] = [];
  for (let i = 0; i < tokens.length; i++) {
    for (const anchor of anchors) {
      if ((budget.get(anchor) ?? MAX_HITS_PER_ANCHOR) <= 0) continue;
      let best = 0;
      for (const key of anchor.keys) if (key.length > best && matchesAt(tokens, i, key)) best = key.length;
      if (best === 0 || (anchor.capitalised && !/^\p{Lu}/u.test(tokens[i]?.raw ?? ""))) continue;
      if (insideLongerName(index, tokens, { i, n: best }) || isModifier(source, i + best)) continue;
      hits.push({ id: anchor.nodeId, span: { i, n: best }, anchor });
      budget.set(anchor, (budget.get(anchor) ?? MAX_HITS_PER_ANCHOR) - 1);
    }
  }
  return hits;
}

/** (a) Insert proposals from the texts, best first, one per pair of endpoints. */
function findEvidenceInserts(options: RefinementOptions, entities: QuestionEntities, survivor: ReadonlyMap<string, string>): Proposal[] {
  const { graph, question, triples, documents } = options;
  const index = getHeuristicIndex(graph);
  const stems = questionStems(entities.relationWords);
  const anchors = anchorsOf(graph, entities);
  const adjacency = retrievedGraph(triples);
  const allowDigits = WANTS_NUMBER.test(question);
  const live = (id: string | null) => (id === null ? null : (survivor.get(id) ?? id));
  const sources: Source[] =
    documents.length > 0
      ? documents.map(sourceOf)
      : options.originalText
        ? [{ text: options.originalText, tokens: wordTokens(options.originalText) }]
        : [];

  const proposals = new Map<string, Proposal>();
  const budget = new Map<Anchor, number>();
  let order = 0;
  for (const source of anchors.length > 0 ? sources : []) {
    const { text, tokens } = source;
    const hits = anchorHits(index, source, anchors, budget);
    for (const hit of hits) {
      const anchor = hit.anchor as Anchor;
      const { span } = hit;
      const lo = Math.max(0, span.i - WINDOW_TOKENS);
      const hi = Math.min(tokens.length, span.i + span.n + WINDOW_TOKENS);
      const overlaps = (s: Span) => s.i < span.i + span.n && s.i + s.n > span.i;
      const others = hits.filter((h) => h !== hit && h.anchor !== anchor && h.span.i >= lo && h.span.i + h.span.n <= hi && !overlaps(h.span));
      const taken = new Set<number>();
      for (const m of [hit, ...others]) for (let k = m.span.i; k < m.span.i + m.span.n; k++) taken.add(k);
      others.push(...namesIn(index, graph, source, lo, hi, taken, allowDigits));

      for (const other of others) {
        const aId = live(anchor.nodeId);
        const bId = live(other.id);
        if ((aId === null && bId === null) || (aId !== null && aId === bId)) continue;
        const bothQuestion = anchor.questionEntity && other.anchor?.questionEntity === true;
        if (aId !== null && bId !== null) {
          if (directlyLinked(graph, aId, bId)) continue;
          if (bothQuestion && connected(adjacency, aId, bId)) continue;
        }
        const anchorFirst = span.i < other.span.i;
        const [left, right] = anchorFirst ? [span, other.span] : [other.span, span];
        // The relation joins neighbours: with a name in between, that name is what the first relates to.
        if (others.some((m) => m !== other && m.span.i >= left.i + left.n && m.span.i + m.span.n <= right.i)) continue;
        const leftEnd = tokens[left.i + left.n - 1]?.end ?? 0;
        const rightStart = tokens[right.i]?.start ?? 0;
        if (rightStart < leftEnd || rightStart - leftEnd > MAX_BETWEEN_CHARS) continue;
        const words = connectingPhrase(text.slice(leftEnd, rightStart));
        if (!words) continue;
        const phraseMatches = stems.length > 0 && matchedStems(words.join(" "), stems).length > 0;
        const inRetrieved = bId !== null && adjacency.has(bId);
        const score = (bothQuestion ? QUESTION_PAIR_SCORE : 0) + (phraseMatches ? 2 : 0) + (inRetrieved ? 1 : 0);
        // Unsupported by the question's words: only a statement about the question entity itself
        // ("Akinoshū Kenji … is a former sumo wrestler from Hiroshima").
        if (score === 0 && !(anchorFirst && anchor.questionEntity)) continue;
        const nameOf = (id: string | null, s: Span) =>
          id === null ? text.slice(tokens[s.i]?.start ?? 0, tokens[s.i + s.n - 1]?.end ?? 0) : nameFor(graph, id);
        const aName = nameOf(aId, span);
        const bName = nameOf(bId, other.span);
        if (!aName || !bName) continue;
        const a = { key: aId ?? aName, name: aName };
        const b = { key: bId ?? bName, name: bName };
        const [subject, object] = anchorFirst ? [a, b] : [b, a];
        const relation = formatRelation(words, index.relationStyle);
        const key = `${subject.key}\u0000${relation}\u0000${object.key}`;
        const prev = proposals.get(key);
        if (!prev || prev.score < score) {
          proposals.set(key, { subject: subject.name, object: object.name, pair: [subject.key, object.key], relation, score, order: prev?.order ?? order++ });
        }
      }
    }
  }

  // One insert per pair of endpoints: the best-supported phrase, the first seen on ties.
  const byPair = new Map<string, Proposal>();
  for (const p of [...proposals.values()].sort((x, y) => y.score - x.score || x.order - y.order)) {
    const pair = [...p.pair].sort().join("\u0000");
    if (!byPair.has(pair)) byPair.set(pair, p);
  }
  return [...byPair.values()];
}

function dedupeKeys(keys: string[][]): string[][] {
  const seen = new Set<string>();
  return keys.filter((k) => {
    const s = k.join(" ");
    if (seen.has(s)) return false;
    seen.add(s);
    return true;
  });
}
