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

/** Options of the streaming writer. */
export interface GraphifyJsonChunkOptions {
  /** Characters gathered before a chunk is yielded (default 64 Ki): large enough to keep writes few, small enough to keep memory flat. */
  chunkSize?: number;
}

const INDENT = 2;
const JSON_OPTIONS = { indent: INDENT, ensureAscii: true } as const;

/**
 * A value printed as it sits `level` levels deep in the document. JSON text never holds a raw
 * newline inside a string (it is escaped), so every newline is a line break that takes the
 * deeper indentation.
 */
function stringifyAt(value: JsonValue, level: number): string {
  const text = stringifyLosslessJson(value, JSON_OPTIONS);
  return level === 0 ? text : text.replaceAll("\n", "\n" + " ".repeat(INDENT * level));
}

/**
 * graph.json as a sequence of text chunks, produced as they are written: joined, they are
 * exactly `exportGraphifyJson(graph)` (the same records, key order and formatting as
 * `stringifyLosslessJson(graphToGraphifyDocument(graph))`), but neither the document's text
 * nor its printed records are ever held whole, so the output costs flat memory and graphs of
 * any size export (one string stops at ~512 MiB, a few million edges).
 *
 * The node and edge lists are taken when this is called (one reference per item): a reader
 * that pulls chunks across awaits (an HTTP response) must keep getting this version even if a
 * commit advances the graph meanwhile, and an advance moves the live maps to the next version.
 */
export function graphifyJsonChunks(graph: KnowledgeGraph, options: GraphifyJsonChunkOptions = {}): Generator<string, void, undefined> {
  return printChunks(graph.meta, [...graph.nodes.values()], [...graph.edges.values()], options.chunkSize ?? 64 * 1024);
}

function* printChunks(meta: KnowledgeGraph["meta"], nodes: GraphNode[], edges: GraphEdge[], chunkSize: number): Generator<string, void, undefined> {
  const { top, linksKey } = meta;
  const base: JsonObject =
    Object.keys(top).length > 0 ? top : { directed: true, multigraph: true, graph: {}, nodes: null, [linksKey]: null };
  let parts: string[] = [];
  let size = 0;
  const push = (text: string): boolean => {
    parts.push(text);
    size += text.length;
    return size >= chunkSize;
  };
  const take = (): string => {
    const chunk = parts.join("");
    parts = [];
    size = 0;
    return chunk;
  };
  // graphToGraphifyDocument's key order: Object.keys(base), copied into a fresh object.
  const keys = Object.keys(base);
  if (keys.length === 0) {
    yield "{}";
    return;
  }
  const keyPad = "\n" + " ".repeat(INDENT);
  const itemPad = "\n" + " ".repeat(INDENT * 2);
  push("{");
  for (const [i, key] of keys.entries()) {
    push(`${i > 0 ? "," : ""}${keyPad}${stringifyLosslessJson(key, JSON_OPTIONS)}: `);
    const records: Iterable<JsonObject> | undefined =
      key === "nodes" ? mapIterable(nodes, nodeRecord) : key === linksKey ? mapIterable(edges, edgeRecord) : undefined;
    if (records === undefined) {
      push(stringifyAt(base[key] as JsonValue, 1));
      continue;
    }
    let first = true;
    for (const record of records) {
      if (push(`${first ? "[" : ","}${itemPad}${stringifyAt(record, 2)}`)) yield take();
      first = false;
    }
    push(first ? "[]" : `${keyPad}]`);
  }
  push("\n}");
  yield take();
}

function* mapIterable<T, U>(items: Iterable<T>, fn: (item: T) => U): Generator<U, void, undefined> {
  for (const item of items) yield fn(item);
}

/** The whole graph.json as one string (small graphs, tests); see graphifyJsonChunks for any size. */
export function exportGraphifyJson(graph: KnowledgeGraph): string {
  return [...graphifyJsonChunks(graph)].join("");
}

/**
 * The chunks as a stream of UTF-8 bytes (an HTTP response body), one chunk printed per pull so
 * the reader paces the printing; `trailer` is appended at the end (e.g. a final newline).
 */
export function graphifyJsonStream(graph: KnowledgeGraph, options: GraphifyJsonChunkOptions & { trailer?: string } = {}): ReadableStream<Uint8Array> {
  const chunks = graphifyJsonChunks(graph, options);
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.next();
      if (!next.done) {
        controller.enqueue(encoder.encode(next.value));
        return;
      }
      if (options.trailer) controller.enqueue(encoder.encode(options.trailer));
      controller.close();
    },
    cancel() {
      chunks.return();
    },
  });
}
