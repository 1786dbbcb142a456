/**
 * Graph rules (lib/review/mine-graph-rules) per graph version, mined once in the background and
 * kept in memory for the review. Versions are immutable, so a version's rules never go stale.
 *
 * A request never waits for mining: `getGraphRulesForReview` returns the rules when they are
 * ready and null otherwise, starting the job if there is none. Jobs run one at a time (two cores
 * serve everyone) in slices of SLICE_MS, each followed by setImmediate, so requests, timers and
 * I/O are served between slices. A bounded number of versions is kept (least recently used
 * first out); a failed job stays failed for that version, with its error, until evicted.
 */
import type { KnowledgeGraph } from "../../graph/model";
import type { GraphRulesMiner, MinedGraphRules } from "../../review/mine-graph-rules";
import { createGraphRulesMiner } from "../../review/mine-graph-rules";

/** Versions whose rules are kept (FB15k-237's take about 15 MB with their index). */
const MAX_GRAPHS = 4;
/** Work per slice before yielding to the event loop. */
const SLICE_MS = 8;

export interface GraphRulesStatus {
  state: "ready" | "mining" | "failed";
  /** 0–1 (1 when ready). */
  progress: number;
  /** Wall time since the job was queued (until ready or failed). */
  ms: number;
  /** Time spent mining (excludes waiting for other jobs and for the event loop). */
  activeMs: number;
  error?: string;
  /** When ready: what was mined. */
  stats?: MinedGraphRules["stats"];
}

interface Entry {
  key: string;
  /** Held until mining ends (the rules keep their own index). */
  graph: KnowledgeGraph | null;
  miner: GraphRulesMiner | null;
  rules: MinedGraphRules | null;
  state: GraphRulesStatus["state"];
  error?: string;
  queuedAt: number;
  endedAt: number | null;
  activeMs: number;
  waiters: { resolve: (rules: MinedGraphRules) => void; reject: (error: Error) => void }[];
}

interface CacheState {
  entries: Map<string, Entry>;
  pumping: boolean;
}

// On globalThis so Next's dev reloads of this module keep one cache and one running job.
const globalForRules = globalThis as unknown as { refineryGraphRules?: CacheState };
const cache = (globalForRules.refineryGraphRules ??= { entries: new Map<string, Entry>(), pumping: false });

const keyOf = (graphId: string, version: number) => `${graphId}:${version}`;

function touch(entry: Entry): void {
  cache.entries.delete(entry.key);
  cache.entries.set(entry.key, entry);
}

function ensure(graphId: string, version: number, graph: KnowledgeGraph): Entry {
  const key = keyOf(graphId, version);
  const found = cache.entries.get(key);
  if (found) {
    touch(found);
    return found;
  }
  const entry: Entry = {
    key,
    graph,
    miner: null,
    rules: null,
    state: "mining",
    queuedAt: performance.now(),
    endedAt: null,
    activeMs: 0,
    waiters: [],
  };
  cache.entries.set(key, entry);
  while (cache.entries.size > MAX_GRAPHS) {
    const oldest = cache.entries.values().next().value;
    if (!oldest || oldest === entry) break;
    cache.entries.delete(oldest.key);
    for (const w of oldest.waiters) w.reject(new Error(`graph rules for ${oldest.key} were evicted before they were ready`));
  }
  schedule();
  return entry;
}

function schedule(): void {
  if (cache.pumping) return;
  cache.pumping = true;
  setImmediate(pump);
}

/**
 * One slice of the most recently requested job still mining, then yield. Most recent first (the
 * map is kept in request order by `touch`): a review waiting for a small graph's rules must not
 * wait behind the versions of a big graph mined earlier (FB15k-237 takes ~10 s a version).
 * A job set aside keeps its miner and resumes where it was.
 */
function pump(): void {
  const entry = [...cache.entries.values()].findLast((e) => e.state === "mining");
  if (!entry) {
    cache.pumping = false;
    return;
  }
  const started = performance.now();
  try {
    if (!entry.graph) throw new Error("no graph to mine");
    entry.miner ??= createGraphRulesMiner({ graph: entry.graph });
    if (entry.miner.step(SLICE_MS)) {
      entry.rules = entry.miner.result();
      entry.state = "ready";
      entry.endedAt = performance.now();
      entry.miner = null;
      for (const w of entry.waiters.splice(0)) w.resolve(entry.rules);
    }
  } catch (error) {
    entry.state = "failed";
    entry.error = error instanceof Error ? error.message : String(error);
    entry.endedAt = performance.now();
    entry.miner = null;
    for (const w of entry.waiters.splice(0)) w.reject(new Error(`mining graph rules failed: ${entry.error}`));
  } finally {
    entry.activeMs += performance.now() - started;
  }
  if (entry.state !== "mining") entry.graph = null;
  setImmediate(pump);
}

/**
 * The rules of this graph version if mined, else null at once — starting the mining in the
 * background when nothing is running for it. Never blocks: callers review without rules meanwhile.
 */
export function getGraphRulesForReview({ graphId, version, graph }: { graphId: string; version: number; graph: KnowledgeGraph }): MinedGraphRules | null {
  return ensure(graphId, version, graph).rules;
}

/** Status for the UI; null when nothing was asked for this version (or it was evicted). */
export function getGraphRulesStatus({ graphId, version }: { graphId: string; version: number }): GraphRulesStatus | null {
  const entry = cache.entries.get(keyOf(graphId, version));
  if (!entry) return null;
  const now = entry.endedAt ?? performance.now();
  return {
    state: entry.state,
    progress: entry.state === "ready" ? 1 : (entry.miner?.progress ?? 0),
    ms: Math.round(now - entry.queuedAt),
    activeMs: Math.round(entry.activeMs),
    ...(entry.error ? { error: entry.error } : {}),
    ...(entry.rules ? { stats: entry.rules.stats } : {}),
  };
}

/** Resolves when this version's rules are mined (starting the job if needed): for scripts and tests. */
export function whenGraphRulesReady({ graphId, version, graph }: { graphId: string; version: number; graph: KnowledgeGraph }): Promise<MinedGraphRules> {
  const entry = ensure(graphId, version, graph);
  if (entry.rules) return Promise.resolve(entry.rules);
  if (entry.state === "failed") return Promise.reject(new Error(`mining graph rules failed: ${entry.error ?? "unknown error"}`));
  return new Promise((resolve, reject) => entry.waiters.push({ resolve, reject }));
}

/**
 * Resolves true once this version's rules are mined (at once if they are), false if mining fails,
 * is evicted or was never asked for. Starts no job: for work that should follow a job already running.
 */
export function whenGraphRulesSettled({ graphId, version }: { graphId: string; version: number }): Promise<boolean> {
  const entry = cache.entries.get(keyOf(graphId, version));
  if (!entry || entry.state === "failed") return Promise.resolve(false);
  if (entry.rules) return Promise.resolve(true);
  return new Promise((resolve) => entry.waiters.push({ resolve: () => resolve(true), reject: () => resolve(false) }));
}

/** Forget every cached version (tests). A job in progress is dropped. */
export function clearGraphRulesCache(): void {
  for (const entry of cache.entries.values()) {
    for (const w of entry.waiters) w.reject(new Error("graph rules cache cleared"));
  }
  cache.entries.clear();
}
