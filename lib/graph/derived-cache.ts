/**
 * Indexes derived from a graph version, kept with it and advanced with the version.
 *
 * A graph object shows one version for ever, so an index built for it is keyed by the object
 * (a WeakMap: it lives as long as the version does). A version made by `advance` (or `overlay`)
 * remembers the graph it came from and what changed (`KnowledgeGraph.origin`); when an ancestor
 * a few steps up already holds the index and the index kind can advance, the new version's index
 * is derived from the ancestor's in O(change) instead of being rebuilt from the whole graph.
 *
 * An advance never changes the ancestor's index (the older version may still be read through
 * it): it copies what it changes and shares the rest. A graph changed in place (addNode, addEdge)
 * loses its origin, and a cached index whose graph's node or edge count moved since it was built
 * is rebuilt, as the per-graph caches did before.
 */
import type { KnowledgeGraph } from "./model";

/** What differs between an ancestor version holding an index and the version wanting one. */
export interface GraphDelta {
  /** The version the index being advanced was built for (it still shows its own version). */
  readonly previous: KnowledgeGraph;
  /** Node ids and edge keys whose state may differ (read each side's state from its graph). */
  readonly nodes: ReadonlySet<string>;
  readonly edges: ReadonlySet<string>;
}

export interface DerivedKind<T> {
  /** The index of a graph, from the whole graph. */
  build(graph: KnowledgeGraph): T;
  /**
   * The index of `graph` from the index of `delta.previous`, costing what the change costs;
   * must leave `value` as it was. null: build instead.
   */
  advance?(value: T, delta: GraphDelta, graph: KnowledgeGraph): T | null;
}

/** Versions walked up looking for an ancestor's index. */
const MAX_STEPS = 8;
/** Past this many changed items (and this share of the graph) building is about as cheap. */
const MIN_CHANGE_LIMIT = 2_000;
const CHANGE_SHARE = 0.1;

function stampOf(graph: KnowledgeGraph): string {
  return `${graph.nodes.size}/${graph.edges.size}`;
}

/**
 * The nearest ancestor of `graph` (through `origin`, at most MAX_STEPS up) for which `has` holds,
 * with everything that changed since; null when there is none, it was collected, or the change
 * is too large for advancing to pay.
 */
export function findAncestor(graph: KnowledgeGraph, has: (ancestor: KnowledgeGraph) => boolean): GraphDelta | null {
  const nodes = new Set<string>();
  const edges = new Set<string>();
  const limit = Math.max(MIN_CHANGE_LIMIT, CHANGE_SHARE * (graph.nodes.size + graph.edges.size));
  let current = graph;
  for (let step = 0; step < MAX_STEPS; step++) {
    const origin = current.origin;
    if (!origin) return null;
    for (const id of origin.changes.nodes.keys()) nodes.add(id);
    for (const key of origin.changes.edges.keys()) edges.add(key);
    if (nodes.size + edges.size > limit) return null;
    const previous = origin.previous.deref();
    if (!previous) return null;
    if (has(previous)) return { previous, nodes, edges };
    current = previous;
  }
  return null;
}

/** One kind of index, cached per graph version and advanced with it when the kind can. */
export class DerivedCache<T> {
  private readonly values = new WeakMap<KnowledgeGraph, { value: T; stamp: string }>();
  private counts = { built: 0, advanced: 0 };

  constructor(private readonly kind: DerivedKind<T>) {}

  get(graph: KnowledgeGraph): T {
    const hit = this.values.get(graph);
    const stamp = stampOf(graph);
    if (hit && hit.stamp === stamp) return hit.value;
    let value = this.advanced(graph);
    if (value === null) {
      value = this.kind.build(graph);
      this.counts.built++;
    } else this.counts.advanced++;
    this.values.set(graph, { value, stamp });
    return value;
  }

  /** The cached index of exactly this graph version, if any (nothing is built). */
  peek(graph: KnowledgeGraph): T | undefined {
    const hit = this.values.get(graph);
    return hit && hit.stamp === stampOf(graph) ? hit.value : undefined;
  }

  forget(graph: KnowledgeGraph): void {
    this.values.delete(graph);
  }

  /** How many indexes were built whole and how many advanced (tests and benchmarks read it). */
  stats(): { built: number; advanced: number } {
    return { ...this.counts };
  }

  private advanced(graph: KnowledgeGraph): T | null {
    if (!this.kind.advance) return null;
    const delta = findAncestor(graph, (ancestor) => this.peek(ancestor) !== undefined);
    if (!delta) return null;
    return this.kind.advance(this.peek(delta.previous) as T, delta, graph);
  }
}

// ---------------------------------------------------------------------------------------------
// Containers an advanced index shares with the index it came from

/** The read side of a map, as derived indexes expose their tables. */
export interface Lookup<K, V> {
  get(key: K): V | undefined;
  has(key: K): boolean;
}

/** Past this share of the base (and this many entries) a layer is folded into a new base. */
const LAYER_SHARE = 1 / 16;
const MIN_LAYER = 256;

/**
 * A map shared between versions: a base map no version changes, and a layer of the entries
 * changed since it (null: removed). `with(changes)` gives the next version's map in O(changes
 * so far) and leaves this one as it was; the layer is folded into a new base once it holds a
 * sixteenth of the base, so a chain of versions costs O(change) each, amortised.
 */
export class LayeredMap<K, V> implements Lookup<K, V> {
  private constructor(
    private readonly base: ReadonlyMap<K, V>,
    private readonly layer: ReadonlyMap<K, V | null>,
  ) {}

  static of<K, V>(base: ReadonlyMap<K, V>): LayeredMap<K, V> {
    return new LayeredMap<K, V>(base, new Map());
  }

  get(key: K): V | undefined {
    if (this.layer.has(key)) return this.layer.get(key) ?? undefined;
    return this.base.get(key);
  }

  has(key: K): boolean {
    return this.get(key) !== undefined;
  }

  /** The map with `changes` laid over it (null removes a key); this map is not changed. */
  with(changes: ReadonlyMap<K, V | null>): LayeredMap<K, V> {
    if (changes.size === 0) return this;
    const layer = new Map(this.layer);
    for (const [key, value] of changes) layer.set(key, value);
    if (layer.size <= Math.max(MIN_LAYER, LAYER_SHARE * this.base.size)) return new LayeredMap<K, V>(this.base, layer);
    const base = new Map(this.base);
    for (const [key, value] of layer) {
      if (value === null) base.delete(key);
      else base.set(key, value);
    }
    return new LayeredMap<K, V>(base, new Map());
  }
}

/**
 * Changes to a LayeredMap of lists, gathered for one `with`: each list touched is copied once,
 * the lists of the map it came from stay as they were.
 */
export class ListEdits<K, T> {
  private readonly changes = new Map<K, T[] | null>();

  constructor(private readonly table: Lookup<K, readonly T[]>) {}

  private list(key: K): T[] {
    let list = this.changes.get(key);
    if (!list) this.changes.set(key, (list = [...((this.changes.has(key) ? null : this.table.get(key)) ?? [])]));
    return list;
  }

  remove(key: K, item: T): void {
    const list = this.list(key);
    const at = list.indexOf(item);
    if (at >= 0) list.splice(at, 1);
    if (list.length === 0) this.changes.set(key, null);
  }

  /** Add `item` once; with `order`, at its place in a list kept sorted by it (else last). */
  add(key: K, item: T, order?: (a: T, b: T) => number): void {
    const list = this.list(key);
    if (list.includes(item)) return;
    if (!order) {
      list.push(item);
      return;
    }
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (order(list[mid] as T, item) < 0) lo = mid + 1;
      else hi = mid;
    }
    list.splice(lo, 0, item);
  }

  /** The changed lists (null: now empty), for LayeredMap.with. */
  result(): ReadonlyMap<K, T[] | null> {
    return this.changes;
  }
}
