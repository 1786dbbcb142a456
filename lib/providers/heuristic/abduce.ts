/**
 * Heuristic error abduction over the interaction history, from the three perspectives of the
 * DeepRefine prompt, naming concrete graph elements:
 * - incompleteness: question entities with no node (missing), entities in the graph that no
 *   step retrieved, question entities the retrieved triples do not connect, and entities whose
 *   retrieved relations never match the question's relation words;
 * - incorrectness: near-duplicate nodes among the question entities and retrieved endpoints
 *   (`findNearDuplicates`), question phrases that name several nodes, and conflicts (one
 *   subject, one functional-looking relation such as a birth date, different objects);
 * - redundancy: exact duplicate edges (same endpoints and relation, several edges), relations
 *   between the same two nodes that differ only in auxiliaries or case, and triples retrieved
 *   again and again across steps.
 */
import type { KnowledgeGraph, Triple } from "../../graph/model";
import type { CorpusDocument } from "../../import/corpus";
import { normalizeLabel } from "../../graph/normalize";
import { identifierWords, qualifiedName } from "../../graph/resolve-name";
import type { StepRecord } from "../../loop/types";
import { canonicalOf, findNearDuplicates, getHeuristicIndex, type NearDuplicate } from "./graph-index";
import { judgeMerge } from "./merge-evidence";
import { findQuestionEntities, type QuestionMention } from "./question-entities";
import { matchedStems, questionStems, wordTokens } from "./text";

export interface AbductionOptions {
  graph: KnowledgeGraph;
  question: string;
  history: readonly StepRecord[];
}

export interface DuplicatePair {
  duplicate: string;
  canonical: string;
  reason: NearDuplicate["reason"];
  /** Why they are plausibly one thing (`judgeMerge`), for people. */
  evidence: string[];
}

/** Two similar names that are not merged, and why (`judgeMerge`). */
export interface ApartPair {
  a: string;
  b: string;
  why: string;
}

export interface DuplicateEdgeGroup {
  triple: Triple;
  /** Edges in the graph with these endpoints and this exact relation. */
  count: number;
}

export interface AbductionFindings {
  missing: QuestionMention[];
  /** Missing phrase → nodes whose names differ only by a plural `s` or an article. */
  closeNames: Map<string, string[]>;
  notRetrieved: QuestionMention[];
  disconnected: [QuestionMention, QuestionMention][];
  noMatchingRelation: QuestionMention[];
  duplicates: DuplicatePair[];
  /** Similar names kept apart: not near-duplicates (different kinds, years, or no evidence). */
  apart: ApartPair[];
  ambiguous: QuestionMention[];
  conflicts: { subject: string; relation: string; objects: string[] }[];
  duplicateEdges: DuplicateEdgeGroup[];
  relationVariants: { subject: string; object: string; relations: string[] }[];
  repeated: { triple: Triple; steps: number }[];
}

const MAX_ITEMS = 8;

/** Relations that hold one value per subject: a second, different object is a conflict. */
const FUNCTIONAL_WORDS = new Set(
  `born birth died death date year founded established capital population rating votes height
  elevation area age nationality citizenship headquarters inception dissolved`.split(/\s+/),
);

export function isFunctionalRelation(relation: string): boolean {
  return identifierWords(relation).some((w) => FUNCTIONAL_WORDS.has(w));
}

function tripleKey(t: Triple): string {
  return `${t.subject_id}\u0000${t.relation}\u0000${t.object_id}`;
}

/** Relation words without auxiliaries and case: "is located in" ~ "Located in". */
function relationCore(relation: string): string {
  return identifierWords(relation)
    .filter((w) => !["is", "was", "are", "were", "be", "been", "has", "had", "have"].includes(w))
    .join(" ");
}

/** Duplicate edges of the graph behind the given triples: same endpoints, exactly the same relation. */
export function findDuplicateEdges(graph: KnowledgeGraph, triples: readonly Triple[]): DuplicateEdgeGroup[] {
  const out: DuplicateEdgeGroup[] = [];
  const done = new Set<string>();
  for (const t of triples) {
    const key = tripleKey(t);
    if (done.has(key)) continue;
    done.add(key);
    let count = 0;
    for (const e of graph.outEdges(t.subject_id)) if (e.target === t.object_id && e.relation === t.relation) count++;
    if (count > 1) out.push({ triple: t, count });
  }
  return out;
}

/**
 * Near-duplicate pairs touching the given nodes that are plausibly one thing (`judgeMerge`:
 * the documents are searched for alias statements), each node in at most one pair (no
 * chains), canonical = the higher-degree node; and the similar names that are kept apart.
 */
export function findDuplicateCandidates(
  graph: KnowledgeGraph,
  ids: Iterable<string>,
  documents: readonly CorpusDocument[] = [],
): { pairs: DuplicatePair[]; apart: ApartPair[] } {
  const pairs: DuplicatePair[] = [];
  const apart: ApartPair[] = [];
  const used = new Set<string>();
  const judged = new Set<string>();
  for (const id of ids) {
    if (used.has(id)) continue;
    for (const d of findNearDuplicates(graph, id)) {
      if (used.has(d.id)) continue;
      const key = id < d.id ? `${id}\u0000${d.id}` : `${d.id}\u0000${id}`;
      if (judged.has(key)) continue;
      judged.add(key);
      const judgement = judgeMerge({ graph, a: id, b: d.id, reason: d.reason, documents });
      if (!judgement.plausible) {
        apart.push({ a: id, b: d.id, why: judgement.reasons.join("; ") });
        continue;
      }
      const canonical = canonicalOf(graph, id, d.id);
      pairs.push({ duplicate: canonical === id ? d.id : id, canonical, reason: d.reason, evidence: judgement.reasons });
      used.add(id);
      used.add(d.id);
      break;
    }
  }
  return { pairs, apart };
}

export function findDuplicatePairs(graph: KnowledgeGraph, ids: Iterable<string>, documents: readonly CorpusDocument[] = []): DuplicatePair[] {
  return findDuplicateCandidates(graph, ids, documents).pairs;
}

/** Nodes named like `text` up to a plural `s` or a leading article ("Big Eye" → "Big Eyes"). */
export function findCloseNames(graph: KnowledgeGraph, text: string): string[] {
  const index = getHeuristicIndex(graph);
  const words = wordTokens(text).map((t) => t.norm);
  const last = words[words.length - 1];
  if (!last) return [];
  const head = words.slice(0, -1);
  const variants = [
    [...head, `${last}s`],
    [...head, `${last}es`],
    ...(last.length > 3 && last.endsWith("s") ? [[...head, last.slice(0, -1)]] : []),
    ...(words[0] === "the" ? [words.slice(1)] : [["the", ...words]]),
  ];
  const out = new Set<string>();
  for (const v of variants) for (const id of index.byKey.get(v.join(" ")) ?? []) out.add(id);
  return [...out].slice(0, 3);
}

export function collectAbductionFindings({ graph, question, history }: AbductionOptions): AbductionFindings {
  const { mentions, missing, relationWords } = findQuestionEntities({ graph, question });
  const stems = questionStems(relationWords);

  const all: Triple[] = [];
  const seenTriple = new Map<string, number>();
  for (const step of history) {
    const inStep = new Set<string>();
    for (const t of step.triples) {
      const key = tripleKey(t);
      if (inStep.has(key)) continue;
      inStep.add(key);
      const n = seenTriple.get(key) ?? 0;
      if (n === 0) all.push(t);
      seenTriple.set(key, n + 1);
    }
  }

  const adjacency = new Map<string, Triple[]>();
  for (const t of all) {
    for (const id of new Set([t.subject_id, t.object_id])) {
      const list = adjacency.get(id);
      if (list) list.push(t);
      else adjacency.set(id, [t]);
    }
  }

  const notRetrieved = mentions.filter((m) => !m.nodeIds.some((id) => adjacency.has(id)));
  const retrieved = mentions.filter((m) => m.nodeIds.some((id) => adjacency.has(id)));

  // Connected components of the retrieved triples.
  const component = new Map<string, number>();
  let next = 0;
  for (const start of adjacency.keys()) {
    if (component.has(start)) continue;
    const c = next++;
    const stack = [start];
    component.set(start, c);
    while (stack.length > 0) {
      const id = stack.pop() as string;
      for (const t of adjacency.get(id) ?? []) {
        for (const other of [t.subject_id, t.object_id]) {
          if (!component.has(other)) {
            component.set(other, c);
            stack.push(other);
          }
        }
      }
    }
  }
  const componentsOf = (m: QuestionMention) => new Set(m.nodeIds.map((id) => component.get(id)).filter((c) => c !== undefined));
  const disconnected: [QuestionMention, QuestionMention][] = [];
  for (let a = 0; a < mentions.length; a++) {
    for (let b = a + 1; b < mentions.length; b++) {
      const ma = mentions[a];
      const mb = mentions[b];
      if (!ma || !mb) continue;
      const ca = componentsOf(ma);
      if (![...componentsOf(mb)].some((c) => ca.has(c))) disconnected.push([ma, mb]);
    }
  }

  const noMatchingRelation =
    stems.length === 0
      ? []
      : retrieved.filter((m) => !m.nodeIds.some((id) => (adjacency.get(id) ?? []).some((t) => matchedStems(t.relation, stems).length > 0)));

  const endpointIds: string[] = [];
  for (const m of mentions) endpointIds.push(...m.nodeIds);
  for (const t of all) endpointIds.push(t.subject_id, t.object_id);
  const { pairs: duplicates, apart } = findDuplicateCandidates(graph, new Set(endpointIds));

  const ambiguous = mentions.filter((m) => m.nodeIds.length > 1);

  const bySubjectRelation = new Map<string, { subject: string; relation: string; objects: Set<string> }>();
  for (const t of all) {
    if (!isFunctionalRelation(t.relation)) continue;
    const key = `${t.subject_id}\u0000${normalizeLabel(t.relation)}`;
    const entry = bySubjectRelation.get(key) ?? { subject: t.subject, relation: t.relation, objects: new Set<string>() };
    entry.objects.add(t.object);
    bySubjectRelation.set(key, entry);
  }
  // "born in 1950" and "born in Paris" are two facts, not a conflict: compare like with like.
  const conflicts = [...bySubjectRelation.values()]
    .filter((e) => {
      const objects = [...e.objects];
      const dated = objects.filter((o) => /\d/.test(o)).length;
      return dated > 1 || objects.length - dated > 1;
    })
    .map((e) => ({ subject: e.subject, relation: e.relation, objects: [...e.objects] }));

  const duplicateEdges = findDuplicateEdges(graph, all);

  const byPair = new Map<string, { subject: string; object: string; relations: Set<string>; cores: Set<string> }>();
  for (const t of all) {
    const key = `${t.subject_id}\u0000${t.object_id}`;
    const entry = byPair.get(key) ?? { subject: t.subject, object: t.object, relations: new Set<string>(), cores: new Set<string>() };
    entry.relations.add(t.relation);
    entry.cores.add(relationCore(t.relation));
    byPair.set(key, entry);
  }
  const relationVariants = [...byPair.values()]
    .filter((e) => e.relations.size > 1 && e.cores.size < e.relations.size)
    .map((e) => ({ subject: e.subject, object: e.object, relations: [...e.relations] }));

  const repeated = history.length < 3 ? [] : all
    .map((triple) => ({ triple, steps: seenTriple.get(tripleKey(triple)) ?? 0 }))
    .filter((r) => r.steps >= 3);

  const closeNames = new Map<string, string[]>();
  for (const m of missing) {
    const close = findCloseNames(graph, m.text);
    if (close.length > 0) closeNames.set(m.text, close);
  }

  return { missing, closeNames, notRetrieved, disconnected, noMatchingRelation, duplicates, apart, ambiguous, conflicts, duplicateEdges, relationVariants, repeated };
}

/** Text inside the tag: no `<`/`>`, so a label cannot close the tag. */
function q(text: string): string {
  return `"${text.replace(/[<>]/g, (c) => (c === "<" ? "‹" : "›")).replace(/\s+/g, " ")}"`;
}

/** The label, or the qualified `file::label` when another node has the same label. */
function label(graph: KnowledgeGraph, id: string): string {
  const node = graph.getNode(id);
  if (!node) return q(id);
  const shared = [...graph.idsByNormLabel(node.normLabel)].some((other) => other !== id && graph.getNode(other)?.label === node.label);
  return q(shared ? qualifiedName(graph, id) : node.label);
}

function tripleText(t: Triple): string {
  return `(${q(t.subject)}, ${q(t.relation)}, ${q(t.object)})`;
}

function section(title: string, items: string[]): string {
  if (items.length === 0) return `${title}: nothing found.`;
  const shown = items.slice(0, MAX_ITEMS);
  const more = items.length > shown.length ? `\n- … and ${items.length - shown.length} more` : "";
  return `${title}:\n${shown.map((s) => `- ${s}`).join("\n")}${more}`;
}

export function formatAbduction(graph: KnowledgeGraph, history: readonly StepRecord[], f: AbductionFindings): string {
  const incomplete: string[] = [];
  for (const m of f.missing) {
    const close = f.closeNames.get(m.text) ?? [];
    const hint = close.length > 0 ? ` (closest: ${close.map((id) => label(graph, id)).join(", ")})` : "";
    incomplete.push(`missing entity: the question names ${q(m.text)} but no node has that name${hint}`);
  }
  for (const m of f.notRetrieved) incomplete.push(`${q(m.text)} is in the graph but no retrieved triple touches it`);
  for (const [a, b] of f.disconnected) {
    incomplete.push(`disconnected entities: no path between ${q(a.text)} and ${q(b.text)} within the retrieved triples`);
  }
  for (const m of f.noMatchingRelation) {
    incomplete.push(`no retrieved relation at ${q(m.text)} matches what the question asks for; the edge it needs is missing or named differently`);
  }

  const incorrect: string[] = [];
  for (const d of f.duplicates) {
    incorrect.push(`near-duplicate nodes: ${label(graph, d.duplicate)} and ${label(graph, d.canonical)} (${d.reason}) look like one entity split in two: ${d.evidence.map((e) => e.replace(/[<>]/g, "")).join("; ")}`);
  }
  for (const m of f.ambiguous) {
    incorrect.push(`ambiguous name: ${q(m.text)} names ${m.nodeIds.length} nodes (${m.nodeIds.slice(0, 4).map((id) => label(graph, id)).join(", ")})`);
  }
  for (const c of f.conflicts) {
    incorrect.push(`conflict: ${q(c.subject)} has ${c.objects.length} different values for ${q(c.relation)}: ${c.objects.map(q).join(", ")}`);
  }

  // Not errors, but said so a later reader does not merge them on the name alone.
  for (const p of f.apart.slice(0, 3)) {
    incorrect.push(`similar names, not merged: ${label(graph, p.a)} and ${label(graph, p.b)} (${p.why.replace(/[<>]/g, "")})`);
  }

  const redundant: string[] = [];
  for (const d of f.duplicateEdges) {
    redundant.push(`duplicate edge: ${tripleText(d.triple)} is stored ${d.count} times; deleting it removes the ${d.count - 1} extra cop${d.count === 2 ? "y" : "ies"} and keeps one`);
  }
  for (const v of f.relationVariants) {
    redundant.push(`${q(v.subject)} → ${q(v.object)} is stated by relations that differ only in form: ${v.relations.map(q).join(", ")}`);
  }
  if (f.repeated.length > 0) {
    const examples = f.repeated.slice(0, 3).map((r) => `${tripleText(r.triple)} in ${r.steps} steps`);
    redundant.push(`${f.repeated.length} triple${f.repeated.length === 1 ? " was" : "s were"} retrieved again and again without making the question answerable, e.g. ${examples.join("; ")}`);
  }

  const steps = history.length;
  const noSteps = history.filter((s) => !s.answerable).length;
  const head = `The question stayed unanswerable in ${noSteps} of ${steps} step${steps === 1 ? "" : "s"}.`;
  return [head, section("Incompleteness", incomplete), section("Incorrectness", incorrect), section("Redundancy", redundant)].join("\n");
}

export function abduceErrors(options: AbductionOptions): { text: string; findings: AbductionFindings } {
  const findings = collectAbductionFindings(options);
  return { text: formatAbduction(options.graph, options.history, findings), findings };
}
