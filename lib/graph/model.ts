/**
 * The in-memory knowledge graph every step works on.
 *
 * - Node ids are stable strings (graphify's ids, or the entity text for triple files).
 * - Edges are directed subject → object in their stored direction and parallel edges are kept
 *   (graphify files are "multigraph: false" but do hold parallel links; dropping them loses data).
 * - Each node and edge keeps its original record (`attrs`, lossless, in file key order) so an
 *   unchanged graph exports byte-identical to what was imported.
 * - Adjacency indexes (out, in, by normalised label) make neighbourhood queries O(degree).
 */
import type { JsonObject, JsonValue } from "../json/lossless-json";
import { jsonNumber } from "../json/lossless-json";
import { normalizeLabel } from "./normalize";

export type Community = string | number | null;

export interface GraphNode {
  id: string;
  /** Display label: the record's `label`, or the id when the record has none. */
  label: string;
  normLabel: string;
  aliases: string[];
  community: Community;
  fileType: string | null;
  sourceFile: string | null;
  sourceLocation: string | null;
  /** The full original record (including id/label), lossless, in key order. */
  attrs: JsonObject;
  /** Position in the file order (set when added to a graph); export and storage sort by it. */
  ord?: number;
}

export interface GraphEdge {
  /** Stable edge key within the graph (`e<n>` at import). */
  key: string;
  /** Subject node id (graphify `_src` when present, else `source`). */
  source: string;
  /** Object node id. */
  target: string;
  relation: string;
  attrs: JsonObject;
  /** Position in the file order, like GraphNode.ord. */
  ord?: number;
}

/** What a graph file held besides nodes and links, in key order (graph, hyperedges, extra keys…). */
export interface GraphMeta {
  /** Top-level record with `nodes`/`links` values replaced by null placeholders, for key order. */
  top: JsonObject;
  /** Which top-level key held the edges: graphify uses `links`, some writers `edges`. */
  linksKey: "links" | "edges";
}

export interface Triple {
  subject: string;
  relation: string;
  object: string;
  subject_id: string;
  object_id: string;
}

function str(value: JsonValue | undefined): string | null {
  return typeof value === "string" ? value : null;
}

function communityOf(value: JsonValue | undefined): Community {
  if (typeof value === "string") return value;
  const n = jsonNumber(value);
  return n === undefined ? null : n;
}

/** Build a node from its record; the record's own fields win, `label` falls back to the id. */
export function nodeFromRecord(record: JsonObject): GraphNode {
  const id = record.id;
  if (typeof id !== "string") throw new Error("node record without a string id");
  const label = str(record.label) ?? id;
  const aliasesValue = record.aliases;
  const aliases = Array.isArray(aliasesValue) ? aliasesValue.filter((a): a is string => typeof a === "string") : [];
  return {
    id,
    label,
    normLabel: normalizeLabel(label),
    aliases,
    community: communityOf(record.community),
    fileType: str(record.file_type),
    sourceFile: str(record.source_file),
    sourceLocation: str(record.source_location),
    attrs: record,
  };
}

export function edgeFromRecord(key: string, source: string, target: string, record: JsonObject): GraphEdge {
  return { key, source, target, relation: str(record.relation) ?? "related_to", attrs: record };
}

export class KnowledgeGraph {
  readonly nodes = new Map<string, GraphNode>();
  readonly edges = new Map<string, GraphEdge>();
  private readonly outIndex = new Map<string, Set<string>>();
  private readonly inIndex = new Map<string, Set<string>>();
  private readonly normIndex = new Map<string, Set<string>>();
  private nextEdgeNumber = 0;
  private nextNodeOrd = 0;
  private nextEdgeOrd = 0;

  constructor(readonly meta: GraphMeta = { top: {}, linksKey: "links" }) {}

  addNode(node: GraphNode): void {
    if (this.nodes.has(node.id)) throw new Error(`duplicate node id ${JSON.stringify(node.id)}`);
    if (node.ord === undefined) node.ord = this.nextNodeOrd;
    this.nextNodeOrd = Math.max(this.nextNodeOrd, node.ord + 1);
    this.nodes.set(node.id, node);
    this.indexLabel(node);
  }

  private indexLabel(node: GraphNode): void {
    for (const name of [node.normLabel, ...node.aliases.map(normalizeLabel)]) {
      let set = this.normIndex.get(name);
      if (!set) this.normIndex.set(name, (set = new Set()));
      set.add(node.id);
    }
  }

  /** Add an edge; `key` defaults to the next `e<n>`. Both endpoints must exist. */
  addEdge(edge: Omit<GraphEdge, "key"> & { key?: string }): GraphEdge {
    if (!this.nodes.has(edge.source)) throw new Error(`edge from unknown node ${JSON.stringify(edge.source)}`);
    if (!this.nodes.has(edge.target)) throw new Error(`edge to unknown node ${JSON.stringify(edge.target)}`);
    const key = edge.key ?? `e${this.nextEdgeNumber}`;
    const m = /^e(\d+)$/.exec(key);
    if (m) this.nextEdgeNumber = Math.max(this.nextEdgeNumber, Number(m[1]) + 1);
    if (this.edges.has(key)) throw new Error(`duplicate edge key ${key}`);
    const ord = edge.ord ?? this.nextEdgeOrd;
    this.nextEdgeOrd = Math.max(this.nextEdgeOrd, ord + 1);
    const full: GraphEdge = { ...edge, key, ord };
    this.edges.set(key, full);
    addTo(this.outIndex, full.source, key);
    addTo(this.inIndex, full.target, key);
    return full;
  }

  getNode(id: string): GraphNode | undefined {
    return this.nodes.get(id);
  }

  /** Node ids whose normalised label or alias equals `norm` exactly. */
  idsByNormLabel(norm: string): ReadonlySet<string> {
    return this.normIndex.get(norm) ?? EMPTY;
  }

  outEdges(id: string): GraphEdge[] {
    return this.edgesOf(this.outIndex.get(id));
  }

  inEdges(id: string): GraphEdge[] {
    return this.edgesOf(this.inIndex.get(id));
  }

  /** Edges touching a node in either direction (a self-loop once). */
  incidentEdges(id: string): GraphEdge[] {
    const keys = new Set<string>([...(this.outIndex.get(id) ?? []), ...(this.inIndex.get(id) ?? [])]);
    return this.edgesOf(keys);
  }

  /** Visit edges touching a node (a self-loop twice) without building arrays: the hot path of expansion. */
  forEachIncident(id: string, visit: (edge: GraphEdge) => void): void {
    for (const index of [this.outIndex, this.inIndex]) {
      const keys = index.get(id);
      if (!keys) continue;
      for (const k of keys) {
        const e = this.edges.get(k);
        if (e) visit(e);
      }
    }
  }

  degree(id: string): number {
    return (this.outIndex.get(id)?.size ?? 0) + (this.inIndex.get(id)?.size ?? 0);
  }

  neighborIds(id: string): Set<string> {
    const out = new Set<string>();
    for (const e of this.incidentEdges(id)) out.add(e.source === id ? e.target : e.source);
    return out;
  }

  private edgesOf(keys: Iterable<string> | undefined): GraphEdge[] {
    if (!keys) return [];
    const out: GraphEdge[] = [];
    for (const k of keys) {
      const e = this.edges.get(k);
      if (e) out.push(e);
    }
    return out;
  }

  /** The edge as a triple: labels for people, ids for machines, in stored direction. */
  toTriple(edge: GraphEdge): Triple {
    return {
      subject: this.nodes.get(edge.source)?.label ?? edge.source,
      relation: edge.relation,
      object: this.nodes.get(edge.target)?.label ?? edge.target,
      subject_id: edge.source,
      object_id: edge.target,
    };
  }
}

const EMPTY: ReadonlySet<string> = new Set();

function addTo(index: Map<string, Set<string>>, id: string, key: string): void {
  let set = index.get(id);
  if (!set) index.set(id, (set = new Set()));
  set.add(key);
}
