/**
 * The hop loop's step k ≥ 2 (DeepRefine): the 1-hop neighbourhood, both directions, of the
 * entities already retrieved, ranked by relevance to the question and capped. Works from the
 * adjacency index only, so its cost is the entities' degree, never the graph's size.
 *
 * Ranking: an edge scores `focus × (1 + RELATION_SCALE × relation relevance + label relevance of
 * the endpoint it adds)`, plus a bonus when it reaches another question entity. Relation relevance comes from the relation ranker
 * (rank-relations.ts) over the question's words outside its entity mentions, so a title word
 * ("Fall", "Together") neither asks for a relation nor drags its namesake in. `focus` is how
 * close the edge is to what the question names: 1 at a question entity (`findQuestionEntities`:
 * longest exact mentions first), NEAR_FOCUS one edge away, FAR_FOCUS elsewhere — without it, a
 * year or genre reached by the first step ("2004") floods the cap with its thousands of
 * equally relevant edges. Label relevance counts only the words outside the mentions ("send",
 * "request" in "how does Client send a request"; not "Fear" for "Cradle of Fear").
 */
import { DerivedCache } from "../graph/derived-cache";
import type { GraphEdge, KnowledgeGraph, Triple } from "../graph/model";
import { edgeOrdinal, getQueryIndex, isHub, isPartOfBiggerGraph, labelRelevance, nodeEntry, prepareTerms, questionFocus, questionTerms } from "./query-graph";
import { asksForSibling, getRelationRanker } from "./rank-relations";

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
  ordinal: number;
}

export function expandHops({ graph, entities, question, hops = 1, cap, exclude }: ExpandHopsOptions): ExpandHopsResult {
  const index = getQueryIndex(graph);
  const { anchors, relationText } = questionFocus(graph, question);
  // Label words count outside the entity mentions only: "Fear" is not evidence for "Cradle of Fear".
  const terms = prepareTerms(index, questionTerms(anchors.size === 0 ? question : relationText));
  // The most any endpoint's label can add: every term matching exactly.
  const maxLabel = terms.reduce((sum, t) => sum + Math.max(t.idf, t.variantIdf) * t.weight, 0);
  const ranker = getRelationRanker(graph);
  const near = new Set<string>();
  // The relations that join each near node to a question entity: going on through the same
  // relation ("starred" out to the film, "starred" back to its other actors) is a sibling
  // question's path ("also", "same", "together"), not the next relation the question asks for.
  const nearVia = new Map<string, Set<string>>();
  for (const id of anchors) {
    if (graph.degree(id) > MAX_ANCHOR_DEGREE) continue;
    graph.forEachIncident(id, (e) => {
      const other = e.source === id ? e.target : e.source;
      near.add(other);
      let via = nearVia.get(other);
      if (!via) nearVia.set(other, (via = new Set()));
      via.add(e.relation);
    });
  }
  const sibling = asksForSibling(relationText);
  const repeats = (from: string, edge: GraphEdge, other: string) =>
    !sibling && !anchors.has(from) && !anchors.has(other) && (nearVia.get(from)?.has(edge.relation) ?? false);
  const focus = (id: string) => (anchors.size === 0 || anchors.has(id) ? 1 : near.has(id) ? NEAR_FOCUS : FAR_FOCUS);
  const relationScore = new Map<string, number>();
  const relationOf = (relation: string) => {
    let rel = relationScore.get(relation);
    if (rel === undefined) {
      rel = ranker.score(relationText, relation);
      relationScore.set(relation, rel);
    }
    return rel;
  };
  // Only the best `cap` are kept, by binary insertion: a hub entity brings thousands of
  // candidates and sorting them all dominated the cost.
  const best: Candidate[] = [];
  const offer = (c: Candidate) => {
    const worst = best[best.length - 1];
    if (best.length >= cap && worst && !ranksBefore(c, worst)) return;
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const m = best[mid];
      if (m && ranksBefore(c, m)) hi = mid;
      else lo = mid + 1;
    }
    best.splice(lo, 0, c);
    if (best.length > cap) best.pop();
  };
  const taken = new Set<string>();
  const labelScore = new Map<string, number>();
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
    // Closest to the question's entities first: their edges set the bar the others must beat.
    if (anchors.size > 0) frontier.sort((a, b) => focus(b) - focus(a));
    for (const id of frontier) {
      // The given entities are expanded even when hubs (they were asked for); hubs reached on
      // the way are not, or a second hop through "English" would pull in half of MetaQA.
      if (hop > 1 && isHub(index, id)) continue;
      const visitEdge = (edge: GraphEdge) => {
        if (taken.has(edge.key) || exclude?.has(edge.key)) return;
        taken.add(edge.key);
        const other = edge.source === id ? edge.target : edge.source;
        const rel = relationOf(edge.relation);
        let otherScore = labelScore.get(other);
        const entry = nodeEntry(index, other);
        if (otherScore === undefined) {
          otherScore = labelRelevance(entry, terms);
          labelScore.set(other, otherScore);
        }
        const reachesAnchor = anchors.has(other) && !anchors.has(id) ? ANCHOR_BONUS : 0;
        const relevance = Math.max(focus(id), focus(other)) * (1 + RELATION_SCALE * rel * (repeats(id, edge, other) ? REPEAT_FACTOR : 1) + otherScore) + reachesAnchor;
        const newDegree = entry?.degree ?? 0;
        const worst = best.length >= cap ? best[best.length - 1] : undefined;
        // Most candidates of a hub lose to the current worst: skip them before allocating.
        const loses = worst !== undefined && (relevance < worst.relevance || (relevance === worst.relevance && (hop > worst.hop || (hop === worst.hop && newDegree > worst.newDegree))));
        if (!loses) offer({ edge, relevance, hop, newDegree, ordinal: edgeOrdinal(edge.key) });
        if (!reached.has(other)) {
          reached.add(other);
          next.push(other);
        }
      };
      if (graph.degree(id) <= GROUPED_DEGREE) {
        graph.forEachIncident(id, visitEdge);
        continue;
      }
      // A high-degree node ("United States", "Actor": thousands of edges) is read by relation,
      // most relevant relation first, until a budget is spent: its long tail is what expansion
      // ranks last anyway, and reading all of it made one expansion cost 50-70 ms on FB15k-237.
      let spent = 0;
      // Exact pruning: the best an edge of this node can score, given its relation. Groups come
      // most relevant first, so the first group that cannot beat the current worst ends the node.
      const reach = anchors.size === 0 ? Infinity : anchors.has(id) || near.has(id) ? 1 : NEAR_FOCUS;
      const bonus = near.has(id) ? ANCHOR_BONUS : 0;
      for (const group of relationGroups(graph, id, relationOf)) {
        if (spent >= HUB_EDGE_BUDGET && best.length >= cap) break;
        const worst = best.length >= cap ? best[best.length - 1] : undefined;
        const relation = group[0]?.relation;
        if (worst && relation !== undefined && reach * (1 + RELATION_SCALE * relationOf(relation) + maxLabel) + bonus < worst.relevance) break;
        for (const edge of group) {
          if (spent >= HUB_EDGE_BUDGET && best.length >= cap) break;
          visitEdge(edge);
          spent++;
        }
      }
    }
    frontier = next;
  }

  const triples: Triple[] = [];
  const edgeKeys: string[] = [];
  const found: string[] = [];
  const foundSet = new Set<string>();
  for (const c of best) {
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

/** Relevance of an edge one step from a question entity, and further away, relative to at one. */
const NEAR_FOCUS = 0.6;
const FAR_FOCUS = 0.15;
/** A relation the question asks for outweighs a relation it does not, at the same focus. */
const RELATION_SCALE = 2;
/** Relation relevance left to a relation that repeats the one from the question entity. */
const REPEAT_FACTOR = 0.5;
/** An edge that reaches another question entity joins two things the question names. */
const ANCHOR_BONUS = 2;
/** Question entities of higher degree mark no neighbourhood (a genre names thousands of films). */
const MAX_ANCHOR_DEGREE = 2000;

const HUB_EDGE_BUDGET = 250;
/** Nodes above this degree are read relation by relation (and their groups cached). */
const GROUPED_DEGREE = 200;
/**
 * Per graph version: hubs' incident edges grouped by relation. Built for every high-degree node
 * at once ("warm" then means no first-visit cost); a version advanced from one that has them
 * regroups only the nodes the change touched (lib/graph/derived-cache.ts).
 */
const groupCache = new DerivedCache<Map<string, Map<string, GraphEdge[]>>>({
  build(graph) {
    const perNode = new Map<string, Map<string, GraphEdge[]>>();
    // Not for a part of a bigger graph: it reads the adjacency of the nodes expanded only.
    if (!isPartOfBiggerGraph(graph)) for (const nodeId of graph.nodes.keys()) if (graph.degree(nodeId) > GROUPED_DEGREE) perNode.set(nodeId, groupByRelation(graph, nodeId));
    return perNode;
  },
  advance(old, delta, graph) {
    if (isPartOfBiggerGraph(graph)) return null;
    const touched = new Set(delta.nodes);
    for (const key of delta.edges) {
      for (const edge of [delta.previous.edges.get(key), graph.edges.get(key)]) if (edge) touched.add(edge.source).add(edge.target);
    }
    const perNode = new Map(old);
    for (const id of touched) {
      perNode.delete(id);
      if (graph.getNode(id) && graph.degree(id) > GROUPED_DEGREE) perNode.set(id, groupByRelation(graph, id));
    }
    return perNode;
  },
});

/** The hub groups kept for a graph version (tests compare them with grouping afresh). */
export function cachedRelationGroups(graph: KnowledgeGraph): ReadonlyMap<string, ReadonlyMap<string, readonly GraphEdge[]>> {
  return groupCache.get(graph);
}

/** A hub's incident edges grouped by relation (cached per graph), most relevant relation first. */
function relationGroups(graph: KnowledgeGraph, id: string, relevance: (relation: string) => number): GraphEdge[][] {
  const perNode = groupCache.get(graph);
  let groups = perNode.get(id);
  if (!groups) perNode.set(id, (groups = groupByRelation(graph, id)));
  return [...groups.entries()]
    .sort((a, b) => relevance(b[0]) - relevance(a[0]) || a[1].length - b[1].length || (a[0] < b[0] ? -1 : 1))
    .map(([, list]) => list);
}

function groupByRelation(graph: KnowledgeGraph, id: string): Map<string, GraphEdge[]> {
  const groups = new Map<string, GraphEdge[]>();
  graph.forEachIncident(id, (e) => {
    const list = groups.get(e.relation);
    if (list) list.push(e);
    else groups.set(e.relation, [e]);
  });
  return groups;
}

function ranksBefore(a: Candidate, b: Candidate): boolean {
  if (a.relevance !== b.relevance) return a.relevance > b.relevance;
  if (a.hop !== b.hop) return a.hop < b.hop;
  // A low-degree endpoint is a specific fact; a hub endpoint ("English", "1944") is noise.
  if (a.newDegree !== b.newDegree) return a.newDegree < b.newDegree;
  if (a.ordinal !== b.ordinal) return a.ordinal < b.ordinal;
  return a.edge.key < b.edge.key;
}
