/**
 * KnowledgeGraph → graphify `graph.json`, in graphify's own formatting (`indent=2`, ASCII
 * escapes, no trailing newline), with every original field, key order and number text kept.
 * Graphs that did not come from graphify (triple files, bundles) get the same layout with the
 * fields graphify readers need.
 */
import type { JsonObject, JsonValue } from "../json/lossless-json";
import { stringifyLosslessJson } from "../json/lossless-json";
import type { GraphEdge, GraphNode, KnowledgeGraph } from "../graph/model";

/** The node's record as it should be written: its original record, with edits applied. */
export function nodeRecord(node: GraphNode): JsonObject {
  if (node.attrs.id === node.id) return node.attrs;
  return { ...node.attrs, label: node.label, id: node.id };
}

/** The edge's record, with endpoint fields rewritten if the edge was rewired (e.g. by a merge). */
export function edgeRecord(edge: GraphEdge): JsonObject {
  const r = edge.attrs;
  if (Object.keys(r).length === 0) return { relation: edge.relation, source: edge.source, target: edge.target };
  const hasTrueDirection = "_src" in r || "_tgt" in r;
  const s = hasTrueDirection ? r._src : r.source;
  const t = hasTrueDirection ? r._tgt : r.target;
  const relation = typeof r.relation === "string" ? r.relation : "related_to";
  if (s === edge.source && t === edge.target && relation === edge.relation) return r;
  const out: JsonObject = { ...r, relation: edge.relation };
  if (hasTrueDirection) {
    out._src = edge.source;
    out._tgt = edge.target;
  }
  // networkx stores undirected links with the endpoints in node order; only the direction
  // fields above are authoritative, but stale ids must not survive a rewire.
  if (!hasTrueDirection || (r.source !== edge.source && r.source !== edge.target) || (r.target !== edge.source && r.target !== edge.target)) {
    out.source = edge.source;
    out.target = edge.target;
  }
  return out;
}

export function graphToGraphifyDocument(graph: KnowledgeGraph): JsonObject {
  const { top, linksKey } = graph.meta;
  const nodes: JsonValue[] = [];
  for (const node of graph.nodes.values()) nodes.push(nodeRecord(node));
  const links: JsonValue[] = [];
  for (const edge of graph.edges.values()) links.push(edgeRecord(edge));
  const base: JsonObject =
    Object.keys(top).length > 0 ? top : { directed: true, multigraph: true, graph: {}, nodes: null, [linksKey]: null };
  const out: JsonObject = {};
  for (const key of Object.keys(base)) {
    if (key === "nodes") out.nodes = nodes;
    else if (key === linksKey) out[key] = links;
    // defineProperty: a key named "__proto__" stays data (see lib/json/lossless-json.ts).
    else Object.defineProperty(out, key, { value: base[key], enumerable: true, writable: true, configurable: true });
  }
  return out;
}

export function exportGraphifyJson(graph: KnowledgeGraph): string {
  return stringifyLosslessJson(graphToGraphifyDocument(graph), { indent: 2, ensureAscii: true });
}
