/**
 * Graph evidence for an action: edges between its endpoints, the shortest path within k hops,
 * and how the relation is used elsewhere. Everything here reads the graph only.
 */
import type { GraphEdge, GraphNode, KnowledgeGraph } from "../graph/model";
import { normalizeLabel } from "../graph/normalize";

/** Relation spelling for comparisons: case, `_`/`-`/spaces folded ("published_by" = "Published by"). */
export function normalizeRelation(relation: string): string {
  const spaced = relation.replace(/[_-]+/g, " ");
  // Printable ASCII needs no Unicode normalisation, which is the slow part (5k relations on MuSiQue).
  return /^[\x20-\x7e]*$/.test(spaced) ? spaced.toLowerCase().replace(/\s+/g, " ").trim() : normalizeLabel(spaced);
}

/** Edges between two nodes in either direction (stored direction kept on each edge). */
export function edgesBetween(graph: KnowledgeGraph, a: string, b: string): GraphEdge[] {
  const out = graph.outEdges(a).filter((e) => e.target === b);
  if (a !== b) out.push(...graph.outEdges(b).filter((e) => e.target === a));
  return out;
}

/**
 * The shortest path between two nodes within `maxHops`, over edges in both directions, as the
 * edges in order from `from` to `to` (each in its stored direction), or null. Bidirectional
 * breadth-first search, expanding the smaller frontier a whole level at a time: a hub on one
 * side (MuSiQue's "United States") is then not expanded three levels deep. Ties go to the first
 * edge in adjacency order, so the answer is deterministic.
 */
export function shortestPath({
  graph,
  from,
  to,
  maxHops,
}: {
  graph: KnowledgeGraph;
  from: string;
  to: string;
  maxHops: number;
}): GraphEdge[] | null {
  if (from === to || maxHops < 1) return null;
  // node → edge that reached it (null for the side's root)
  const seenA = new Map<string, GraphEdge | null>([[from, null]]);
  const seenB = new Map<string, GraphEdge | null>([[to, null]]);
  let frontierA = [from];
  let frontierB = [to];
  let hops = 0;
  while (hops < maxHops && frontierA.length > 0 && frontierB.length > 0) {
    const expandA = frontierA.length <= frontierB.length;
    const [frontier, seen, other] = expandA ? [frontierA, seenA, seenB] : [frontierB, seenB, seenA];
    const next: string[] = [];
    let meet: { node: string; edge: GraphEdge } | null = null;
    for (const u of frontier) {
      for (const e of graph.incidentEdges(u)) {
        const v = e.source === u ? e.target : e.source;
        if (seen.has(v)) continue;
        seen.set(v, e);
        next.push(v);
        if (other.has(v)) {
          meet = { node: v, edge: e };
          break;
        }
      }
      if (meet) break;
    }
    hops++;
    if (meet) return joinPath(meet.node, seenA, seenB);
    if (expandA) frontierA = next;
    else frontierB = next;
  }
  return null;
}

function walk(node: string, seen: Map<string, GraphEdge | null>): GraphEdge[] {
  const out: GraphEdge[] = [];
  let at = node;
  for (let e = seen.get(at); e; e = seen.get(at)) {
    out.push(e);
    at = e.source === at ? e.target : e.source;
  }
  return out;
}

function joinPath(meet: string, seenA: Map<string, GraphEdge | null>, seenB: Map<string, GraphEdge | null>): GraphEdge[] {
  return [...walk(meet, seenA).reverse(), ...walk(meet, seenB)];
}

// ---------------------------------------------------------------------------------------------
// Relation usage

export interface RelationInfo {
  /** The most frequent spelling in the graph. */
  name: string;
  edges: GraphEdge[];
}

/** Edges by normalised relation, built once per review (O(edges)). */
export class RelationIndex {
  readonly byRelation: Map<string, RelationInfo>;
  private readonly wordCache = new Map<string, string[]>();

  /** `groups`: the groups of `graph` already made (a version's index advanced from its previous one's). */
  constructor(
    readonly graph: KnowledgeGraph,
    groups?: Map<string, RelationInfo>,
  ) {
    this.byRelation = groups ?? new Map<string, RelationInfo>();
    if (groups) return;
    // Group by raw spelling first: normalising (NFKC/NFKD) per edge costs ~100 ms on MuSiQue's
    // 17k edges, per distinct spelling (5k) a few.
    const raw = new Map<string, GraphEdge[]>();
    for (const e of graph.edges.values()) {
      const list = raw.get(e.relation);
      if (list) list.push(e);
      else raw.set(e.relation, [e]);
    }
    const best = new Map<string, number>();
    for (const [relation, edges] of raw) {
      const key = normalizeRelation(relation);
      const info = this.byRelation.get(key);
      if (!info) {
        this.byRelation.set(key, { name: relation, edges });
        best.set(key, edges.length);
        continue;
      }
      // The most frequent spelling names the group (ties: first seen).
      if (edges.length > (best.get(key) ?? 0)) {
        info.name = relation;
        best.set(key, edges.length);
      }
      info.edges = info.edges.concat(edges);
    }
  }

  get(relation: string): RelationInfo | undefined {
    return this.byRelation.get(normalizeRelation(relation));
  }

  /** `fn(relation)`, memoised per relation name (relation words for similarity). */
  words(relation: string, fn: (relation: string) => string[]): string[] {
    let w = this.wordCache.get(relation);
    if (!w) this.wordCache.set(relation, (w = fn(relation)));
    return w;
  }
}

/** A node's "type" for comparing relation usage: graphify's file_type, or nothing. */
function sameType(a: GraphNode | undefined, b: GraphNode): boolean {
  return a !== undefined && a.fileType !== null && a.fileType === b.fileType;
}

function sameCommunity(a: GraphNode | undefined, b: GraphNode): boolean {
  return a !== undefined && a.community !== null && a.community === b.community;
}

export interface RelationUsage {
  relation: string;
  total: number;
  /** Edges of this relation whose endpoints have the subject's and object's file_type. */
  sameTypes: number | null;
  /** Edges of this relation whose endpoints lie in the subject's and object's communities. */
  sameCommunities: number | null;
  /** How often the subject already uses the relation (outgoing) and the object receives it. */
  subjectOut: number;
  objectIn: number;
}

export function relationUsage({
  index,
  relation,
  subject,
  object,
}: {
  index: RelationIndex;
  relation: string;
  subject: GraphNode;
  object: GraphNode;
}): RelationUsage | null {
  const info = index.get(relation);
  if (!info) return null;
  const graph = index.graph;
  const typed = subject.fileType !== null && object.fileType !== null;
  const communities = subject.community !== null && object.community !== null;
  let sameTypes = 0;
  let sameCommunities = 0;
  let subjectOut = 0;
  let objectIn = 0;
  for (const e of info.edges) {
    if (e.source === subject.id) subjectOut++;
    if (e.target === object.id) objectIn++;
    // Node lookups only where kinds or communities are compared (a triple graph has neither).
    if (!typed && !communities) continue;
    const s = graph.getNode(e.source);
    const t = graph.getNode(e.target);
    if (typed && sameType(s, subject) && t && sameType(t, object)) sameTypes++;
    if (communities && sameCommunity(s, subject) && t && sameCommunity(t, object)) sameCommunities++;
  }
  return {
    relation: info.name,
    total: info.edges.length,
    sameTypes: typed ? sameTypes : null,
    sameCommunities: communities ? sameCommunities : null,
    subjectOut,
    objectIn,
  };
}

/** Relations in use between nodes shaped like these (same file types, else any), with counts. */
export function relationsBetweenSimilar({
  index,
  subject,
  object,
}: {
  index: RelationIndex;
  subject: GraphNode | null;
  object: GraphNode | null;
}): Array<{ relation: string; count: number; similar: number }> {
  const graph = index.graph;
  const out: Array<{ relation: string; count: number; similar: number }> = [];
  for (const info of index.byRelation.values()) {
    let similar = 0;
    if (subject?.fileType || object?.fileType) {
      for (const e of info.edges) {
        const s = graph.getNode(e.source);
        const t = graph.getNode(e.target);
        if ((!subject?.fileType || (s && sameType(s, subject))) && (!object?.fileType || (t && sameType(t, object)))) similar++;
      }
    } else similar = info.edges.length;
    out.push({ relation: info.name, count: info.edges.length, similar });
  }
  return out;
}
