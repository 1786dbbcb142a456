/**
 * `relation_search(h, r)`: the relations of h (both directions; over every member when h is an
 * answer set) most relevant to r, best first, through the one relation ranker. Relations the
 * ranker scores 0 still fill the list up to the limit, most frequent first: the model chooses,
 * and a relation it cannot see it cannot choose.
 */
import type { KnowledgeGraph } from "../graph/model";
import { getRelationRanker } from "../retrieve/rank-relations";
import type { AskEntity } from "./types";

export const RELATION_SEARCH_LIMIT = 15;

export interface RelationCandidate {
  relation: string;
  score: number;
  /** Edges with a head member as subject / as object. */
  outgoing: number;
  incoming: number;
}

export interface SearchRelationsOptions {
  graph: KnowledgeGraph;
  heads: readonly AskEntity[];
  /** The relation words the sub-problem asks for (the `r` of the call, or the question). */
  text: string;
  limit?: number;
}

export function searchRelations({ graph, heads, text, limit = RELATION_SEARCH_LIMIT }: SearchRelationsOptions): RelationCandidate[] {
  const counts = new Map<string, { outgoing: number; incoming: number }>();
  for (const head of heads) {
    if (head.id === null) continue;
    const id = head.id;
    graph.forEachIncident(id, (e) => {
      let c = counts.get(e.relation);
      if (!c) counts.set(e.relation, (c = { outgoing: 0, incoming: 0 }));
      if (e.source === id) c.outgoing++;
      else c.incoming++;
    });
  }
  if (counts.size === 0) return [];
  const ranked = getRelationRanker(graph).rank(text, counts.keys(), limit);
  const out: RelationCandidate[] = ranked.map((r) => ({ relation: r.relation, score: r.score, ...(counts.get(r.relation) ?? { outgoing: 0, incoming: 0 }) }));
  const seen = new Set(out.map((r) => r.relation));
  const rest = [...counts.entries()]
    .filter(([relation]) => !seen.has(relation))
    .sort((a, b) => b[1].outgoing + b[1].incoming - (a[1].outgoing + a[1].incoming) || a[0].localeCompare(b[0]));
  for (const [relation, c] of rest) {
    if (out.length >= limit) break;
    out.push({ relation, score: 0, ...c });
  }
  return out;
}

/** The text inside <relation_information>. */
export function formatRelations({ heads, relations }: { heads: readonly AskEntity[]; relations: readonly RelationCandidate[] }): string {
  const who = heads.length === 1 ? (heads[0]?.label ?? "") : `${heads.length} entities`;
  if (relations.length === 0) return `${who} has no relations in the graph.`;
  const lines = relations.map((r, i) => {
    const dirs = [r.outgoing ? `${r.outgoing} outgoing` : "", r.incoming ? `${r.incoming} incoming` : ""].filter(Boolean).join(", ");
    return `${i + 1}. ${r.relation} (${dirs})`;
  });
  return `Relations of ${who}, most relevant first:\n${lines.join("\n")}`;
}
