/**
 * Read-only views of a stored graph for the explorer UI and its API: ranked node search, a
 * bounded neighbourhood, and one node's details with the source text behind it. Everything
 * returned is plain JSON (no Maps, no LosslessNumber), safe to hand to a client component.
 *
 * Each view is a pure function of a graph (`searchOn`, `neighbourhoodOn`, `nodeDetailsOn`): on
 * graphs retrieved through SQL (over REFINERY_SQL_RETRIEVAL_EDGES on PostgreSQL) the same
 * functions run on a partial graph of what they read (sql-explore.ts, loaded only then), so
 * the explorer gives the same answers without any instance holding the graph.
 */
import { AppError } from "../../errors";
import type { GraphNode, KnowledgeGraph, Triple } from "../../graph/model";
import { normalizeLabel } from "../../graph/normalize";
import { qualifiedName, resolveName } from "../../graph/resolve-name";
import type { NameMatchKind } from "../../graph/resolve-name";
import { documentIdsOf, parseSourceLocation } from "../../import/corpus";
import type { JsonValue } from "../../json/lossless-json";
import { LosslessNumber } from "../../json/lossless-json";
import { findDocuments, loadGraph } from "./graph-store";
import { findSqlRunGraph } from "./sql-run-retrieval";

export type PlainJson = null | boolean | number | string | PlainJson[] | { [key: string]: PlainJson };

export interface NodeSummary {
  id: string;
  label: string;
  community: string | number | null;
  fileType: string | null;
  degree: number;
}

export interface SearchHit extends NodeSummary {
  qualified: string;
  matchedBy: NameMatchKind | "substring";
  score: number;
}

export interface SearchResult {
  q: string;
  hits: SearchHit[];
}

export interface NeighbourhoodEdge {
  key: string;
  source: string;
  target: string;
  relation: string;
  confidence?: string;
}

export interface Neighbourhood {
  center: string;
  depth: number;
  nodes: NodeSummary[];
  edges: NeighbourhoodEdge[];
  /** Some neighbours or edges were left out to respect the limit (a hub). */
  truncated: boolean;
}

export interface SourceLine {
  number: number;
  text: string;
  /** Inside the node's `source_location` range. */
  isFocus: boolean;
}

export type NodeSource =
  | { kind: "file"; docId: string; path: string | null; location: string | null; totalLines: number; lines: SourceLine[] }
  | { kind: "passages"; passages: { docId: string; title: string | null; text: string }[] }
  | { kind: "none"; reason: string };

export interface NodeTriple extends Triple {
  key: string;
}

export interface NodeDetails {
  node: NodeSummary & { sourceFile: string | null; sourceLocation: string | null; attrs: { [key: string]: PlainJson } };
  triples: NodeTriple[];
  /** Incident edges in total; `triples` holds at most MAX_TRIPLES of them. */
  totalTriples: number;
  source: NodeSource;
}

const MAX_TRIPLES = 200;
const MAX_PASSAGES = 12;
const CONTEXT_LINES = 12;

export function toPlainJson(value: JsonValue): PlainJson {
  if (value instanceof LosslessNumber) return Number(value.raw);
  if (Array.isArray(value)) return value.map(toPlainJson);
  if (value !== null && typeof value === "object") {
    // Attribute names come from the imported file: "__proto__" must stay a key, not a prototype.
    const out = Object.create(null) as { [key: string]: PlainJson };
    for (const [k, v] of Object.entries(value)) out[k] = toPlainJson(v);
    return out;
  }
  return value;
}

function summarize(graph: KnowledgeGraph, node: GraphNode): NodeSummary {
  return { id: node.id, label: node.label, community: node.community, fileType: node.fileType, degree: graph.degree(node.id) };
}

function requireNode(graph: KnowledgeGraph, graphName: string, nodeId: string): GraphNode {
  const node = graph.getNode(nodeId);
  if (!node) throw new AppError("NOT_FOUND", `graph ${JSON.stringify(graphName)} has no node with id ${JSON.stringify(nodeId)}`, { nodeId });
  return node;
}

export interface SearchNodesOptions {
  name: string;
  q: string;
  limit?: number;
}

/**
 * The resolver's ranked candidates first (the same ranking review and apply use), then, when
 * those are few, labels that merely contain the query: people type fragments into a search box.
 */
export async function searchNodes({ name, q, limit = 20 }: SearchNodesOptions): Promise<SearchResult> {
  const sql = await findSqlRunGraph(name);
  if (sql) {
    if (!q.trim()) return { q, hits: [] };
    return (await import("./sql-explore")).sqlSearchNodes(sql.source, q, limit, (graph, pool) => searchOn(graph, q, limit, pool));
  }
  const { graph } = await loadGraph(name);
  return searchOn(graph, q, limit);
}

/** searchNodes on `graph`; the substring tier reads `substringPool` (default: every node). */
export function searchOn(graph: KnowledgeGraph, q: string, limit: number, substringPool: Iterable<GraphNode> = graph.nodes.values()): SearchResult {
  const query = q.trim();
  if (!query) return { q, hits: [] };
  const resolution = resolveName({ graph, name: query, limit });
  const hits: SearchHit[] = [];
  const seen = new Set<string>();
  for (const c of resolution.candidates) {
    const node = graph.getNode(c.id);
    if (!node || seen.has(c.id)) continue;
    seen.add(c.id);
    hits.push({ ...summarize(graph, node), qualified: c.qualified, matchedBy: c.matchedBy, score: c.score });
  }
  if (hits.length < limit) {
    const norm = normalizeLabel(query);
    const extra: GraphNode[] = [];
    for (const node of substringPool) {
      if (!seen.has(node.id) && node.normLabel.includes(norm)) extra.push(node);
    }
    extra.sort((a, b) => {
      const pa = a.normLabel.startsWith(norm) ? 0 : 1;
      const pb = b.normLabel.startsWith(norm) ? 0 : 1;
      return pa - pb || graph.degree(b.id) - graph.degree(a.id) || a.label.length - b.label.length || (a.id < b.id ? -1 : 1);
    });
    for (const node of extra.slice(0, limit - hits.length)) {
      hits.push({ ...summarize(graph, node), qualified: qualifiedName(graph, node.id), matchedBy: "substring", score: 0 });
    }
  }
  return { q, hits };
}

export interface FindHubNodesOptions {
  name: string;
  limit?: number;
}

/** The highest-degree nodes: where to start when nothing is selected yet. */
export async function findHubNodes({ name, limit = 12 }: FindHubNodesOptions): Promise<NodeSummary[]> {
  const sql = await findSqlRunGraph(name);
  if (sql) return (await import("./sql-explore")).sqlFindHubNodes(sql.source, limit);
  const { graph } = await loadGraph(name);
  // The first `limit` nodes by degree (descending), ties in graph order: sql-explore.ts relies on this.
  const top: NodeSummary[] = [];
  for (const node of graph.nodes.values()) {
    const summary = summarize(graph, node);
    if (top.length < limit || summary.degree > (top[top.length - 1]?.degree ?? 0)) {
      top.push(summary);
      top.sort((a, b) => b.degree - a.degree);
      if (top.length > limit) top.pop();
    }
  }
  return top;
}

export interface GetNeighbourhoodOptions {
  name: string;
  nodeId: string;
  depth?: number;
  /** Maximum nodes, the centre included. */
  limit?: number;
}

/**
 * Nodes within `depth` hops and the edges among them. Neighbours are taken in stored edge
 * order until `limit` nodes are in, so a hub shows a stable, deterministic slice and says it
 * was cut (`truncated`) rather than freezing the browser with thousands of nodes.
 */
export async function getNeighbourhood({ name, nodeId, depth = 1, limit = 150 }: GetNeighbourhoodOptions): Promise<Neighbourhood> {
  const sql = await findSqlRunGraph(name);
  if (sql) {
    const { settleExplore } = await import("./sql-explore");
    return (await settleExplore(sql.source, (graph) => neighbourhoodOn(graph, name, nodeId, depth, limit))).result;
  }
  const { graph } = await loadGraph(name);
  return neighbourhoodOn(graph, name, nodeId, depth, limit);
}

export function neighbourhoodOn(graph: KnowledgeGraph, name: string, nodeId: string, depth: number, limit: number): Neighbourhood {
  const center = requireNode(graph, name, nodeId);
  const included = new Set<string>([center.id]);
  let truncated = false;
  let frontier = [center.id];
  for (let hop = 0; hop < depth && frontier.length > 0; hop++) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const edge of graph.incidentEdges(id)) {
        const other = edge.source === id ? edge.target : edge.source;
        if (included.has(other)) continue;
        if (included.size >= limit) {
          truncated = true;
          continue;
        }
        included.add(other);
        next.push(other);
      }
    }
    frontier = next;
  }
  const maxEdges = limit * 4;
  const edges: NeighbourhoodEdge[] = [];
  const seenEdges = new Set<string>();
  for (const id of included) {
    for (const edge of graph.incidentEdges(id)) {
      if (seenEdges.has(edge.key) || !included.has(edge.source) || !included.has(edge.target)) continue;
      seenEdges.add(edge.key);
      if (edges.length >= maxEdges) {
        truncated = true;
        continue;
      }
      const confidence = edge.attrs.confidence;
      edges.push({
        key: edge.key,
        source: edge.source,
        target: edge.target,
        relation: edge.relation,
        ...(typeof confidence === "string" ? { confidence } : {}),
      });
    }
  }
  const nodes = [...included].map((id) => summarize(graph, graph.getNode(id) as GraphNode));
  return { center: center.id, depth, nodes, edges, truncated };
}

export interface GetNodeDetailsOptions {
  name: string;
  nodeId: string;
}

export async function getNodeDetails({ name, nodeId }: GetNodeDetailsOptions): Promise<NodeDetails> {
  const sql = await findSqlRunGraph(name);
  if (sql) {
    const { settleExplore } = await import("./sql-explore");
    const { graph, result: details } = await settleExplore(sql.source, (g) => nodeDetailsOn(g, name, nodeId));
    return { ...details, source: await findNodeSource(sql.source.graphId, graph, graph.getNode(nodeId) as GraphNode) };
  }
  const { graphId, graph } = await loadGraph(name);
  const details = nodeDetailsOn(graph, name, nodeId);
  return { ...details, source: await findNodeSource(graphId, graph, graph.getNode(nodeId) as GraphNode) };
}

/** Everything of getNodeDetails but the source text; reads the node and its incident edges. */
export function nodeDetailsOn(graph: KnowledgeGraph, name: string, nodeId: string): Omit<NodeDetails, "source"> {
  const node = requireNode(graph, name, nodeId);
  const incident = graph.incidentEdges(node.id);
  const triples = incident.slice(0, MAX_TRIPLES).map((e) => ({ key: e.key, ...graph.toTriple(e) }));
  const attrs = toPlainJson(node.attrs) as { [key: string]: PlainJson };
  return {
    node: { ...summarize(graph, node), sourceFile: node.sourceFile, sourceLocation: node.sourceLocation, attrs },
    triples,
    totalTriples: incident.length,
  };
}

/** Reads the node and its incident edges (source passages) of `graph`, then the stored documents. */
async function findNodeSource(graphId: string, graph: KnowledgeGraph, node: GraphNode): Promise<NodeSource> {
  if (node.sourceFile) {
    const [doc] = await findDocuments(graphId, [node.sourceFile]);
    if (!doc) return { kind: "none", reason: `the source file ${node.sourceFile} was not found when the graph was imported` };
    return { kind: "file", docId: doc.docId, path: doc.path, location: node.sourceLocation, ...sourceWindow(doc.text, node.sourceLocation) };
  }
  const passageIds: string[] = [];
  for (const item of [node, ...graph.incidentEdges(node.id)]) {
    const passage = item.attrs.source_passage;
    if (typeof passage === "string" && !passageIds.includes(passage)) passageIds.push(passage);
    if (passageIds.length >= MAX_PASSAGES) break;
  }
  if (passageIds.length === 0) {
    const cited = documentIdsOf(node).length > 0;
    return { kind: "none", reason: cited ? "the text this node cites is not stored" : "this graph records no source text for this node" };
  }
  const docs = await findDocuments(graphId, passageIds);
  const byId = new Map(docs.map((d) => [d.docId, d]));
  const passages = passageIds.flatMap((id) => {
    const d = byId.get(id);
    return d ? [{ docId: d.docId, title: d.title, text: d.text }] : [];
  });
  if (passages.length === 0) return { kind: "none", reason: "the passages its edges cite are not stored" };
  return { kind: "passages", passages };
}

/** The lines around `location` (±CONTEXT_LINES), or the head of the file when it has none. */
function sourceWindow(text: string, location: string | null): { totalLines: number; lines: SourceLine[] } {
  const all = text.split(/\r?\n/);
  const range = parseSourceLocation(location);
  const focusStart = range ? Math.min(range.start, all.length) : 0;
  // A class spanning 300 lines would bury its first line; highlight at most a screenful.
  const focusEnd = range ? Math.min(range.end, focusStart + 2 * CONTEXT_LINES, all.length) : -1;
  const first = range ? Math.max(1, focusStart - CONTEXT_LINES) : 1;
  const last = range ? Math.min(all.length, focusEnd + CONTEXT_LINES) : Math.min(all.length, 2 * CONTEXT_LINES + 1);
  const lines: SourceLine[] = [];
  for (let n = first; n <= last; n++) {
    lines.push({ number: n, text: all[n - 1] ?? "", isFocus: n >= focusStart && n <= focusEnd });
  }
  return { totalLines: all.length, lines };
}
