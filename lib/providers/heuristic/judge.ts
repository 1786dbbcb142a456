/**
 * Heuristic answerability: the question is answerable (Yes) when
 * - every question entity (see `findQuestionEntities`) touches a retrieved triple, and
 * - with one entity: a retrieved triple at that entity has a relation matching the question's
 *   relation words; with several: the retrieved triples connect them all (an undirected path
 *   from the first to each other one) and a relation on those paths, or at one of the entities,
 *   matches the question's relation words.
 * "Matches" is stem overlap after light stemming plus a small synonym table (`questionStems`):
 * "directed" meets `directed_by`, "born" meets `place_of_birth`, "who" meets `written_by`.
 * A question left with no relation words at all only needs the entities connected.
 * Multi-hop questions must also have at least half of their relation words covered by relations
 * of the triples reachable from the entities: "the first president of the association which
 * published X" is not answerable from `X published_by Y` alone (the word "president" is not).
 */
import type { KnowledgeGraph, Triple } from "../../graph/model";
import { findQuestionEntities } from "./question-entities";
import { matchedStems, questionStemGroups, questionStems } from "./text";

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

/**
 * Does the part of the retrieved subgraph reachable from the entities cover at least half of the
 * question's relation words (rounded up)? Returns the uncovered words' stems when it does not.
 */
function uncoveredRelationWords(relationWords: readonly string[], reachable: readonly Triple[]): string[] | null {
  const groups = questionStemGroups(relationWords);
  if (groups.length <= 1) return null;
  const covered = groups.filter((g) => reachable.some((t) => matchedStems(t.relation, g).length > 0));
  if (covered.length >= Math.ceil(groups.length / 2)) return null;
  return groups.filter((g) => !covered.includes(g)).map((g) => g[0] ?? "");
}

export function judgeAnswerable({ graph, question, triples }: JudgeOptions): JudgeVerdict {
  const { mentions, missing, relationWords } = findQuestionEntities({ graph, question });
  const missingTopic = missing.find((m) => m.bracketed);
  if (missingTopic) return { answerable: false, reason: `the topic entity "${missingTopic.text}" is not in the graph` };
  if (mentions.length === 0) return { answerable: false, reason: "no question entity names a node of the graph" };

  const stems = questionStems(relationWords);
  const matches = (t: Triple) => stems.length === 0 || matchedStems(t.relation, stems).length > 0;

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

  const incident = touched.flatMap((ids) => ids.flatMap((id) => adjacency.get(id) ?? []));
  if (mentions.length === 1) {
    const hit = incident.map((i) => triples[i]).find((t): t is Triple => t !== undefined && matches(t));
    const gap = hit ? uncoveredRelationWords(relationWords, reachableFrom(triples, adjacency, touched[0] ?? [])) : null;
    if (gap) return { answerable: false, reason: `"${mentions[0]?.text}" is found, but nothing retrieved covers "${gap.join('", "')}"` };
    return hit
      ? { answerable: true, reason: `"${mentions[0]?.text}" has a matching relation: ${show(hit)}` }
      : { answerable: false, reason: `no retrieved relation at "${mentions[0]?.text}" matches the question's words` };
  }

  // Breadth-first over the retrieved triples from the first entity; parents give the paths.
  const startIds = touched[0] ?? [];
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
  const pathEdges = new Set<number>();
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
  const hit = [...pathEdges, ...incident].map((i) => triples[i]).find((t): t is Triple => t !== undefined && matches(t));
  const names = mentions.map((m) => `"${m.text}"`).join(", ");
  const gap = hit ? uncoveredRelationWords(relationWords, reachableFrom(triples, adjacency, startIds)) : null;
  if (gap) return { answerable: false, reason: `${names} are connected, but nothing retrieved covers "${gap.join('", "')}"` };
  return hit
    ? { answerable: true, reason: `${names} are connected; matching relation: ${show(hit)}` }
    : { answerable: false, reason: `${names} are connected but no relation matches the question's words` };
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
