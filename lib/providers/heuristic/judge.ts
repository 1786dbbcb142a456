/**
 * Heuristic answerability: the question is answerable (Yes) when
 * - every question entity (see `findQuestionEntities`) touches a retrieved triple;
 * - with several entities, the retrieved triples connect them all;
 * - every relation the question asks for is covered. The words outside the entity mentions
 *   are met with the graph's relations by the relation ranker (rank-relations.ts: morphology,
 *   WordNet, descriptions, graph statistics); each word that names some relation of the graph
 *   well enough asks for that family of relations ("directed" → `directed_by`, "screenwriter"
 *   → `written_by`). Words of an entity's title ("Together", "Fall") are never relation words.
 * - an answer is reached: a node that is not a question entity, at the end of a chain of
 *   matching triples from an entity at least as long as the number of relation families asked
 *   ("the director of the movies starred by X" needs X → film → director). A "who" question
 *   is answered only from the side of a relation that names its person (`directed_by`'s
 *   object, `starred_actors`' actors), so "who starred together with X" is not answered by the
 *   film X starred in, but by its other actors. Words that ask for a sibling ("also", "same",
 *   "together", "co-") need one hop more: out through a relation and back through it.
 * A question whose words name no relation falls back to the stem overlap and small synonym
 * table of `questionStems` ("born" meets `place_of_birth`); with no relation words at all the
 * entities only need to be connected.
 */
import type { KnowledgeGraph, Triple } from "../../graph/model";
import { asksForSibling, getRelationRanker, rankerTerms } from "../../retrieve/rank-relations";
import { findQuestionEntities } from "./question-entities";
import { isStopword, matchedStems, questionStems } from "./text";

export interface JudgeVerdict {
  answerable: boolean;
  /** One line, for the trace: which rule decided. */
  reason: string;
}

export interface JudgeOptions {
  graph: KnowledgeGraph;
  question: string;
  triples: readonly Triple[];
}

function show(triple: Triple): string {
  return `(${triple.subject}, ${triple.relation}, ${triple.object})`;
}

export function judgeAnswerable({ graph, question, triples }: JudgeOptions): JudgeVerdict {
  const { mentions, missing, relationWords } = findQuestionEntities({ graph, question });
  const missingTopic = missing.find((m) => m.bracketed);
  if (missingTopic) return { answerable: false, reason: `the topic entity "${missingTopic.text}" is not in the graph` };
  if (mentions.length === 0) return { answerable: false, reason: "no question entity names a node of the graph" };

  const adjacency = new Map<string, number[]>();
  triples.forEach((t, i) => {
    for (const id of new Set([t.subject_id, t.object_id])) {
      const list = adjacency.get(id);
      if (list) list.push(i);
      else adjacency.set(id, [i]);
    }
  });

  const touched = mentions.map((m) => m.nodeIds.filter((id) => adjacency.has(id)));
  const absent = mentions.find((_, k) => (touched[k]?.length ?? 0) === 0);
  if (absent) return { answerable: false, reason: `no retrieved triple mentions "${absent.text}"` };
  const names = mentions.map((m) => `"${m.text}"`).join(", ");

  // Several entities: the retrieved triples must join them.
  const startIds = touched[0] ?? [];
  const pathEdges = new Set<number>();
  if (mentions.length > 1) {
    const parent = new Map<string, number>();
    const seen = new Set<string>(startIds);
    let frontier = [...startIds];
    while (frontier.length > 0) {
      const next: string[] = [];
      for (const id of frontier) {
        for (const i of adjacency.get(id) ?? []) {
          const t = triples[i];
          if (!t) continue;
          const other = t.subject_id === id ? t.object_id : t.subject_id;
          if (seen.has(other)) continue;
          seen.add(other);
          parent.set(other, i);
          next.push(other);
        }
      }
      frontier = next;
    }
    for (let k = 1; k < mentions.length; k++) {
      const end = touched[k]?.find((id) => seen.has(id));
      if (end === undefined) {
        return { answerable: false, reason: `"${mentions[0]?.text}" and "${mentions[k]?.text}" are not connected in the retrieved triples` };
      }
      for (let id = end, i = parent.get(id); i !== undefined; i = parent.get(id)) {
        pathEdges.add(i);
        const t = triples[i];
        if (!t) break;
        id = t.subject_id === id ? t.object_id : t.subject_id;
      }
    }
  }

  const ranker = getRelationRanker(graph);
  const asked = askedRelations(graph, relationWords);
  const mentionIds = new Set(mentions.flatMap((m) => m.nodeIds));
  const allTouched = touched.flat();

  if (asked.length === 0) {
    // No word names a relation of the graph: the older stem overlap, or mere connection.
    const stems = questionStems(relationWords);
    const matches = (t: Triple) => stems.length === 0 || matchedStems(t.relation, stems).length > 0;
    const incident = allTouched.flatMap((id) => adjacency.get(id) ?? []);
    const hit = [...pathEdges, ...incident].map((i) => triples[i]).find((t): t is Triple => t !== undefined && matches(t));
    return hit
      ? { answerable: true, reason: `${names}: matching relation ${show(hit)}` }
      : { answerable: false, reason: `no retrieved relation at ${names} matches the question's words` };
  }

  const reachable = reachableFrom(triples, adjacency, allTouched);
  const uncovered = asked.filter((g) => !reachable.some((t) => g.relations.has(t.relation)));
  if (uncovered.length > 0) {
    return { answerable: false, reason: `${names} found, but nothing retrieved covers "${uncovered.map((g) => g.words.join(" ")).join('", "')}"` };
  }

  // Chains of matching triples from the entities, tracking which families a chain used: an
  // answer is a non-entity node reached by a chain of at least `hops` triples using every family.
  const familyOf = (relation: string): number => {
    let mask = 0;
    asked.forEach((g, k) => {
      if (g.relations.has(relation)) mask |= 1 << k;
    });
    return mask;
  };
  const full = (1 << asked.length) - 1;
  const cues = relationWords.filter((w) => w === "who" || w === "whom" || PERSON_NOUNS.has(w));
  const personSide = (t: Triple, node: string): boolean => {
    if (cues.length === 0) return true;
    // Relations that name a person ("directed_by", "starred_actors") name it on the object side.
    return ranker.score("who", t.relation) === 0 || node === t.object_id;
  };
  // "the actor of X also starred in", "the same screenwriter as X": out through a relation and
  // back through the same family, one hop more than the families named.
  const sibling = asksForSibling(relationWords.join(" "));
  const hops = Math.min(asked.length + (sibling ? 1 : 0), MAX_CHAIN);
  const seenState = new Set<string>();
  let frontier: [string, number][] = [...new Set(allTouched)].map((id) => [id, 0]);
  for (const [id] of frontier) seenState.add(`${id}\u0000${0}`);
  let answer: { node: string; triple: Triple } | null = null;
  for (let d = 1; d <= MAX_CHAIN + 1 && frontier.length > 0 && !answer; d++) {
    const next: [string, number][] = [];
    for (const [id, used] of frontier) {
      for (const i of adjacency.get(id) ?? []) {
        const t = triples[i];
        const family = t ? familyOf(t.relation) : 0;
        if (!t || family === 0) continue;
        const other = t.subject_id === id ? t.object_id : t.subject_id;
        // A triple may serve any one family it belongs to; take them all (few families).
        for (let k = 0; k < asked.length; k++) {
          if (!(family & (1 << k))) continue;
          const mask = used | (1 << k);
          const key = `${other}\u0000${mask}`;
          if (seenState.has(key)) continue;
          seenState.add(key);
          next.push([other, mask]);
          if (!answer && mask === full && d >= hops && !mentionIds.has(other) && personSide(t, other)) answer = { node: other, triple: t };
        }
      }
    }
    frontier = next;
  }
  if (!answer) {
    return { answerable: false, reason: `${names} found and "${asked.map((g) => g.words.join(" ")).join('", "')}" covered, but no chain of ${hops} matching triple${hops === 1 ? "" : "s"} reaches an answer` };
  }
  return { answerable: true, reason: `${names}: "${asked.map((g) => g.words.join(" ")).join('", "')}" covered; answer reached by ${show(answer.triple)}` };
}

const MAX_CHAIN = 3;
/** Nouns that ask what "who" asks ("which person directed …"). */
const PERSON_NOUNS = new Set(["person", "people", "persons"]);
/** A question word asks for a relation when its best match scores at least this (one exact rare word = 1). */
const ASKS_THRESHOLD = 0.45;
/** Relations within this share of a word's best score belong to the family it asks for. */
const FAMILY_SHARE = 0.75;

/** Word → the relation family it asks for (null: none), per graph and ranker. */
const familyCache = new WeakMap<KnowledgeGraph, { ranker: unknown; families: Map<string, string[] | null> }>();

interface AskedRelation {
  words: string[];
  relations: Set<string>;
}

/**
 * The relation families a question's words ask for, one per distinct best relation: "release
 * years … directed" → {release_year} ("release", "years"), {directed_by}.
 */
export function askedRelations(graph: KnowledgeGraph, words: readonly string[]): AskedRelation[] {
  const ranker = getRelationRanker(graph);
  let perGraph = familyCache.get(graph);
  if (!perGraph || perGraph.ranker !== ranker) familyCache.set(graph, (perGraph = { ranker, families: new Map() }));
  const groups = new Map<string, AskedRelation>();
  for (const w of new Set(words)) {
    // Wh-words and "person" ask for an answer type, not a relation: the chain rule uses them.
    if (w.length < 3 || isStopword(w) || /^\d+$/.test(w) || rankerTerms(w).words.length === 0) continue;
    let family = perGraph.families.get(w);
    if (family === undefined) {
      const ranked = ranker.rank(w, undefined, 50);
      const top = ranked[0];
      family = !top || top.score < ASKS_THRESHOLD ? null : ranked.filter((r) => r.score >= FAMILY_SHARE * top.score).map((r) => r.relation);
      if (perGraph.families.size > 10_000) perGraph.families.clear();
      perGraph.families.set(w, family);
    }
    if (!family) continue;
    const key = [...family].sort().join("\u0000");
    const group = groups.get(key);
    if (group) group.words.push(w);
    else groups.set(key, { words: [w], relations: new Set(family) });
  }
  return [...groups.values()];
}

/** The retrieved triples in the connected part of the subgraph that contains `start`. */
function reachableFrom(triples: readonly Triple[], adjacency: ReadonlyMap<string, number[]>, start: readonly string[]): Triple[] {
  const seen = new Set<string>(start);
  const used = new Set<number>();
  let frontier = [...start];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const i of adjacency.get(id) ?? []) {
        const t = triples[i];
        if (!t) continue;
        used.add(i);
        const other = t.subject_id === id ? t.object_id : t.subject_id;
        if (!seen.has(other)) {
          seen.add(other);
          next.push(other);
        }
      }
    }
    frontier = next;
  }
  return [...used].sort((a, b) => a - b).map((i) => triples[i]).filter((t): t is Triple => t !== undefined);
}
