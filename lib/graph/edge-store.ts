/**
 * The edges of a KnowledgeGraph in columns: what a million edges cost in memory and load time.
 *
 * - Each edge is a slot: its endpoints and relation as indexes into interned string tables, its
 *   position (`ord`), its key as a number when it is `e<n>` (else an index into a key table), and
 *   its record: null when it is just `{relation, source, target}` (a triple), else the stored
 *   JSON text (parsed on first read) or the record given.
 * - Slots iterate in insertion order (a Map's order: a changed edge keeps its slot, a new one goes
 *   last); `sortByOrd` renumbers them in stored order when a revert restores an earlier edge.
 * - Adjacency is CSR (per node, its slots in Int32Arrays), built in bulk on first use, plus small
 *   per-node lists for slots added or moved since; rebuilt when those grow. A removed or moved
 *   slot is skipped where it was (each entry is checked against the slot's current endpoint).
 * - `GraphEdge` objects are made on demand (`get`, iteration, adjacency visits): callers never
 *   hold the store's own state, so an edge object is a value, not an identity.
 */
import type { JsonObject } from "../json/lossless-json";
import { isJsonObject, parseLosslessJson } from "../json/lossless-json";

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

/** A stored record: null for the plain triple, the JSON text as stored, or the record itself. */
type Record = JsonObject | string | null;

/** n for a key `e<n>` written canonically (`e0`, `e17`, never `e017`) with n < 2^31 - 1, else -1. */
function canonicalNumber(key: string): number {
  const length = key.length;
  if (length < 2 || length > 11 || key.charCodeAt(0) !== 101) return -1;
  if (key.charCodeAt(1) === 48 && length > 2) return -1;
  let n = 0;
  for (let i = 1; i < length; i++) {
    const c = key.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n < 0x7fffffff ? n : -1;
}

/** A record that says no more than the edge's own columns (what the database stores as null). */
export function isPlainTriple(attrs: JsonObject, source: string, target: string, relation: string): boolean {
  let n = 0;
  for (const k in attrs) {
    if (!Object.prototype.hasOwnProperty.call(attrs, k)) continue;
    const expected = n === 0 ? "relation" : n === 1 ? "source" : n === 2 ? "target" : null;
    if (k !== expected) return false;
    n++;
  }
  return n === 3 && attrs.relation === relation && attrs.source === source && attrs.target === target;
}

/** The columns of one numbering of the slots; replaced (never changed again) on growth or renumbering. */
class Columns {
  count = 0;
  readonly src: Int32Array;
  readonly tgt: Int32Array;
  readonly rel: Int32Array;
  /** n of `e<n>`, or -(1 + index into `names`). */
  readonly code: Int32Array;
  readonly ord: Float64Array;
  readonly dead: Uint8Array;
  readonly records: Record[];

  constructor(
    readonly capacity: number,
    readonly names: string[],
  ) {
    this.src = new Int32Array(capacity);
    this.tgt = new Int32Array(capacity);
    this.rel = new Int32Array(capacity);
    this.code = new Int32Array(capacity);
    this.ord = new Float64Array(capacity);
    this.dead = new Uint8Array(capacity);
    this.records = [];
  }

  /** A copy with room for `capacity` slots (the same numbering). */
  grown(capacity: number): Columns {
    const next = new Columns(capacity, this.names);
    const n = this.count;
    next.src.set(this.src.subarray(0, n));
    next.tgt.set(this.tgt.subarray(0, n));
    next.rel.set(this.rel.subarray(0, n));
    next.code.set(this.code.subarray(0, n));
    next.ord.set(this.ord.subarray(0, n));
    next.dead.set(this.dead.subarray(0, n));
    for (let i = 0; i < n; i++) next.records.push(this.records[i] ?? null);
    next.count = n;
    return next;
  }
}

interface Csr {
  /** Slots below this were indexed in bulk; later ones went to the per-node lists. */
  slots: number;
  nodes: number;
  outStart: Int32Array;
  outSlots: Int32Array;
  inStart: Int32Array;
  inSlots: Int32Array;
}

export class EdgeStore implements ReadonlyMap<string, GraphEdge> {
  /** Interned node ids (index → id) and their indexes; only ever appended. */
  private readonly ids: string[] = [];
  private readonly idIndex = new Map<string, number>();
  /** 1 where the interned id is a node of the graph now (an edge may only use those). */
  private nodeLive = new Uint8Array(0);
  private readonly relations: string[] = [];
  private readonly relationIndex = new Map<string, number>();
  private cols = new Columns(0, []);
  private live = 0;
  /** Slot of key `e<n>` at n (-1: none), and of every other key. */
  private byNumber = new Int32Array(0);
  private byName = new Map<string, number>();
  private csr: Csr | null = null;
  private extraOut = new Map<number, number[]>();
  private extraIn = new Map<number, number[]>();
  private extraCount = 0;
  /** Slots below this are in the CSR or the per-node lists. */
  private indexedUpTo = 0;
  /** Indexed slots removed or moved since the build: degrees are counted then, not read off the ranges. */
  private stale = 0;

  get size(): number {
    return this.live;
  }

  /** Room for `n` more edges at once (a load that knows its row count grows the columns once). */
  reserve(n: number): void {
    const need = this.cols.count + n;
    if (need > this.cols.capacity) this.cols = this.cols.grown(need);
  }

  private intern(id: string): number {
    let ix = this.idIndex.get(id);
    if (ix === undefined) {
      ix = this.ids.length;
      this.ids.push(id);
      this.idIndex.set(id, ix);
    }
    return ix;
  }

  private relationOf(relation: string): number {
    let ix = this.relationIndex.get(relation);
    if (ix === undefined) {
      ix = this.relations.length;
      this.relations.push(relation);
      this.relationIndex.set(relation, ix);
    }
    return ix;
  }

  /** A node joins the graph: its id is interned (edges share the node's own id string). */
  internNode(id: string): void {
    const ix = this.intern(id);
    if (ix >= this.nodeLive.length) {
      const grown = new Uint8Array(Math.max(1024, ix + 1, Math.ceil(this.nodeLive.length * 1.5)));
      grown.set(this.nodeLive);
      this.nodeLive = grown;
    }
    this.nodeLive[ix] = 1;
  }

  /** A node leaves the graph (its edges must be gone: the caller checked). */
  dropNode(id: string): void {
    const ix = this.idIndex.get(id);
    if (ix !== undefined) this.nodeLive[ix] = 0;
  }

  /** The index of a node of the graph, or -1 (one lookup: a load asks twice per edge). */
  nodeIndexOf(id: string): number {
    const ix = this.idIndex.get(id);
    return ix !== undefined && this.nodeLive[ix] === 1 ? ix : -1;
  }

  private slotOf(key: string): number {
    const n = canonicalNumber(key);
    if (n >= 0 && n < this.byNumber.length) {
      const slot = this.byNumber[n] as number;
      if (slot >= 0) return slot;
    }
    return this.byName.get(key) ?? -1;
  }

  has(key: string): boolean {
    return this.slotOf(key) >= 0;
  }

  get(key: string): GraphEdge | undefined {
    const slot = this.slotOf(key);
    return slot < 0 ? undefined : this.edgeAt(this.cols, slot);
  }

  /** The key of a slot (made for `e<n>` keys). */
  private keyAt(cols: Columns, slot: number): string {
    const code = cols.code[slot] as number;
    return code >= 0 ? `e${code}` : (cols.names[-1 - code] as string);
  }

  private recordAt(cols: Columns, slot: number, source: string, target: string, relation: string): JsonObject {
    const record = cols.records[slot];
    if (record === null || record === undefined) return { relation, source, target };
    if (typeof record !== "string") return record;
    const parsed = parseLosslessJson(record, { source: `edge ${this.keyAt(cols, slot)}` });
    if (!isJsonObject(parsed)) throw new Error(`stored edge ${this.keyAt(cols, slot)} is not an object`);
    // Parsed once: later reads share it, as they shared the record before it was kept as text.
    if (this.cols === cols) cols.records[slot] = parsed;
    return parsed;
  }

  private edgeAt(cols: Columns, slot: number): GraphEdge {
    const source = this.ids[cols.src[slot] as number] as string;
    const target = this.ids[cols.tgt[slot] as number] as string;
    const relation = this.relations[cols.rel[slot] as number] as string;
    const code = cols.code[slot] as number;
    const key = code >= 0 ? `e${code}` : (cols.names[-1 - code] as string);
    const record = cols.records[slot];
    // One literal shape for every edge (the plain triple's record made in place): this runs per edge read.
    const attrs = record === null ? { relation, source, target } : this.recordAt(cols, slot, source, target, relation);
    return { key, source, target, relation, attrs, ord: cols.ord[slot] };
  }

  /**
   * Put an edge under `key`: a known key keeps its slot (and place in iteration), a new one is
   * appended. `record` null is the plain triple; a string is stored JSON, parsed when read.
   */
  put(key: string, source: string, target: string, relation: string, ord: number, record: Record): void {
    const slot = this.slotOf(key);
    if (slot >= 0) this.update(slot, source, target, relation, ord, record);
    else this.append(key, source, target, relation, ord, record);
  }

  /** Append an edge under a key the store does not hold (the caller checked). */
  append(key: string, source: string, target: string, relation: string, ord: number, record: Record): void {
    this.appendRow(key, this.intern(source), this.intern(target), relation, ord, record);
  }

  /**
   * Append an edge between interned nodes (`nodeIndexOf`) unless the key is held already
   * (then false, nothing changed): a load's one call per row.
   */
  appendRow(key: string, source: number, target: number, relation: string, ord: number, record: Record): boolean {
    const n = canonicalNumber(key);
    if (n >= 0 && n < this.byNumber.length && (this.byNumber[n] as number) >= 0) return false;
    // A number too far ahead when it came is held by name: look there too (the table is mostly empty).
    if (this.byName.size > 0 && this.byName.has(key)) return false;
    let cols = this.cols;
    if (cols.count === cols.capacity) cols = this.cols = cols.grown(Math.max(1024, Math.ceil(cols.capacity * 1.5)));
    const slot = cols.count;
    cols.src[slot] = source;
    cols.tgt[slot] = target;
    cols.rel[slot] = this.relationOf(relation);
    cols.ord[slot] = ord;
    cols.records.push(record);
    // A number far past the others would make the by-number table huge: such keys go by name.
    if (n >= 0 && n < 2 * cols.count + (1 << 16)) {
      if (n >= this.byNumber.length) {
        const grown = new Int32Array(Math.max(n + 1, Math.ceil(this.byNumber.length * 1.5), 1024)).fill(-1);
        grown.set(this.byNumber);
        this.byNumber = grown;
      }
      this.byNumber[n] = slot;
      cols.code[slot] = n;
    } else {
      cols.code[slot] = -1 - cols.names.length;
      cols.names.push(key);
      this.byName.set(key, slot);
    }
    cols.count = slot + 1;
    this.live++;
    return true;
  }

  private update(slot: number, source: string, target: string, relation: string, ord: number, record: Record): void {
    const cols = this.cols;
    const s = this.intern(source);
    const t = this.intern(target);
    const moved = s !== cols.src[slot] || t !== cols.tgt[slot];
    cols.src[slot] = s;
    cols.tgt[slot] = t;
    cols.rel[slot] = this.relationOf(relation);
    cols.ord[slot] = ord;
    cols.records[slot] = record;
    if (moved && slot < this.indexedUpTo) {
      this.stale++;
      this.addExtra(this.extraOut, this.csr?.outStart, this.csr?.outSlots, s, slot);
      this.addExtra(this.extraIn, this.csr?.inStart, this.csr?.inSlots, t, slot);
    }
  }

  delete(key: string): boolean {
    const slot = this.slotOf(key);
    if (slot < 0) return false;
    const cols = this.cols;
    cols.dead[slot] = 1;
    cols.records[slot] = null;
    const code = cols.code[slot] as number;
    if (code >= 0) this.byNumber[code] = -1;
    else this.byName.delete(key);
    this.live--;
    if (slot < this.indexedUpTo) this.stale++;
    return true;
  }

  /**
   * Renumber the slots in stored order (by ord; ties keep their order), dropping removed ones:
   * what a fresh load of the rows gives. O(edges log edges); only when an edge comes back at an
   * earlier position (a revert).
   */
  sortByOrd(): void {
    this.renumber(true);
  }

  /** New columns holding the live slots only (in ord order when `sort`), and no adjacency yet. */
  private renumber(sort: boolean): void {
    const old = this.cols;
    const slots: number[] = [];
    for (let s = 0; s < old.count; s++) if (!old.dead[s]) slots.push(s);
    if (sort) slots.sort((a, b) => (old.ord[a] as number) - (old.ord[b] as number) || a - b);
    const cols = new Columns(slots.length, []);
    this.byNumber.fill(-1);
    this.byName = new Map();
    for (let i = 0; i < slots.length; i++) {
      const s = slots[i] as number;
      cols.src[i] = old.src[s] as number;
      cols.tgt[i] = old.tgt[s] as number;
      cols.rel[i] = old.rel[s] as number;
      cols.ord[i] = old.ord[s] as number;
      cols.records.push(old.records[s] ?? null);
      const code = old.code[s] as number;
      if (code >= 0) {
        cols.code[i] = code;
        this.byNumber[code] = i;
      } else {
        const name = old.names[-1 - code] as string;
        cols.code[i] = -1 - cols.names.length;
        cols.names.push(name);
        this.byName.set(name, i);
      }
    }
    cols.count = slots.length;
    this.cols = cols;
    this.dropIndex();
  }

  private dropIndex(): void {
    this.csr = null;
    this.extraOut = new Map();
    this.extraIn = new Map();
    this.extraCount = 0;
    this.indexedUpTo = 0;
    this.stale = 0;
  }

  /**
   * Build the adjacency of every slot now (else the first neighbourhood query does): counting
   * sort of the slots by endpoint. Trims the columns to their size first.
   */
  buildIndex(): void {
    // Removed slots are dropped once they are a quarter of the columns (a renumbering), and spare room trimmed.
    if (this.cols.count - this.live > this.cols.count >> 2) this.renumber(false);
    let cols = this.cols;
    if (cols.capacity > cols.count + (cols.count >> 6) + 1024) cols = this.cols = cols.grown(cols.count);
    const nodes = this.ids.length;
    const count = cols.count;
    const outStart = new Int32Array(nodes + 1);
    const inStart = new Int32Array(nodes + 1);
    let live = 0;
    for (let s = 0; s < count; s++) {
      if (cols.dead[s]) continue;
      live++;
      const u = (cols.src[s] as number) + 1;
      const v = (cols.tgt[s] as number) + 1;
      outStart[u] = (outStart[u] as number) + 1;
      inStart[v] = (inStart[v] as number) + 1;
    }
    for (let u = 0; u < nodes; u++) {
      outStart[u + 1] = (outStart[u + 1] as number) + (outStart[u] as number);
      inStart[u + 1] = (inStart[u + 1] as number) + (inStart[u] as number);
    }
    const outSlots = new Int32Array(live);
    const inSlots = new Int32Array(live);
    const outAt = outStart.slice(0, nodes);
    const inAt = inStart.slice(0, nodes);
    for (let s = 0; s < count; s++) {
      if (cols.dead[s]) continue;
      const u = cols.src[s] as number;
      const v = cols.tgt[s] as number;
      outSlots[outAt[u] as number] = s;
      outAt[u] = (outAt[u] as number) + 1;
      inSlots[inAt[v] as number] = s;
      inAt[v] = (inAt[v] as number) + 1;
    }
    this.dropIndex();
    this.csr = { slots: count, nodes, outStart, outSlots, inStart, inSlots };
    this.indexedUpTo = count;
  }

  /** Bring the adjacency up to the slots appended since: per-node lists, or a rebuild when they would grow large. */
  private indexed(): void {
    const cols = this.cols;
    if (this.indexedUpTo === cols.count && this.csr) return;
    const pending = cols.count - this.indexedUpTo;
    if (!this.csr || this.extraCount + this.stale + pending > Math.max(4096, this.live >> 3)) {
      this.buildIndex();
      return;
    }
    for (let s = this.indexedUpTo; s < cols.count; s++) {
      if (cols.dead[s]) continue;
      pushTo(this.extraOut, cols.src[s] as number, s);
      pushTo(this.extraIn, cols.tgt[s] as number, s);
      this.extraCount++;
    }
    this.indexedUpTo = cols.count;
  }

  /** A moved slot joins its new endpoint's list, unless that endpoint's range or list has it already. */
  private addExtra(lists: Map<number, number[]>, start: Int32Array | undefined, slots: Int32Array | undefined, u: number, slot: number): void {
    if (start && slots && u + 1 < start.length) {
      let lo = start[u] as number;
      let hi = (start[u + 1] as number) - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const v = slots[mid] as number;
        if (v === slot) return;
        if (v < slot) lo = mid + 1;
        else hi = mid - 1;
      }
    }
    const list = lists.get(u);
    if (list?.includes(slot)) return;
    pushTo(lists, u, slot);
    this.extraCount++;
  }

  /**
   * The live slots leaving (`out`) or entering a node, appended to `into` in slot order — the
   * order a fresh build lists them in (slots are in stored order), so a graph advanced by
   * changes walks a node's edges as a fresh load does: traversal, tie-breaks and which copy a
   * clean-up keeps do not depend on how the version was reached. With `skipLoops`, not those
   * that also leave it (a self-loop listed once).
   */
  private slotsOf(u: number, out: boolean, into: number[], skipLoops = false): void {
    const from = into.length;
    if (this.collectSlots(u, out, into, skipLoops)) sortFrom(into, from);
  }

  /** slotsOf's work, the CSR range first, then the later ones; whether the later ones may be out of order. */
  private collectSlots(u: number, out: boolean, into: number[], skipLoops: boolean): boolean {
    const cols = this.cols;
    const ends = out ? cols.src : cols.tgt;
    const other = out ? cols.tgt : cols.src;
    const dead = cols.dead;
    const csr = this.csr as Csr;
    if (u < csr.nodes) {
      const start = out ? csr.outStart : csr.inStart;
      const slots = out ? csr.outSlots : csr.inSlots;
      for (let i = start[u] as number, end = start[u + 1] as number; i < end; i++) {
        const s = slots[i] as number;
        if (dead[s] === 0 && ends[s] === u && !(skipLoops && other[s] === u)) into.push(s);
      }
    }
    const extra = (out ? this.extraOut : this.extraIn).get(u);
    if (!extra) return false;
    const before = into.length;
    for (const s of extra) if (dead[s] === 0 && ends[s] === u && !(skipLoops && other[s] === u)) into.push(s);
    // Appended slots come in order after the range; a moved slot (an edge given another
    // endpoint, e.g. by a merge) may belong anywhere among them.
    for (let i = Math.max(before, 1); i < into.length; i++) if ((into[i] as number) < (into[i - 1] as number)) return true;
    return false;
  }

  /** The node's index with the adjacency brought up to date, or -1 for an id no edge or node used. */
  private nodeIndex(id: string): number {
    const u = this.idIndex.get(id);
    if (u === undefined) return -1;
    this.indexed();
    return u;
  }

  private edgesAt(slots: number[]): GraphEdge[] {
    const cols = this.cols;
    const edges: GraphEdge[] = new Array<GraphEdge>(slots.length);
    for (let i = 0; i < slots.length; i++) edges[i] = this.edgeAt(cols, slots[i] as number);
    return edges;
  }

  /** Keys of the edges leaving (`out`) or entering a node. */
  adjacentKeys(id: string, out: boolean): string[] {
    const u = this.nodeIndex(id);
    if (u < 0) return [];
    const slots: number[] = [];
    this.slotsOf(u, out, slots);
    const cols = this.cols;
    return slots.map((s) => this.keyAt(cols, s));
  }

  adjacentEdges(id: string, out: boolean): GraphEdge[] {
    const u = this.nodeIndex(id);
    if (u < 0) return [];
    const slots: number[] = [];
    this.slotsOf(u, out, slots);
    return this.edgesAt(slots);
  }

  /** Edges touching a node, out first then in (a self-loop once). */
  incidentEdges(id: string): GraphEdge[] {
    const u = this.nodeIndex(id);
    if (u < 0) return [];
    const slots: number[] = [];
    this.slotsOf(u, true, slots);
    this.slotsOf(u, false, slots, true);
    return this.edgesAt(slots);
  }

  /** Edges touching a node, out then in (a self-loop twice). */
  forEachIncident(id: string, visit: (edge: GraphEdge) => void): void {
    const u = this.nodeIndex(id);
    if (u < 0) return;
    const slots: number[] = [];
    this.slotsOf(u, true, slots);
    this.slotsOf(u, false, slots);
    const cols = this.cols;
    for (let i = 0; i < slots.length; i++) visit(this.edgeAt(cols, slots[i] as number));
  }

  degree(id: string): number {
    const u = this.nodeIndex(id);
    if (u < 0) return 0;
    if (this.stale === 0) {
      const csr = this.csr as Csr;
      let n = (this.extraOut.get(u)?.length ?? 0) + (this.extraIn.get(u)?.length ?? 0);
      if (u < csr.nodes) n += (csr.outStart[u + 1] as number) - (csr.outStart[u] as number) + (csr.inStart[u + 1] as number) - (csr.inStart[u] as number);
      return n;
    }
    const slots: number[] = [];
    this.slotsOf(u, true, slots);
    this.slotsOf(u, false, slots);
    return slots.length;
  }

  // Iteration walks the columns of the time it started: a renumbering meanwhile (a revert)
  // leaves it on the old numbering. Plain iterator objects, not generators: a load-sized scan is
  // one call per edge.
  entries(): MapIterator<[string, GraphEdge]> {
    return new SlotIterator(this.cols, (cols, s) => {
      const edge = this.edgeAt(cols, s);
      return [edge.key, edge] as [string, GraphEdge];
    });
  }

  keys(): MapIterator<string> {
    return new SlotIterator(this.cols, (cols, s) => this.keyAt(cols, s));
  }

  values(): MapIterator<GraphEdge> {
    return new SlotIterator(this.cols, (cols, s) => this.edgeAt(cols, s));
  }

  [Symbol.iterator](): MapIterator<[string, GraphEdge]> {
    return this.entries();
  }

  forEach(visit: (value: GraphEdge, key: string, map: ReadonlyMap<string, GraphEdge>) => void): void {
    for (const [key, edge] of this.entries()) visit(edge, key, this);
  }
}

/** The live slots of one numbering, each made into a value by `make`. */
class SlotIterator<T> implements IterableIterator<T> {
  private slot = 0;
  constructor(
    private readonly cols: Columns,
    private readonly make: (cols: Columns, slot: number) => T,
  ) {}

  next(): IteratorResult<T, undefined> {
    const cols = this.cols;
    while (this.slot < cols.count) {
      const s = this.slot++;
      if (cols.dead[s] === 0) return { value: this.make(cols, s), done: false };
    }
    return { value: undefined, done: true };
  }

  [Symbol.iterator](): this {
    return this;
  }
}

/** Sort `list` from index `from` on, numerically, in place. */
function sortFrom(list: number[], from: number): void {
  const tail = list.slice(from).sort((a, b) => a - b);
  for (let i = 0; i < tail.length; i++) list[from + i] = tail[i] as number;
}

function pushTo(lists: Map<number, number[]>, u: number, slot: number): void {
  const list = lists.get(u);
  if (list) list.push(slot);
  else lists.set(u, [slot]);
}
