/**
 * The graph a run works on (issue #17 item 4): the whole version from the cache, or — over
 * `REFINERY_SQL_RETRIEVAL_EDGES` on PostgreSQL — no graph in memory at all: the hop loop
 * retrieves through SQL (graphs/sql-run-retrieval.ts) and each step, the provider and the source
 * text read the partial graph its retrieval returned (the step's triples, the question's seeds
 * and mentions, the adjacency of the subgraph's entities). The final review then reads a
 * neighbourhood of each action (proposals/sql-review.ts).
 *
 * Equal to the in-memory run (sql-run-graph.test.ts): every step's triples, evidence and the
 * judge's verdict (the judge reads the question's mentions and the relation ranker, both
 * prefetched). Not equal: the heuristic abduction and refinement, which read whole-graph
 * indexes — near-duplicate names and close names over every node, the relation role sets behind
 * "different kinds: 0 of the graph's nodes are both …", code statistics — and so see only the
 * partial graph: fewer or other "similar names" findings, and merges judged without the
 * whole-graph role counts. Their proposals are reviewed over SQL, whose labels never go up.
 */
import type { KnowledgeGraph } from "../../graph/model";
import type { LoopRetrieval } from "../../loop/types";
import type { SqlLoopRetrieval, SqlRunGraph } from "../graphs";
import { runAsk } from "../../ask/run-ask";
import { createSqlLoopRetrieval, findSqlRunGraph, loadGraph, sqlSettleGraph } from "../graphs";

export interface RunGraph {
  name: string;
  version: number;
  via: "memory" | "sql";
  /** Set when retrieved through SQL. */
  sql: SqlRunGraph | null;
  /** The graph the run works on now: the whole version, or the last SQL retrieval's partial graph. */
  graph(): KnowledgeGraph;
  /** What runHopLoop starts from: its graph, and the SQL retrieval when there is one. */
  start(question: string, planned: boolean): Promise<{ graph: KnowledgeGraph; retrieval?: LoopRetrieval }>;
  /** SQL retrieval figures (null in memory). */
  stats(): SqlLoopRetrieval["stats"] | null;
}

export async function pickRunGraph(name: string, version?: number): Promise<RunGraph> {
  const sql = await findSqlRunGraph(name, version);
  if (!sql) {
    const loaded = await loadGraph(name, version);
    return {
      name: loaded.name,
      version: loaded.version,
      via: "memory",
      sql: null,
      graph: () => loaded.graph,
      start: () => Promise.resolve({ graph: loaded.graph }),
      stats: () => null,
    };
  }
  const retrieval = createSqlLoopRetrieval(sql.source);
  return {
    name: sql.name,
    version: sql.source.version,
    via: "sql",
    sql,
    graph: () => retrieval.lastGraph(),
    async start(question, planned) {
      // The Ask plan (graph_rft_plan) reads the graph before any step: the partial graph the
      // same heuristic plan settles on (plan-retrieval.ts runs it again there). Otherwise nothing yet.
      if (!planned) return { graph: retrieval.lastGraph(), retrieval };
      const settled = await sqlSettleGraph(sql.source, question, (graph) => runAsk({ graph, question, graphName: sql.name, graphVersion: sql.source.version, corpusFallback: false }));
      return { graph: settled.graph, retrieval };
    },
    stats: () => retrieval.stats,
  };
}
