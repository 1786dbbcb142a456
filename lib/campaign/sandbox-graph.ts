/**
 * A campaign's sandbox: a copy-on-write overlay of the live graph version. It holds the live
 * graph (shared, never modified) and a changeset over it; reads see the live graph with the
 * changeset applied, but only the changed nodes and edges are held (and indexed) by the
 * sandbox, never a copy of every row. Every reader of a `KnowledgeGraph` (the loop, Ask, the
 * review, planActions) works on it unchanged.
 *
 * The sandbox is read-only: more changes make a new sandbox over the same live graph with the
 * longer changeset (`withChanges`), so a reverted iteration is simply the previous sandbox, and
 * two campaigns on one graph never share one.
 *
 * Every read of the live graph goes through its lookups (getNode, idsByNormLabel, a node's edges,
 * degree), never its maps: the live graph may be a partial graph of a stored version that
 * records what it lacks (SQL retrieval on the server, lib/server/campaigns/sql-campaign.ts), and
 * the sandbox then reads like the changeset over the whole version once the partial graph holds
 * what was read. A degree is the live degree plus what the changeset adds and removes at the node.
 */
import type { Changeset } from "../changes/changeset";
import { edgeFromState, findConflicts, nodeFromState } from "../changes/changeset";
import { AppError } from "../errors";
import type { GraphEdge, GraphNode } from "../graph/model";
import { KnowledgeGraph } from "../graph/model";
import { normalizeLabel } from "../graph/normalize";
import { carryRelationRanker } from "../retrieve/rank-relations";

/** A read-only Map view: the base map with some keys replaced or removed and new keys after. */
class OverlayMap<K, V> extends Map<K, V> {
  readonly #base: ReadonlyMap<K, V>;
  /** key → new value, or null when removed. */
  readonly #delta: ReadonlyMap<K, V | null>;
  readonly #size: number;

  constructor(base: ReadonlyMap<K, V>, delta: ReadonlyMap<K, V | null>) {
    super();
    this.#base = base;
    this.#delta = delta;
    let size = base.size;
    for (const [k, v] of delta) {
      if (base.has(k)) {
        if (v === null) size--;
      } else if (v !== null) size++;
    }
    this.#size = size;
  }

  override get size(): number {
    return this.#size;
  }

  override get(key: K): V | undefined {
    if (this.#delta.has(key)) return this.#delta.get(key) ?? undefined;
    return this.#base.get(key);
  }

  override has(key: K): boolean {
    if (this.#delta.has(key)) return this.#delta.get(key) !== null;
    return this.#base.has(key);
  }

  override *entries(): MapIterator<[K, V]> {
    for (const [k, v] of this.#base) {
      if (!this.#delta.has(k)) yield [k, v];
      else {
        const now = this.#delta.get(k);
        if (now !== null && now !== undefined) yield [k, now];
      }
    }
    for (const [k, v] of this.#delta) if (v !== null && !this.#base.has(k)) yield [k, v];
  }

  override [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }

  override *keys(): MapIterator<K> {
    for (const [k] of this.entries()) yield k;
  }

  override *values(): MapIterator<V> {
    for (const [, v] of this.entries()) yield v;
  }

  override forEach(visit: (value: V, key: K, map: Map<K, V>) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) visit.call(thisArg, v, k, this);
  }

  override set(): this {
    throw new AppError("INTERNAL", "the sandbox graph is read-only");
  }

  override delete(): boolean {
    throw new AppError("INTERNAL", "the sandbox graph is read-only");
  }

  override clear(): void {
    throw new AppError("INTERNAL", "the sandbox graph is read-only");
  }
}

function addTo(index: Map<string, Set<string>>, id: string, key: string): void {
  let set = index.get(id);
  if (!set) index.set(id, (set = new Set()));
  set.add(key);
}

export interface SandboxOptions {
  /**
   * The changeset was checked against the whole version already (the live graph given here is a
   * partial graph of it, on which findConflicts would see edges as missing): not checked again.
   */
  checked?: boolean;
}

/** The changes of `ops` to each node's degree (+1 per edge end added, −1 per end removed). */
function degreeChanges(ops: Changeset["ops"]): Map<string, number> {
  const out = new Map<string, number>();
  const bump = (edge: { source: string; target: string }, by: number) => {
    for (const end of [edge.source, edge.target]) out.set(end, (out.get(end) ?? 0) + by);
  };
  for (const op of ops) {
    if (op.op === "add_edge") bump(op.edge, 1);
    else if (op.op === "remove_edge") bump(op.edge, -1);
    else if (op.op === "update_edge") {
      bump(op.before, -1);
      bump(op.after, 1);
    }
  }
  return out;
}

export class SandboxGraph extends KnowledgeGraph {
  readonly live: KnowledgeGraph;
  readonly changeset: Changeset;
  readonly #nodeDelta = new Map<string, GraphNode | null>();
  readonly #edgeDelta = new Map<string, GraphEdge | null>();
  readonly #out = new Map<string, Set<string>>();
  readonly #in = new Map<string, Set<string>>();
  readonly #norm = new Map<string, Set<string>>();
  readonly #degreeChange: Map<string, number>;
  /** Nodes the changeset adds that the live graph does not have (degree 0 there). */
  readonly #added = new Set<string>();

  /** Throws CONFLICT when the changeset does not apply to the live graph (unless `checked`). */
  constructor(live: KnowledgeGraph, changeset: Changeset = { ops: [] }, options: SandboxOptions = {}) {
    super(live.meta);
    // A sandbox of a sandbox is flattened: one overlay over the live graph, never a chain.
    const base = live instanceof SandboxGraph ? live.live : live;
    const ops = live instanceof SandboxGraph ? [...live.changeset.ops, ...changeset.ops] : changeset.ops;
    if (!options.checked) {
      const conflicts = findConflicts(base, { ops });
      if (conflicts.length > 0) throw new AppError("CONFLICT", `the sandbox changes do not apply to the live graph: ${conflicts.map((c) => c.message).join("; ")}`);
    }
    this.#degreeChange = degreeChanges(ops);
    // Relations rank as on the live graph (its relation descriptions); counted over the sandbox.
    carryRelationRanker(base, this);
    this.live = base;
    this.changeset = { ops };
    let nextNodeOrd = 0;
    for (const n of base.nodes.values()) nextNodeOrd = Math.max(nextNodeOrd, (n.ord ?? 0) + 1);
    let nextEdgeOrd = 0;
    for (const e of base.edges.values()) nextEdgeOrd = Math.max(nextEdgeOrd, (e.ord ?? 0) + 1);
    const nodeAt = (id: string) => (this.#nodeDelta.has(id) ? this.#nodeDelta.get(id) : base.getNode(id));
    const edgeAt = (key: string) => (this.#edgeDelta.has(key) ? this.#edgeDelta.get(key) : base.edges.get(key));
    for (const op of ops) {
      switch (op.op) {
        case "add_node": {
          const node = nodeFromState(op.node);
          // Added where the live graph has no such node (findConflicts): its live degree is 0.
          if (!this.#nodeDelta.has(node.id)) this.#added.add(node.id);
          this.#nodeDelta.set(node.id, { ...node, ord: node.ord ?? nextNodeOrd++ });
          break;
        }
        case "remove_node":
          this.#nodeDelta.set(op.node.id, null);
          break;
        case "update_node": {
          const node = nodeFromState(op.after);
          this.#nodeDelta.set(node.id, { ...node, ord: node.ord ?? nodeAt(node.id)?.ord });
          break;
        }
        case "add_edge": {
          const edge = edgeFromState(op.edge);
          this.#edgeDelta.set(edge.key, { ...edge, ord: edge.ord ?? nextEdgeOrd++ });
          break;
        }
        case "remove_edge":
          this.#edgeDelta.set(op.edge.key, null);
          break;
        case "update_edge": {
          const edge = edgeFromState(op.after);
          this.#edgeDelta.set(edge.key, { ...edge, ord: edge.ord ?? edgeAt(edge.key)?.ord });
          break;
        }
      }
    }
    for (const [key, edge] of this.#edgeDelta) {
      if (!edge) continue;
      addTo(this.#out, edge.source, key);
      addTo(this.#in, edge.target, key);
    }
    for (const [id, node] of this.#nodeDelta) {
      if (!node) continue;
      for (const name of new Set([node.normLabel, ...node.aliases.map(normalizeLabel)])) addTo(this.#norm, name, id);
    }
    // The inherited maps are replaced by overlays (class fields are own properties).
    Object.defineProperty(this, "nodes", { value: new OverlayMap(base.nodes, this.#nodeDelta) });
    Object.defineProperty(this, "edges", { value: new OverlayMap(base.edges, this.#edgeDelta) });
  }

  /** A new sandbox over the same live graph with `changeset` applied after this one's changes. */
  withChanges(changeset: Changeset): SandboxGraph {
    return new SandboxGraph(this, changeset);
  }

  /** How many items the overlay holds: what the sandbox costs beyond the shared live graph. */
  get overlaySize(): { nodes: number; edges: number } {
    return { nodes: this.#nodeDelta.size, edges: this.#edgeDelta.size };
  }

  override addNode(): void {
    throw new AppError("INTERNAL", "the sandbox graph is read-only: make a new sandbox with withChanges");
  }

  override addEdge(): GraphEdge {
    throw new AppError("INTERNAL", "the sandbox graph is read-only: make a new sandbox with withChanges");
  }

  override getNode(id: string): GraphNode | undefined {
    if (this.#nodeDelta.has(id)) return this.#nodeDelta.get(id) ?? undefined;
    return this.live.getNode(id);
  }

  override idsByNormLabel(norm: string): ReadonlySet<string> {
    const out = new Set<string>();
    for (const id of this.live.idsByNormLabel(norm)) if (!this.#nodeDelta.has(id)) out.add(id);
    for (const id of this.#norm.get(norm) ?? []) out.add(id);
    return out;
  }

  #edges(baseEdges: GraphEdge[], extra: Set<string> | undefined): GraphEdge[] {
    const out = baseEdges.filter((e) => !this.#edgeDelta.has(e.key));
    for (const key of extra ?? []) {
      const e = this.#edgeDelta.get(key);
      if (e) out.push(e);
    }
    return out;
  }

  override outEdges(id: string): GraphEdge[] {
    return this.#edges(this.live.outEdges(id), this.#out.get(id));
  }

  override inEdges(id: string): GraphEdge[] {
    return this.#edges(this.live.inEdges(id), this.#in.get(id));
  }

  override outEdgeKeys(id: string): string[] {
    return this.outEdges(id).map((e) => e.key);
  }

  override inEdgeKeys(id: string): string[] {
    return this.inEdges(id).map((e) => e.key);
  }

  override incidentEdges(id: string): GraphEdge[] {
    const out = new Map<string, GraphEdge>();
    for (const e of this.outEdges(id)) out.set(e.key, e);
    for (const e of this.inEdges(id)) out.set(e.key, e);
    return [...out.values()];
  }

  override forEachIncident(id: string, visit: (edge: GraphEdge) => void): void {
    for (const e of this.outEdges(id)) visit(e);
    for (const e of this.inEdges(id)) visit(e);
  }

  override degree(id: string): number {
    const change = this.#degreeChange.get(id) ?? 0;
    return (this.#added.has(id) ? 0 : this.live.degree(id)) + change;
  }
}
