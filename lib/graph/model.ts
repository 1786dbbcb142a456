/**
 * The in-memory knowledge graph every step works on.
 *
 * - Node ids are stable strings (graphify's ids, or the entity text for triple files).
 * - Edges are directed subject → object in their stored direction and parallel edges are kept
 *   (graphify files are "multigraph: false" but do hold parallel links; dropping them loses data).
 * - Each node and edge keeps its original record (`attrs`, lossless, in file key order) so an
 *   unchanged graph exports byte-identical to what was imported.
 * - Adjacency indexes (out, in, by normalised label) make neighbourhood queries O(degree).
 * - Edges are held in columns (lib/graph/edge-store.ts: interned strings, typed arrays, CSR
 *   adjacency, records kept as stored text until read); a `GraphEdge` is made when it is read, so
 *   two reads of one edge give equal objects, not the same one. Treat edges as values.
 */
import type { JsonObject, JsonValue } from "../json/lossless-json";
import { jsonNumber } from "../json/lossless-json";
import type { GraphEdge } from "./edge-store";
import { EdgeStore, isPlainTriple } from "./edge-store";
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

/** An edge as readers see it (defined beside the columns that hold it; made when read). */
export type { GraphEdge } from "./edge-store";

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

/**
 * What one version holds for the items a change touched (null: absent there). Applied to a graph
 * it gives the other version: see KnowledgeGraph.advance and KnowledgeGraph.overlay.
 */
export interface GraphChanges {
  nodes: Map<string, GraphNode | null>;
  edges: Map<string, GraphEdge | null>;
}

/**
 * Where a version came from: the graph it was advanced (or overlaid) from, held weakly, and the
 * changes between them (their keys are the items that differ; read each side's state from its
 * graph). Derived indexes (lib/graph/derived-cache.ts) advance with it instead of rebuilding.
 */
export interface GraphOrigin {
  readonly previous: WeakRef<KnowledgeGraph>;
  readonly changes: GraphChanges;
}

/**
 * A graph object always shows the same version: a newer version is a new object. The newest one
 * holds the maps; an older one reads through the newer graph plus the states it held for what
 * changed since (an overlay of the size of the change). So caches keyed by the graph object (the
 * retrieval and review indexes) never see it change, and advancing costs what the change costs.
 */
export class KnowledgeGraph {
  private nodeMap = new Map<string, GraphNode>();
  private store = new EdgeStore();
  private normIndex = new Map<string, Set<string>>();
  private nextEdgeNumber = 0;
  private nextNodeOrd = 0;
  private nextEdgeOrd = 0;
  /** Set when this is an older version read through a newer graph (read-only then). */
  private view: VersionView | null = null;
  /** Set by advance and overlay: see GraphOrigin. */
  private originOf: GraphOrigin | null = null;
  /**
   * The maps as readers see them: one object per graph for its whole life, reading this
   * version's items wherever they are held (so holding `graph.nodes` across an advance is safe).
   */
  readonly nodes: ReadonlyMap<string, GraphNode> = new StableMap(() => (this.view ? this.view.nodes : this.nodeMap));
  readonly edges: ReadonlyMap<string, GraphEdge> = new StableMap(() => (this.view ? this.view.edges : this.store));

  constructor(readonly meta: GraphMeta = { top: {}, linksKey: "links" }) {}

  /** The graph this version was advanced or overlaid from, and the changes (null for a loaded or built graph). */
  get origin(): GraphOrigin | null {
    return this.originOf;
  }

  /** A read-only graph: `base` with `changes` laid over it (an older version, from inverse changes). */
  static overlay(base: KnowledgeGraph, changes: GraphChanges): KnowledgeGraph {
    const graph = new KnowledgeGraph(base.meta);
    graph.view = new VersionView(base, changes);
    graph.originOf = { previous: new WeakRef(base), changes };
    return graph;
  }

  /**
   * The next version: this graph's maps move to the returned graph and take `changes` in place
   * (O(change)); this graph keeps showing its own version through the new one. Only the newest
   * version of a graph can be advanced. Throws (changing nothing) if the result would have an
   * edge without its nodes.
   */
  advance(changes: GraphChanges): KnowledgeGraph {
    if (this.view) throw new Error("only the newest version of a graph can be advanced");
    const nodeAfter = (id: string) => (changes.nodes.has(id) ? (changes.nodes.get(id) ?? undefined) : this.nodeMap.get(id));
    for (const [key, edge] of changes.edges) {
      if (!edge) continue;
      if (edge.key !== key) throw new Error(`edge ${key} is stored under another key (${edge.key})`);
      for (const end of [edge.source, edge.target]) if (!nodeAfter(end)) throw new Error(`edge ${key} needs node ${JSON.stringify(end)}, which is absent`);
    }
    for (const [id, node] of changes.nodes) {
      if (node && node.id !== id) throw new Error(`node ${JSON.stringify(id)} is stored under another id (${JSON.stringify(node.id)})`);
      if (node) continue;
      for (const out of [true, false]) {
        for (const key of this.store.adjacentKeys(id, out)) {
          const edge = changes.edges.has(key) ? changes.edges.get(key) : this.store.get(key);
          if (edge && (edge.source === id || edge.target === id)) throw new Error(`node ${JSON.stringify(id)} would be removed while edge ${key} uses it`);
        }
      }
    }
    const before: GraphChanges = { nodes: new Map(), edges: new Map() };
    for (const id of changes.nodes.keys()) before.nodes.set(id, this.nodeMap.get(id) ?? null);
    for (const key of changes.edges.keys()) before.edges.set(key, this.store.get(key) ?? null);
    const next = new KnowledgeGraph(this.meta);
    next.nodeMap = this.nodeMap;
    next.store = this.store;
    next.normIndex = this.normIndex;
    next.nextEdgeNumber = this.nextEdgeNumber;
    next.nextNodeOrd = this.nextNodeOrd;
    next.nextEdgeOrd = this.nextEdgeOrd;
    next.applyInPlace(changes);
    this.nodeMap = new Map();
    this.store = new EdgeStore();
    this.normIndex = new Map();
    this.view = new VersionView(next, before);
    next.originOf = { previous: new WeakRef(this), changes };
    return next;
  }

  /** Checked by advance: edges first out, nodes replaced (keeping their map position), edges in. */
  private applyInPlace(changes: GraphChanges): void {
    let nodesOutOfOrder = false;
    let edgesOutOfOrder = false;
    for (const [key, edge] of changes.edges) if (!edge) this.store.delete(key);
    for (const [id, node] of changes.nodes) {
      const old = this.nodeMap.get(id);
      if (old) this.unindexLabel(old);
      if (!node) {
        this.nodeMap.delete(id);
        this.store.dropNode(id);
        continue;
      }
      if (node.ord === undefined) node.ord = this.nextNodeOrd;
      // A new item behind the last one (a revert restoring a deleted node) breaks the maps' order.
      if (!old && node.ord < this.nextNodeOrd) nodesOutOfOrder = true;
      this.nextNodeOrd = Math.max(this.nextNodeOrd, node.ord + 1);
      this.nodeMap.set(id, node);
      this.store.internNode(id);
      this.indexLabel(node);
    }
    for (const [key, edge] of changes.edges) {
      if (!edge) continue;
      const ord = edge.ord ?? this.nextEdgeOrd;
      if (!this.store.has(key) && ord < this.nextEdgeOrd) edgesOutOfOrder = true;
      this.nextEdgeOrd = Math.max(this.nextEdgeOrd, ord + 1);
      const n = edgeNumberOf(key);
      if (n >= this.nextEdgeNumber) this.nextEdgeNumber = n + 1;
      this.store.put(key, edge.source, edge.target, edge.relation, ord, recordOf(edge));
    }
    // Readers iterate in stored order (a fresh load reads rows by ord): re-sort only when an item
    // came back at an earlier position — O(graph), and only for such changes.
    if (nodesOutOfOrder) this.nodeMap = sortedByOrd(this.nodeMap);
    if (edgesOutOfOrder) this.store.sortByOrd();
  }

  private writable(): void {
    if (this.view) throw new Error("an older version of a graph is read-only");
    // Changed in place: the changes since its origin no longer say how it differs from it.
    this.originOf = null;
  }

  addNode(node: GraphNode): void {
    this.writable();
    if (this.nodeMap.has(node.id)) throw new Error(`duplicate node id ${JSON.stringify(node.id)}`);
    if (node.ord === undefined) node.ord = this.nextNodeOrd;
    this.nextNodeOrd = Math.max(this.nextNodeOrd, node.ord + 1);
    this.nodeMap.set(node.id, node);
    this.store.internNode(node.id);
    this.indexLabel(node);
  }

  private indexLabel(node: GraphNode): void {
    for (const name of labelKeys(node)) {
      let set = this.normIndex.get(name);
      if (!set) this.normIndex.set(name, (set = new Set()));
      set.add(node.id);
    }
  }

  private unindexLabel(node: GraphNode): void {
    for (const name of labelKeys(node)) {
      const set = this.normIndex.get(name);
      if (!set) continue;
      set.delete(node.id);
      if (set.size === 0) this.normIndex.delete(name);
    }
  }

  /** Add an edge; `key` defaults to the next `e<n>`. Both endpoints must exist. */
  addEdge(edge: Omit<GraphEdge, "key"> & { key?: string }): GraphEdge {
    const key = edge.key ?? `e${this.nextEdgeNumber}`;
    const ord = this.addEdgeRow(key, edge.source, edge.target, edge.relation, edge.ord, recordOf(edge));
    return { key, source: edge.source, target: edge.target, relation: edge.relation, attrs: edge.attrs, ord };
  }

  /**
   * Add an edge from its stored columns without making an edge object (a load adds millions):
   * `data` is the stored record, null for the plain `{relation, source, target}`, else its JSON
   * text (parsed when the edge's `attrs` are first read) or the record. Returns its ord.
   */
  addEdgeRow(key: string, source: string, target: string, relation: string, ord: number | undefined, data: JsonObject | string | null): number {
    this.writable();
    const s = this.store.nodeIndexOf(source);
    if (s < 0) throw new Error(`edge from unknown node ${JSON.stringify(source)}`);
    const t = this.store.nodeIndexOf(target);
    if (t < 0) throw new Error(`edge to unknown node ${JSON.stringify(target)}`);
    const at = ord ?? this.nextEdgeOrd;
    if (!this.store.appendRow(key, s, t, relation, at, data)) throw new Error(`duplicate edge key ${key}`);
    const n = edgeNumberOf(key);
    if (n >= this.nextEdgeNumber) this.nextEdgeNumber = n + 1;
    if (at >= this.nextEdgeOrd) this.nextEdgeOrd = at + 1;
    return at;
  }

  /** Room for `edges` more edges (a load that knows its row count sizes the columns once). */
  reserveEdges(edges: number): void {
    this.store.reserve(edges);
  }

  /** Build the adjacency index now (else the first neighbourhood query builds it): the end of a load. */
  buildIndexes(): void {
    if (!this.view) this.store.buildIndex();
  }

  /** Keys of the edges leaving a node (those of this version). */
  outEdgeKeys(id: string): Iterable<string> {
    return this.view ? this.view.adjacentKeys(id, "out") : this.store.adjacentKeys(id, true);
  }

  /** Keys of the edges entering a node. */
  inEdgeKeys(id: string): Iterable<string> {
    return this.view ? this.view.adjacentKeys(id, "in") : this.store.adjacentKeys(id, false);
  }

  getNode(id: string): GraphNode | undefined {
    return this.view ? this.view.nodes.get(id) : this.nodeMap.get(id);
  }

  /** Node ids whose normalised label or alias equals `norm` exactly. */
  idsByNormLabel(norm: string): ReadonlySet<string> {
    return this.view ? this.view.idsByNormLabel(norm) : (this.normIndex.get(norm) ?? EMPTY);
  }

  outEdges(id: string): GraphEdge[] {
    return this.view ? this.edgesOf(this.outEdgeKeys(id)) : this.store.adjacentEdges(id, true);
  }

  inEdges(id: string): GraphEdge[] {
    return this.view ? this.edgesOf(this.inEdgeKeys(id)) : this.store.adjacentEdges(id, false);
  }

  /** Edges touching a node in either direction (a self-loop once). */
  incidentEdges(id: string): GraphEdge[] {
    if (!this.view) return this.store.incidentEdges(id);
    const keys = new Set<string>([...this.outEdgeKeys(id), ...this.inEdgeKeys(id)]);
    return this.edgesOf(keys);
  }

  /** Visit edges touching a node (a self-loop twice) without building arrays: the hot path of expansion. */
  forEachIncident(id: string, visit: (edge: GraphEdge) => void): void {
    if (!this.view) return this.store.forEachIncident(id, visit);
    const edges = this.edges;
    for (const keys of [this.outEdgeKeys(id), this.inEdgeKeys(id)]) {
      for (const k of keys) {
        const e = edges.get(k);
        if (e) visit(e);
      }
    }
  }

  degree(id: string): number {
    if (this.view) return this.view.adjacentKeys(id, "out").length + this.view.adjacentKeys(id, "in").length;
    return this.store.degree(id);
  }

  neighborIds(id: string): Set<string> {
    const out = new Set<string>();
    for (const e of this.incidentEdges(id)) out.add(e.source === id ? e.target : e.source);
    return out;
  }

  private edgesOf(keys: Iterable<string> | undefined): GraphEdge[] {
    if (!keys) return [];
    const edges = this.edges;
    const out: GraphEdge[] = [];
    for (const k of keys) {
      const e = edges.get(k);
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

/** What the edge store keeps of an edge's record: null when it is the plain triple the columns give. */
function recordOf(edge: Omit<GraphEdge, "key">): JsonObject | null {
  return isPlainTriple(edge.attrs, edge.source, edge.target, edge.relation) ? null : edge.attrs;
}

/** n for a key `e<n>` (what /^e(\d+)$/ matches), else -1; without a regex or a copy: it runs for every edge of a load. */
function edgeNumberOf(key: string): number {
  if (key.length < 2 || key.charCodeAt(0) !== 101) return -1;
  let n = 0;
  for (let i = 1; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c < 48 || c > 57) return -1;
    n = n * 10 + (c - 48);
  }
  return key.length <= 16 ? n : Number(key.slice(1));
}

function labelKeys(node: GraphNode): string[] {
  return [node.normLabel, ...node.aliases.map(normalizeLabel)];
}

/** A map that is whichever map `current()` gives at the time of each call. */
class StableMap<V> implements ReadonlyMap<string, V> {
  constructor(private readonly current: () => ReadonlyMap<string, V>) {}

  get size(): number {
    return this.current().size;
  }

  get(key: string): V | undefined {
    return this.current().get(key);
  }

  has(key: string): boolean {
    return this.current().has(key);
  }

  entries(): MapIterator<[string, V]> {
    return this.current().entries();
  }

  keys(): MapIterator<string> {
    return this.current().keys();
  }

  values(): MapIterator<V> {
    return this.current().values();
  }

  [Symbol.iterator](): MapIterator<[string, V]> {
    return this.current().entries();
  }

  forEach(visit: (value: V, key: string, map: ReadonlyMap<string, V>) => void): void {
    for (const [key, value] of this.current()) visit(value, key, this);
  }
}

/** An item's stored position; one without (never stored) goes last. */
function ordOf(value: unknown): number {
  const ord = (value as { ord?: unknown } | null)?.ord;
  return typeof ord === "number" ? ord : Number.POSITIVE_INFINITY;
}

function sortedByOrd<V>(map: Map<string, V>): Map<string, V> {
  return new Map([...map].sort((a, b) => ordOf(a[1]) - ordOf(b[1])));
}

/** A map read as `base()` with some entries replaced or removed (null): an older version's items. */
class OverlayMap<V> implements ReadonlyMap<string, V> {
  readonly size: number;
  constructor(
    private readonly base: () => ReadonlyMap<string, V>,
    readonly overlay: ReadonlyMap<string, V | null>,
  ) {
    let size = base().size;
    for (const [key, value] of overlay) size += (value === null ? 0 : 1) - (base().has(key) ? 1 : 0);
    this.size = size;
  }

  get(key: string): V | undefined {
    const value = this.overlay.get(key);
    if (value !== undefined) return value ?? undefined;
    return this.overlay.has(key) ? undefined : this.base().get(key);
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  /** In stored order, as a fresh load of the version reads them: the items only this version has merged in by ord. */
  *entries(): MapIterator<[string, V]> {
    const base = this.base();
    const extra: [string, V][] = [];
    for (const [key, value] of this.overlay) if (value !== null && !base.has(key)) extra.push([key, value]);
    extra.sort((a, b) => ordOf(a[1]) - ordOf(b[1]));
    let next = 0;
    for (const [key, value] of base) {
      const item = this.overlay.has(key) ? this.overlay.get(key) : value;
      if (!item) continue;
      while (next < extra.length && ordOf(extra[next]![1]) < ordOf(item)) yield extra[next++]!;
      yield [key, item];
    }
    while (next < extra.length) yield extra[next++]!;
    return undefined;
  }

  *keys(): MapIterator<string> {
    for (const [key] of this.entries()) yield key;
    return undefined;
  }

  *values(): MapIterator<V> {
    for (const [, value] of this.entries()) yield value;
    return undefined;
  }

  [Symbol.iterator](): MapIterator<[string, V]> {
    return this.entries();
  }

  forEach(visit: (value: V, key: string, map: ReadonlyMap<string, V>) => void): void {
    for (const [key, value] of this.entries()) visit(value, key, this);
  }
}

/** An older version of a graph: the newer `base` plus what this version held where they differ. */
class VersionView {
  readonly nodes: OverlayMap<GraphNode>;
  readonly edges: OverlayMap<GraphEdge>;
  /** Keys of this version's changed edges by endpoint, and changed node ids by label. */
  private readonly outChanged = new Map<string, string[]>();
  private readonly inChanged = new Map<string, string[]>();
  private readonly normChanged = new Map<string, string[]>();

  constructor(
    private readonly base: KnowledgeGraph,
    changes: GraphChanges,
  ) {
    this.nodes = new OverlayMap(() => base.nodes, changes.nodes);
    this.edges = new OverlayMap(() => base.edges, changes.edges);
    const push = (index: Map<string, string[]>, id: string, key: string) => {
      const list = index.get(id);
      if (list) list.push(key);
      else index.set(id, [key]);
    };
    for (const [key, edge] of changes.edges) {
      if (!edge) continue;
      push(this.outChanged, edge.source, key);
      push(this.inChanged, edge.target, key);
    }
    for (const [id, node] of changes.nodes) if (node) for (const name of new Set(labelKeys(node))) push(this.normChanged, name, id);
  }

  adjacentKeys(id: string, direction: "out" | "in"): string[] {
    const endOf = (edge: GraphEdge) => (direction === "out" ? edge.source : edge.target);
    const overlay = this.edges.overlay;
    const keys: string[] = [];
    for (const key of direction === "out" ? this.base.outEdgeKeys(id) : this.base.inEdgeKeys(id)) {
      if (!overlay.has(key)) keys.push(key);
      else {
        const edge = overlay.get(key);
        if (edge && endOf(edge) === id) keys.push(key);
      }
    }
    for (const key of (direction === "out" ? this.outChanged : this.inChanged).get(id) ?? []) {
      const inBase = this.base.edges.get(key);
      if (!inBase || endOf(inBase) !== id) keys.push(key);
    }
    return keys;
  }

  idsByNormLabel(norm: string): ReadonlySet<string> {
    const base = this.base.idsByNormLabel(norm);
    const overlay = this.nodes.overlay;
    const added = this.normChanged.get(norm);
    let changed = added !== undefined;
    if (!changed) for (const id of base) if (overlay.has(id)) changed = true;
    if (!changed) return base;
    const ids = new Set<string>();
    for (const id of base) if (!overlay.has(id)) ids.add(id);
    for (const id of added ?? []) ids.add(id);
    return ids;
  }
}
