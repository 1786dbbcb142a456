/**
 * `queryGraph` on a stored graph by name, wherever it is best answered: in memory (the version
 * cache) for graphs up to REFINERY_SQL_RETRIEVAL_EDGES, through SQL on PostgreSQL above it
 * (sql-retrieval.ts, loaded only then). The result is the same either way; `graph` holds at
 * least every node and edge of the result (for formatQueryText and labels).
 */
import type { KnowledgeGraph } from "../../graph/model";
import type { QueryGraphResult } from "../../retrieve/query-graph";
import { queryGraph } from "../../retrieve/query-graph";
import { AppError } from "../../errors";
import { findGraphRow, findVersionCounts, loadGraph } from "./graph-store";
import { usesSqlRetrieval } from "./sql-retrieval-setting";

export interface QueryStoredGraphOptions {
  name: string;
  /** Default: the current version. */
  version?: number;
  question: string;
  limit?: number;
  budgetChars?: number;
}

export interface StoredQuery {
  graph: KnowledgeGraph;
  version: number;
  result: QueryGraphResult;
  via: "memory" | "sql";
}

export async function queryStoredGraph({ name, version, question, limit, budgetChars }: QueryStoredGraphOptions): Promise<StoredQuery> {
  // Plain SQL, not Prisma: `refinery query` then never loads the ORM (start-up; see graph-store.ts).
  const row = await findGraphRow(name);
  const v = version ?? row.currentVersion;
  const stats = await findVersionCounts(row.id, v);
  if (stats && usesSqlRetrieval(stats.edgeCount)) {
    const { sqlQueryGraph } = await import("./sql-retrieval");
    const { result, graph } = await sqlQueryGraph({ graphId: row.id, version: v, sourcePath: row.sourcePath, meta: row.meta }, { question, limit, budgetChars });
    return { graph, version: v, result, via: "sql" };
  }
  if (!stats && version !== undefined) throw new AppError("NOT_FOUND", `graph ${JSON.stringify(name)} has no version ${version}`, { name, version });
  const loaded = await loadGraph(name, version);
  return { graph: loaded.graph, version: loaded.version, result: queryGraph({ graph: loaded.graph, question, limit, budgetChars }), via: "memory" };
}
