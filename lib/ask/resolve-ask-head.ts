/**
 * Turning the `h, r` a model (or the planner) wrote into graph terms: the head as a set of nodes
 * (an entity name through the one name resolver, or `Ans_i`, an earlier sub-problem's answer
 * set), the relation as one of the graph's relation names.
 *
 * Names keep their commas ("Johnnycake, West Virginia"): `h, r` is split at the comma where the
 * right part names a graph relation and the left part a node, preferring the last comma.
 */
import { DerivedCache, type GraphDelta } from "../graph/derived-cache";
import type { KnowledgeGraph } from "../graph/model";
import { normalizeLabel } from "../graph/normalize";
import { resolveName } from "../graph/resolve-name";
import { parseStepRef } from "./parse-ask-output";
import type { AskEntity } from "./types";

/** At most this many nodes stand for one ambiguous name. */
const MAX_AMBIGUOUS = 10;

interface RelationNames {
  /** Normalised name → the first relation of that name in edge order. */
  byNorm: Map<string, string>;
  /** Edges per relation, and the relations present per normalised name. */
  counts: Map<string, number>;
  spellings: Map<string, string[]>;
}

/** Per graph version, advanced with it (lib/graph/derived-cache.ts). */
const relationSets = new DerivedCache<RelationNames>({ build: buildRelationNames, advance: advanceRelationNames });

/** `Starred Actors`, `starred-actors`, `starred_actors` → `starred actors`. */
export function normalizeRelationName(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

function relationIndex(graph: KnowledgeGraph): ReadonlyMap<string, string> {
  return relationSets.get(graph).byNorm;
}

function buildRelationNames(graph: KnowledgeGraph): RelationNames {
  const counts = new Map<string, number>();
  // Normalising once per spelling, not per edge.
  for (const e of graph.edges.values()) counts.set(e.relation, (counts.get(e.relation) ?? 0) + 1);
  const byNorm = new Map<string, string>();
  const spellings = new Map<string, string[]>();
  for (const relation of counts.keys()) {
    const norm = normalizeRelationName(relation);
    if (!byNorm.has(norm)) byNorm.set(norm, relation);
    const list = spellings.get(norm);
    if (list) list.push(relation);
    else spellings.set(norm, [relation]);
  }
  return { byNorm, counts, spellings };
}

/**
 * The names of `graph` from those of `delta.previous`: counts patched, a name's entry set when
 * its only spelling comes or goes. Where a changed name has several spellings, which comes first
 * in edge order may move: built again then (rare, and only on graphs with such spellings).
 */
function advanceRelationNames(old: RelationNames, delta: GraphDelta, graph: KnowledgeGraph): RelationNames | null {
  const counts = new Map(old.counts);
  const moved = new Set<string>();
  for (const key of delta.edges) {
    for (const [e, by] of [[delta.previous.edges.get(key), -1], [graph.edges.get(key), 1]] as const) {
      if (!e) continue;
      const n = (counts.get(e.relation) ?? 0) + by;
      if (n > 0) counts.set(e.relation, n);
      else counts.delete(e.relation);
      moved.add(e.relation);
    }
  }
  if (moved.size === 0) return { ...old };
  const byNorm = new Map(old.byNorm);
  const spellings = new Map(old.spellings);
  for (const relation of moved) {
    const norm = normalizeRelationName(relation);
    const present = (old.spellings.get(norm) ?? []).filter((r) => counts.has(r) && r !== relation);
    if (counts.has(relation)) present.push(relation);
    if (present.length > 1 || (old.spellings.get(norm)?.length ?? 0) > 1) return null;
    if (present.length === 0) {
      byNorm.delete(norm);
      spellings.delete(norm);
    } else {
      byNorm.set(norm, present[0] as string);
      spellings.set(norm, present);
    }
  }
  return { byNorm, counts, spellings };
}

/** The graph relation a written name means (exactly, or up to case and separators); null if none. */
export function findGraphRelation({ graph, name }: { graph: KnowledgeGraph; name: string }): string | null {
  const norm = normalizeRelationName(name);
  if (!norm) return null;
  return relationIndex(graph).get(norm) ?? null;
}

export type HeadResolution =
  | { ok: true; entities: AskEntity[]; ref: string | null }
  | { ok: false; error: string };

/** The head of a tool call or plan step as nodes. `stepAnswers` holds the sets of earlier steps. */
export function resolveAskHead({
  graph,
  head,
  stepAnswers,
}: {
  graph: KnowledgeGraph;
  head: string;
  stepAnswers: Readonly<Record<string, readonly AskEntity[]>>;
}): HeadResolution {
  const ref = parseStepRef(head);
  if (ref) {
    const set = stepAnswers[ref];
    if (!set) return { ok: false, error: `${ref} has not been answered yet` };
    const entities = set.filter((e) => e.id !== null);
    if (entities.length === 0) return { ok: false, error: `${ref} has no graph entities to search from` };
    return { ok: true, entities, ref };
  }
  const r = resolveName({ graph, name: head, limit: 0 });
  if (r.status === "exact" && r.best) return { ok: true, entities: [{ id: r.best.id, label: r.best.label }], ref: null };
  if (r.status === "ambiguous") {
    const top = r.candidates[0]?.score;
    const tied = r.candidates.filter((c) => c.score === top).slice(0, MAX_AMBIGUOUS);
    return { ok: true, entities: tied.map((c) => ({ id: c.id, label: c.label })), ref: null };
  }
  const near = r.candidates.slice(0, 3).map((c) => `"${c.label}"`);
  return { ok: false, error: `no entity named "${head}" in the graph${near.length ? ` (did you mean ${near.join(", ")}?)` : ""}` };
}

/**
 * `h, r` against the graph: every comma is a candidate split; a split whose right part is a graph
 * relation and whose left part resolves wins, then one with a graph relation, then one whose
 * head resolves, then the last comma.
 */
export function splitToolArguments({
  graph,
  argsText,
  stepAnswers,
}: {
  graph: KnowledgeGraph;
  argsText: string;
  stepAnswers: Readonly<Record<string, readonly AskEntity[]>>;
}): { head: string; relation: string } | null {
  const flat = argsText.replace(/\s+/g, " ").trim().replace(/,\s*$/, "");
  let best: { head: string; relation: string; score: number } | null = null;
  for (let i = flat.lastIndexOf(","); i > 0; i = flat.lastIndexOf(",", i - 1)) {
    const head = flat.slice(0, i).trim();
    const relation = flat.slice(i + 1).trim();
    if (!head || !relation) continue;
    const isRelation = findGraphRelation({ graph, name: relation }) !== null;
    const resolves = parseStepRef(head) !== null || resolveAskHeadQuick(graph, head, stepAnswers);
    const score = (isRelation ? 2 : 0) + (resolves ? 1 : 0);
    if (!best || score > best.score) best = { head, relation, score };
    if (score === 3) break;
  }
  return best ? { head: best.head, relation: best.relation } : null;
}

/** Whether a name resolves without the resolver's fuzzy scan (an index probe only). */
function resolveAskHeadQuick(graph: KnowledgeGraph, head: string, stepAnswers: Readonly<Record<string, readonly AskEntity[]>>): boolean {
  if (parseStepRef(head)) return stepAnswers[parseStepRef(head) ?? ""] !== undefined;
  return graph.getNode(head) !== undefined || graph.idsByNormLabel(normalizeLabel(head)).size > 0;
}
