/**
 * KnowledgeGraph → graphify `graph.json`, in graphify's own formatting (`indent=2`, ASCII
 * escapes, no trailing newline), with every original field, key order and number text kept.
 * Graphs that did not come from graphify (triple files, bundles) get the same layout with the
 * fields graphify readers need.
 */
import type { JsonObject, JsonValue } from "../json/lossless-json";
import { stringifyLosslessJson } from "../json/lossless-json";
import type { GraphEdge, GraphMeta, GraphNode, KnowledgeGraph } from "../graph/model";

/** The node's record as it should be written: its original record, with edits applied. */
export function nodeRecord(node: Pick<GraphNode, "id" | "label" | "attrs">): JsonObject {
  if (node.attrs.id === node.id) return node.attrs;
  return { ...node.attrs, label: node.label, id: node.id };
}

/** The edge's record, with endpoint fields rewritten if the edge was rewired (e.g. by a merge). */
export function edgeRecord(edge: Pick<GraphEdge, "source" | "target" | "relation" | "attrs">): JsonObject {
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

function* printChunks(meta: GraphMeta, nodes: GraphNode[], edges: GraphEdge[], chunkSize: number): Generator<string, void, undefined> {
  const printer = new GraphifyPrinter(chunkSize);
  for (const part of graphifyFrame(meta)) {
    if (typeof part === "string") {
      printer.text(part);
      continue;
    }
    if (part.list === "nodes") {
      for (const node of nodes) if (printer.record(nodeRecord(node))) yield printer.take();
    } else for (const edge of edges) if (printer.record(edgeRecord(edge))) yield printer.take();
    printer.endList();
  }
  yield printer.take();
}

/** A piece of the document's frame: text, or the place of one of its record lists. */
export type GraphifyFramePart = string | { list: "nodes" | "links" };

/**
 * The document around its two record lists, in graphToGraphifyDocument's key order
 * (Object.keys of the top record, copied into a fresh object): text to print as it is, and
 * where the node list and the edge list (under the graph's own linksKey) go. Shared with the
 * export straight from stored rows (export-graphify-rows.ts).
 */
export function graphifyFrame(meta: GraphMeta): GraphifyFramePart[] {
  const { top, linksKey } = meta;
  const base: JsonObject =
    Object.keys(top).length > 0 ? top : { directed: true, multigraph: true, graph: {}, nodes: null, [linksKey]: null };
  const keys = Object.keys(base);
  if (keys.length === 0) return ["{}"];
  const keyPad = "\n" + " ".repeat(INDENT);
  const parts: GraphifyFramePart[] = ["{"];
  for (const [i, key] of keys.entries()) {
    parts.push(`${i > 0 ? "," : ""}${keyPad}${stringifyLosslessJson(key, JSON_OPTIONS)}: `);
    if (key === "nodes") parts.push({ list: "nodes" });
    else if (key === linksKey) parts.push({ list: "links" });
    else parts.push(stringifyAt(base[key] as JsonValue, 1));
  }
  parts.push("\n}");
  return parts;
}

/**
 * Text gathered into chunks of about `chunkSize` characters: the frame's parts and one record
 * at a time, each printed as it sits in its list. `record` says when a chunk is full (`take` it).
 */
export class GraphifyPrinter {
  private parts: string[] = [];
  private size = 0;
  private first = true;

  constructor(private readonly chunkSize: number) {}

  text(text: string): boolean {
    this.parts.push(text);
    this.size += text.length;
    return this.size >= this.chunkSize;
  }

  /** The next record of the list under way. */
  record(record: JsonObject): boolean {
    const full = this.text(`${this.first ? "[" : ","}${ITEM_PAD}${stringifyAt(record, 2)}`);
    this.first = false;
    return full;
  }

  /** Close the list under way (`[]` if it had no record). */
  endList(): void {
    this.text(this.first ? "[]" : `\n${" ".repeat(INDENT)}]`);
    this.first = true;
  }

  take(): string {
    const chunk = this.parts.join("");
    this.parts = [];
    this.size = 0;
    return chunk;
  }
}

const ITEM_PAD = "\n" + " ".repeat(INDENT * 2);

/** The whole graph.json as one string (small graphs, tests); see graphifyJsonChunks for any size. */
export function exportGraphifyJson(graph: KnowledgeGraph): string {
  return [...graphifyJsonChunks(graph)].join("");
}
