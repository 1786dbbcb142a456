/**
 * `neighbor_search(h, r)`: the nodes joined to h through relation r, in both directions (the
 * question decides which way it reads; "films starred by X" walks `starred_actors` backwards),
 * capped. The result is an answer set: each neighbour with the triples that reach it, ranked by
 * how many head members reach it (the best-supported answer of a 2-hop chain first).
 */
import type { KnowledgeGraph, Triple } from "../graph/model";
import type { AskEntity } from "./types";

export const NEIGHBOR_LIMIT = 200;
/** Triples shown in <neighbor_information>; the set itself keeps up to NEIGHBOR_LIMIT. */
export const NEIGHBOR_TEXT_LIMIT = 40;

export interface NeighborResult {
  entities: Array<AskEntity & { id: string; support: number }>;
  triples: Triple[];
  /** Neighbours dropped by the cap. */
  truncated: number;
}

export interface SearchNeighborsOptions {
  graph: KnowledgeGraph;
  heads: readonly AskEntity[];
  relation: string;
  /** Nodes never returned (the heads themselves by default: "co-directors of X" excludes X). */
  exclude?: ReadonlySet<string>;
  limit?: number;
}

export function searchNeighbors({ graph, heads, relation, exclude, limit = NEIGHBOR_LIMIT }: SearchNeighborsOptions): NeighborResult {
  const headIds = new Set(heads.map((h) => h.id).filter((id): id is string => id !== null));
  const skip = exclude ?? headIds;
  const found = new Map<string, { support: Set<string>; triples: Triple[]; first: number }>();
  let order = 0;
  for (const id of headIds) {
    graph.forEachIncident(id, (e) => {
      if (e.relation !== relation) return;
      const other = e.source === id ? e.target : e.source;
      if (skip.has(other)) return;
      let f = found.get(other);
      if (!f) found.set(other, (f = { support: new Set(), triples: [], first: order++ }));
      if (!f.support.has(id) || f.triples.length < 3) f.triples.push(graph.toTriple(e));
      f.support.add(id);
    });
  }
  const ranked = [...found.entries()].sort((a, b) => b[1].support.size - a[1].support.size || a[1].first - b[1].first);
  const kept = ranked.slice(0, limit);
  return {
    entities: kept.map(([id, f]) => ({ id, label: graph.getNode(id)?.label ?? id, support: f.support.size })),
    triples: kept.flatMap(([, f]) => f.triples),
    truncated: ranked.length - kept.length,
  };
}

/** The text inside <neighbor_information>. */
export function formatNeighbors({ heads, relation, result }: { heads: readonly AskEntity[]; relation: string; result: NeighborResult }): string {
  const who = heads.length === 1 ? (heads[0]?.label ?? "") : `${heads.length} entities`;
  if (result.entities.length === 0) return `No neighbors of ${who} through ${relation}.`;
  const shown = result.triples.slice(0, NEIGHBOR_TEXT_LIMIT).map((t) => `${t.subject} | ${t.relation} | ${t.object}`);
  const hidden = result.triples.length - shown.length;
  const names = result.entities.slice(0, NEIGHBOR_TEXT_LIMIT).map((e) => e.label);
  const more = result.entities.length - names.length + result.truncated;
  return [
    ...shown,
    ...(hidden > 0 ? [`… ${hidden} more triples`] : []),
    `Neighbors (${result.entities.length + result.truncated}): ${names.join("; ")}${more > 0 ? `; … ${more} more` : ""}`,
  ].join("\n");
}
