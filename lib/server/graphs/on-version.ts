/**
 * Run pure code that reads one version of a graph, wherever the version is: the whole graph from
 * the version cache, or — over `REFINERY_SQL_RETRIEVAL_EDGES` on PostgreSQL — a partial graph of
 * what the code reads, fetched with SQL until it reads nothing the graph lacks
 * (partial-version.ts). The code must read through the graph's lookups (nodes by id or label,
 * a node's edges); edges by key are fetched up front (`changesets`).
 *
 * Kept apart from partial-version.ts so a caller on SQLite loads no PostgreSQL driver.
 */
import type { Changeset } from "../../changes/changeset";
import type { KnowledgeGraph } from "../../graph/model";
import { loadGraph } from "./graph-store";
import type { CommitRows, Settled } from "./partial-version";
import type { SqlGraphSource } from "./sql-retrieval";
import { findSqlRunGraph } from "./sql-run-retrieval";

export type { SqlGraphSource };

/**
 * partial-version.ts `settleOverSql`, loaded on first use (the way in for other domains): run
 * `run` on a partial graph of `source`, fetching what it missed until it misses nothing.
 */
export async function settleOnSql<T>(source: SqlGraphSource, run: (graph: KnowledgeGraph) => T, prefetch?: (rows: CommitRows) => Promise<void>): Promise<Settled<T>> {
  const { settleOverSql } = await import("./partial-version");
  return settleOverSql(source, run, prefetch);
}

/** The partial-graph statement counters (benches and tests print them). */
export async function sqlCommitCounts(): Promise<{ queries: number; sqlMs: number; rounds: number }> {
  return (await import("./partial-version")).sqlCommitStats;
}

export interface OnVersion<T> {
  result: T;
  graphId: string;
  version: number;
  via: "memory" | "sql";
}

export interface OnVersionOptions {
  /** Changesets whose items the code looks up by key (findConflicts): fetched before the first run. */
  changesets?: readonly Changeset[];
}

export async function runOnVersion<T>(graph: string, version: number | undefined, run: (graph: KnowledgeGraph) => T, options: OnVersionOptions = {}): Promise<OnVersion<T>> {
  const sql = await findSqlRunGraph(graph, version);
  if (!sql) {
    const loaded = await loadGraph(graph, version);
    return { result: run(loaded.graph), graphId: loaded.graphId, version: loaded.version, via: "memory" };
  }
  const { settleOverSql } = await import("./partial-version");
  const settled = await settleOverSql(sql.source, run, async (rows) => {
    for (const changeset of options.changesets ?? []) await rows.fetchChangeset(changeset);
  });
  return { result: settled.result, graphId: sql.source.graphId, version: sql.source.version, via: "sql" };
}
