/**
 * The review's relation index (edges by normalised relation, graph-evidence.ts) kept per graph
 * version and advanced with it (lib/graph/derived-cache.ts): a version advanced from one that
 * has it regroups only the relations its change touched, in the order a build gives.
 */
import { DerivedCache, type GraphDelta } from "../graph/derived-cache";
import type { GraphEdge, KnowledgeGraph } from "../graph/model";
import { normalizeRelation, RelationIndex, type RelationInfo } from "./graph-evidence";

const ordOf = (e: GraphEdge) => e.ord ?? Number.POSITIVE_INFINITY;

/**
 * A group as a build makes it: spellings in order of their first edge, each spelling's edges in
 * graph order; named by the most frequent spelling (ties: the first seen).
 */
function groupOf(edges: GraphEdge[]): RelationInfo {
  const bySpelling = new Map<string, GraphEdge[]>();
  for (const e of edges) {
    const list = bySpelling.get(e.relation);
    if (list) list.push(e);
    else bySpelling.set(e.relation, [e]);
  }
  const spellings = [...bySpelling.values()].map((list) => list.sort((a, b) => ordOf(a) - ordOf(b)));
  spellings.sort((a, b) => ordOf(a[0] as GraphEdge) - ordOf(b[0] as GraphEdge));
  let name = (spellings[0]?.[0] as GraphEdge).relation;
  let best = 0;
  for (const list of spellings) {
    if (list.length > best) {
      name = (list[0] as GraphEdge).relation;
      best = list.length;
    }
  }
  return { name, edges: spellings.flat() };
}

/** Where an edge at `ord` goes in a list sorted by ord. */
function placeOf(list: readonly GraphEdge[], ord: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ordOf(list[mid] as GraphEdge) < ord) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function advance(old: RelationIndex, delta: GraphDelta, graph: KnowledgeGraph): RelationIndex {
  const touched = new Set<string>();
  for (const key of delta.edges) {
    for (const e of [delta.previous.edges.get(key), graph.edges.get(key)]) if (e) touched.add(normalizeRelation(e.relation));
  }
  if (touched.size === 0) return new RelationIndex(graph, old.byRelation);
  const added = new Map<string, GraphEdge[]>();
  for (const key of delta.edges) {
    const e = graph.edges.get(key);
    if (!e) continue;
    const group = normalizeRelation(e.relation);
    const list = added.get(group);
    if (list) list.push(e);
    else added.set(group, [e]);
  }
  const groups: [string, RelationInfo][] = [];
  for (const [group, info] of old.byRelation) if (!touched.has(group)) groups.push([group, info]);
  for (const group of touched.keys()) {
    const kept = (old.byRelation.get(group)?.edges ?? []).filter((e) => !delta.edges.has(e.key));
    const fresh = added.get(group) ?? [];
    if (kept.length + fresh.length === 0) continue;
    const info = old.byRelation.get(group);
    // One spelling before and after (the common case): the new edges go in at their place.
    if (info && fresh.every((e) => e.relation === info.name) && kept.every((e) => e.relation === info.name)) {
      for (const e of fresh.sort((a, b) => ordOf(a) - ordOf(b))) kept.splice(placeOf(kept, ordOf(e)), 0, e);
      groups.push([group, { name: info.name, edges: kept }]);
    } else groups.push([group, groupOf([...kept, ...fresh])]);
  }
  // Groups in order of their first edge, as a build meets them.
  groups.sort((a, b) => ordOf(a[1].edges[0] as GraphEdge) - ordOf(b[1].edges[0] as GraphEdge));
  return new RelationIndex(graph, new Map(groups));
}

/** One relation index per graph version, reused across review calls. */
export const relationIndexes = new DerivedCache<RelationIndex>({ build: (graph) => new RelationIndex(graph), advance });
