/**
 * The hop loop's step k ≥ 2 (DeepRefine): the 1-hop neighbourhood, both directions, of the
 * entities already retrieved, ranked by relevance to the question and capped. Works from the
 * adjacency index only, so its cost is the entities' degree, never the graph's size.
 */
import type { GraphEdge, KnowledgeGraph, Triple } from "../graph/model";
import {
  compareEdgeKeys,
  getQueryIndex,
  isHub,
  labelRelevance,
  prepareTerms,
  questionTerms,
  relationRelevance,
} from "./query-graph";

export interface ExpandHopsOptions {
  graph: KnowledgeGraph;
  /** Node ids to expand from; unknown ids are ignored. */
  entities: readonly string[];
  question: string;
  hops?: number;
  /** Maximum triples returned. */
  cap: number;
  /** Edge keys already retrieved in earlier steps. */
  exclude?: ReadonlySet<string>;
}

export interface ExpandHopsResult {
  /** Ranked most relevant first, each in the edge's stored direction. */
  triples: Triple[];
  edgeKeys: string[];
  /** Endpoints of the returned triples, first appearance order: the next step's entities. */
  entities: string[];
}

interface Candidate {
  edge: GraphEdge;
  relevance: number;
  hop: number;
  newDegree: number;
}

export function expandHops({ graph, entities, question, hops = 1, cap, exclude }: ExpandHopsOptions): ExpandHopsResult {
  const index = getQueryIndex(graph);
  const terms = prepareTerms(index, questionTerms(question));
  const candidates = new Map<string, Candidate>();
  const reached = new Set<string>();
  let frontier: string[] = [];
  for (const id of entities) {
    if (graph.nodes.has(id) && !reached.has(id)) {
      reached.add(id);
      frontier.push(id);
    }
  }

  for (let hop = 1; hop <= hops && frontier.length > 0 && cap > 0; hop++) {
    const next: string[] = [];
    for (const id of frontier) {
      // The given entities are expanded even when hubs (they were asked for); hubs reached on
      // the way are not, or a second hop through "English" would pull in half of MetaQA.
      if (hop > 1 && isHub(index, id)) continue;
      for (const edge of graph.incidentEdges(id)) {
        if (exclude?.has(edge.key) || candidates.has(edge.key)) continue;
        const other = edge.source === id ? edge.target : edge.source;
        candidates.set(edge.key, {
          edge,
          // Relation + the endpoint this edge adds; the endpoint we came from says nothing new.
          relevance: relationRelevance(index, edge.relation, terms) + labelRelevance(index, other, terms),
          hop,
          newDegree: graph.degree(other),
        });
        if (!reached.has(other)) {
          reached.add(other);
          next.push(other);
        }
      }
    }
    frontier = next;
  }

  const ranked = [...candidates.values()].sort(
    (a, b) =>
      b.relevance - a.relevance ||
      a.hop - b.hop ||
      // A low-degree endpoint is a specific fact; a hub endpoint ("English", "1944") is noise.
      a.newDegree - b.newDegree ||
      compareEdgeKeys(a.edge.key, b.edge.key),
  );

  const triples: Triple[] = [];
  const edgeKeys: string[] = [];
  const found: string[] = [];
  const foundSet = new Set<string>();
  for (const c of ranked.slice(0, Math.max(0, cap))) {
    triples.push(graph.toTriple(c.edge));
    edgeKeys.push(c.edge.key);
    for (const id of [c.edge.source, c.edge.target]) {
      if (!foundSet.has(id)) {
        foundSet.add(id);
        found.push(id);
      }
    }
  }
  return { triples, edgeKeys, entities: found };
}
