/**
 * Runs and asks on graphs retrieved through SQL (issue #17 item 4): for a graph above
 * `REFINERY_SQL_RETRIEVAL_EDGES` on PostgreSQL (sql-retrieval-setting.ts), a run's hop loop
 * retrieves with `sqlQueryGraph` / `sqlExpandHops` (sql-retrieval.ts: the same triples as in
 * memory) and works on the partial graph each returns, and what a finished run shows (the
 * step's answer) reads only the step's edges. Nothing here loads the whole graph.
 *
 * sql-retrieval.ts is loaded only when a graph is over the setting (it loads the driver).
 */
import type { KnowledgeGraph } from "../../graph/model";
import { KnowledgeGraph as Graph } from "../../graph/model";
import type { LoopRetrieval } from "../../loop/types";
import { resolveDatabaseUrl } from "../db/database-url";
import { findGraphRow, findVersionCounts } from "./graph-store";
import { edgeFromColumns, metaFromText, nodeFromColumns } from "./graph-rows";
import type { SqlGraphSource, SqlOverlay } from "./sql-retrieval";

export type { SqlOverlay, WholeGraphFigures } from "./sql-retrieval";
import { sqlRetrievalThreshold, usesSqlRetrieval } from "./sql-retrieval-setting";

/** A stored version that is retrieved through SQL. */
export interface SqlRunGraph {
  name: string;
  source: SqlGraphSource;
  edgeCount: number;
  /** The setting it is over, for messages ("rules not mined for graphs over N edges"). */
  threshold: number;
}

/** The version retrieved through SQL, or null when it is loaded into memory (small, SQLite, or the setting off). */
export async function findSqlRunGraph(name: string, version?: number): Promise<SqlRunGraph | null> {
  const row = await findGraphRow(name);
  const v = version ?? row.currentVersion;
  const counts = await findVersionCounts(row.id, v);
  if (!counts || !usesSqlRetrieval(counts.edgeCount)) return null;
  return {
    name: row.name,
    source: { graphId: row.id, version: v, sourcePath: row.sourcePath, meta: row.meta },
    edgeCount: counts.edgeCount,
    threshold: sqlRetrievalThreshold(),
  };
}

export interface SqlLoopRetrieval extends LoopRetrieval {
  /** The graph of the last retrieval (empty before the first): holds the run's triples so far. */
  lastGraph(): KnowledgeGraph;
  /** Statements run, fetch rounds and SQL time over all retrievals. */
  stats: { calls: number; rounds: number; queries: number; sqlMs: number };
}

/**
 * The hop loop's retrieval through SQL on one stored version; with `overlay`, on that graph laid
 * over each partial graph (a campaign's sandbox), which the steps after the retrieval then read.
 */
export function createSqlLoopRetrieval(source: SqlGraphSource, overlay?: SqlOverlay): SqlLoopRetrieval {
  let last: KnowledgeGraph = new Graph(metaFromText(source.meta));
  const stats = { calls: 0, rounds: 0, queries: 0, sqlMs: 0 };
  const note = <T>(r: { result: T; graph: KnowledgeGraph; rounds: number; queries: number; sqlMs: number }) => {
    stats.calls++;
    stats.rounds += r.rounds;
    stats.queries += r.queries;
    stats.sqlMs += r.sqlMs;
    last = r.graph;
    return { result: r.result, graph: r.graph };
  };
  return {
    stats,
    lastGraph: () => last,
    async query(options) {
      const { sqlQueryGraph } = await import("./sql-retrieval");
      return note(await sqlQueryGraph(source, options, overlay));
    },
    async expand(options) {
      const { sqlExpandHops } = await import("./sql-retrieval");
      return note(await sqlExpandHops(source, options, overlay));
    },
  };
}

const LIVE = (alias: string, v: string) => `${alias}"validFrom" <= ${v} AND (${alias}"validTo" IS NULL OR ${alias}"validTo" > ${v})`;

/** Loaded on first use: importing this file (through graphs/index.ts) must not load the driver. */
async function pgRows(text: string, values: unknown[]): Promise<unknown[][]> {
  const { getPgPool } = await import("../db/pg-pool");
  return (await getPgPool(resolveDatabaseUrl()).query({ text, values, rowMode: "array" })).rows as unknown[][];
}

/**
 * The given edges of a version (in stored order) and their endpoints, as a graph of their own:
 * what a run step's answer reads (step-answer.ts), by the (graphId, edgeKey) index.
 */
export async function sqlSubgraphOfEdges(source: SqlGraphSource, edgeKeys: readonly string[]): Promise<KnowledgeGraph> {
  const graph = new Graph(metaFromText(source.meta));
  if (edgeKeys.length === 0) return graph;
  const edges = await pgRows(
    `SELECT e."edgeKey", e."source", e."target", e."relation", e."ord", e."data" FROM "Edge" e
     WHERE e."graphId" = $1 AND e."edgeKey" = ANY($3) AND ${LIVE("e.", "$2")} ORDER BY e."ord", e."pk"`,
    [source.graphId, source.version, [...new Set(edgeKeys)]],
  );
  const ends = new Set<string>();
  for (const r of edges) {
    ends.add(r[1] as string);
    ends.add(r[2] as string);
  }
  const nodes = await pgRows(
    `SELECT n."nodeId", n."label", n."normLabel", n."ord", n."data" FROM "Node" n
     WHERE n."graphId" = $1 AND n."nodeId" = ANY($3) AND ${LIVE("n.", "$2")} ORDER BY n."ord", n."pk"`,
    [source.graphId, source.version, [...ends]],
  );
  const nodeById = new Map(nodes.map((r) => [r[0] as string, nodeFromColumns(r[0] as string, r[1] as string, r[2] as string, Number(r[3]), r[4] as string | null)]));
  // In the order the step lists them, as step-answer's subgraph of the whole graph adds them.
  const byKey = new Map(edges.map((r) => [r[0] as string, r]));
  for (const key of edgeKeys) {
    const r = byKey.get(key);
    if (!r || graph.edges.has(key)) continue;
    const edge = edgeFromColumns(key, r[1] as string, r[2] as string, r[3] as string, Number(r[4]), r[5] as string | null);
    for (const id of [edge.source, edge.target]) {
      const node = nodeById.get(id);
      if (node && !graph.nodes.has(id)) graph.addNode(node);
    }
    if (graph.nodes.has(edge.source) && graph.nodes.has(edge.target)) graph.addEdge(edge);
  }
  return graph;
}

/** Rounds before an ask's graph is taken as it is (each fetches what the last run missed). */
const MAX_SETTLE_ROUNDS = 12;

export interface SettledGraph<T> {
  result: T;
  graph: KnowledgeGraph;
  rounds: number;
  /** Whether the last run read only nodes and adjacency the graph held completely. */
  settled: boolean;
}

/**
 * Run `run` (an Ask, any reader that follows edges from the question's entities) on partial
 * graphs of a stored version until it reads nothing the graph lacks: each round is
 * `sqlExpandHops` from every node the previous run asked about (so their adjacency is complete),
 * with the question's label lookups prefetched as for retrieval. A settled run read only complete
 * adjacency and nodes, so it followed the same edges it follows on the whole graph. What it
 * cannot certify: scans over every node or edge (the Ask's relation-name list is the partial
 * graph's relations, a superset of those around every node it read) and label lookups beyond
 * the question's words.
 */
export async function sqlSettleGraph<T>(source: SqlGraphSource, question: string, run: (graph: KnowledgeGraph) => Promise<T>, overlay?: SqlOverlay): Promise<SettledGraph<T>> {
  const { sqlExpandHops } = await import("./sql-retrieval");
  const entities = new Set<string>();
  for (let round = 1; ; round++) {
    // With an overlay the run reads the version through it: its misses are the partial graph's.
    const { graph, part } = await sqlExpandHops(source, { entities: [...entities], question, hops: 1, cap: 1 }, overlay);
    const result = await run(graph);
    const wanted = [...part.misses.ids, ...part.misses.adjacency].filter((id) => !entities.has(id));
    if (wanted.length === 0 || round >= MAX_SETTLE_ROUNDS) return { result, graph, rounds: round, settled: wanted.length === 0 };
    for (const id of wanted) entities.add(id);
  }
}
