/**
 * The in-memory versions of graphs: one live graph per graph (its newest loaded version, full
 * maps) and older versions as overlays of their inverse changes over it. A commit advances the
 * live graph by its changeset (advanceCachedGraph, O(change)); a version committed by another
 * process is caught up from the stored changesets the same way; an older version is the live
 * graph rewound through the stored inverses. A whole load from rows happens only when a graph
 * has no live version here yet (or catching up failed).
 *
 * A graph object shows one version for ever (lib/graph/model.ts): a request that loaded version
 * N keeps seeing N while commits advance the live graph, and caches keyed by the graph object
 * (retrieval, review and rules indexes) stay right for the object they were built on.
 */
import { advanceGraph, rewindGraph } from "../../changes/advance-graph";
import type { Changeset } from "../../changes/changeset";
import { parseChangeset } from "../../changes/changeset";
import type { KnowledgeGraph } from "../../graph/model";
import { getSql } from "../db/sql";

interface GraphVersions {
  version: number;
  graph: KnowledgeGraph;
  /** Older versions already rewound (overlays: each costs its change, not a graph). */
  older: Map<number, KnowledgeGraph>;
}

// On globalThis: Next.js gives pages and API routes separate module instances, and two copies
// of a million-edge graph would double the memory and the load time.
const globalForGraphs = globalThis as unknown as { refineryGraphVersions?: Map<string, GraphVersions> };
const cache = (globalForGraphs.refineryGraphVersions ??= new Map<string, GraphVersions>());
/** Live graphs kept (least recently used go first). */
const MAX_GRAPHS = 4;
/**
 * Older versions kept per graph. Few: an overlay costs its change, but the indexes readers
 * build per graph object (retrieval, review) live as long as it does; a dropped version is
 * rewound again from the stored inverses in O(change).
 */
const MAX_OLDER = 2;

/** How versions were served since start (tests and the benchmark read them). */
export interface VersionCacheStats {
  /** Whole loads from rows. */
  loads: number;
  /** Versions advanced in memory: after a commit here, or caught up from another process's. */
  advances: number;
  caughtUp: number;
  /** Older versions built as overlays. */
  rewinds: number;
}
const stats: VersionCacheStats = { loads: 0, advances: 0, caughtUp: 0, rewinds: 0 };

export function getVersionCacheStats(): VersionCacheStats {
  return { ...stats };
}

/** Loads and catch-ups under way per graph: concurrent first reads share one. */
const pending = new Map<string, Promise<GraphVersions>>();

export interface VersionSource {
  graphId: string;
  /** The graph's current version in the database. */
  currentVersion: number;
  /** A whole load of one version from its rows. */
  load: (version: number) => Promise<KnowledgeGraph>;
  /** Set-up a version advanced in memory needs from its previous one (the relation ranker's options). */
  prepare: (next: KnowledgeGraph, previous: KnowledgeGraph) => void;
}

/** A version of a graph from the cache: the live graph, advanced or rewound as needed. */
export async function getCachedVersion(source: VersionSource, version: number): Promise<KnowledgeGraph> {
  const entry = await liveVersions(source);
  if (version === entry.version) return entry.graph;
  if (version > entry.version) {
    // Only when the graph moved again while this request caught up: load that version whole.
    return source.load(version);
  }
  const hit = entry.older.get(version);
  if (hit) {
    entry.older.delete(version);
    entry.older.set(version, hit);
    return hit;
  }
  // The live object keeps showing its version even if a commit advances it during the query.
  const base = entry.graph;
  const inverses = (await changesetRows(source.graphId, version, entry.version, "inverse")).reverse().map((r) => r.changeset);
  const graph = rewindGraph({ graph: base, inverses });
  stats.rewinds++;
  if (cache.get(source.graphId) === entry) remember(entry, version, graph);
  return graph;
}

async function liveVersions(source: VersionSource): Promise<GraphVersions> {
  const entry = cache.get(source.graphId);
  if (entry && entry.version >= source.currentVersion) {
    cache.delete(source.graphId);
    cache.set(source.graphId, entry);
    return entry;
  }
  let running = pending.get(source.graphId);
  if (!running) {
    running = refresh(source, entry).finally(() => pending.delete(source.graphId));
    pending.set(source.graphId, running);
  }
  const fresh = await running;
  // A request that asked for a newer version than the shared refresh reached refreshes again.
  return fresh.version >= source.currentVersion ? fresh : liveVersions(source);
}

async function refresh(source: VersionSource, entry: GraphVersions | undefined): Promise<GraphVersions> {
  if (entry && cache.get(source.graphId) === entry) {
    try {
      // Versions another process committed: advanced through their stored changesets.
      const rows = await changesetRows(source.graphId, entry.version, source.currentVersion, "ops");
      for (const row of rows) {
        if (row.version <= entry.version) continue; // this process's own commit got there first
        if (row.version !== entry.version + 1) throw new Error(`changeset of version ${entry.version + 1} missing`);
        advanceEntry(entry, row.version, row.changeset, source.prepare);
        stats.caughtUp++;
      }
      if (entry.version >= source.currentVersion) return entry;
    } catch {
      // A stored changeset that does not apply to the cached graph: fall back to a whole load.
    }
    cache.delete(source.graphId);
  }
  const version = source.currentVersion;
  const graph = await source.load(version);
  stats.loads++;
  const current = cache.get(source.graphId);
  // A commit in this process may have advanced a live graph past this load meanwhile.
  if (current && current.version >= version) return current;
  const fresh: GraphVersions = { version, graph, older: new Map() };
  cache.set(source.graphId, fresh);
  while (cache.size > MAX_GRAPHS) {
    const oldest = cache.keys().next().value;
    if (oldest === undefined) break;
    cache.delete(oldest);
  }
  return fresh;
}

function remember(entry: GraphVersions, version: number, graph: KnowledgeGraph): void {
  entry.older.set(version, graph);
  while (entry.older.size > MAX_OLDER) {
    const oldest = entry.older.keys().next().value;
    if (oldest === undefined) break;
    entry.older.delete(oldest);
  }
}

function advanceEntry(entry: GraphVersions, version: number, changeset: Changeset, prepare: VersionSource["prepare"]): void {
  const previous = entry.graph;
  const next = advanceGraph({ graph: previous, changesets: [changeset] });
  prepare(next, previous);
  entry.graph = next;
  entry.older.delete(version);
  remember(entry, entry.version, previous);
  entry.version = version;
}

/**
 * After a commit (never before: a rolled-back transaction must leave the cache as it was):
 * advance the graph's live version `from` to `to` by the changeset that was written, with the
 * positions it was written at. If the cache holds no live `from` (evicted, or another process
 * committed in between), nothing happens here and the next read catches up from the database.
 */
export function advanceCachedGraph(options: {
  graphId: string;
  from: number;
  to: number;
  changeset: Changeset;
  prepare: VersionSource["prepare"];
}): void {
  const entry = cache.get(options.graphId);
  if (!entry || entry.version !== options.from || options.to !== options.from + 1) return;
  try {
    advanceEntry(entry, options.to, options.changeset, options.prepare);
    stats.advances++;
  } catch {
    // advance checks before it changes anything; a changeset that does not apply means the cache
    // is not what the database holds, so drop it and let the next read load the version whole.
    cache.delete(options.graphId);
  }
}

/** Drop every cached graph (the benchmark's cold loads; tests). */
export function evictGraphs(): void {
  cache.clear();
}

async function changesetRows(graphId: string, fromExclusive: number, toInclusive: number, column: "ops" | "inverse"): Promise<{ version: number; changeset: Changeset }[]> {
  const rows = await getSql().query<{ version: number; text: string }>(
    `SELECT "version", "${column}" AS "text" FROM "Changeset" WHERE "graphId" = ? AND "version" > ? AND "version" <= ? ORDER BY "version"`,
    [graphId, fromExclusive, toInclusive],
  );
  return rows.map((r) => ({ version: Number(r.version), changeset: parseChangeset(r.text) }));
}
