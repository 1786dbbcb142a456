/**
 * Which stored graphs are retrieved through SQL (sql-retrieval.ts) instead of in memory:
 * `REFINERY_SQL_RETRIEVAL_EDGES` (default 5,000,000) is the most edges a graph may have and
 * still be loaded whole for retrieval; above it, on PostgreSQL, `refinery query`, MCP `query`,
 * runs and asks read only what the question reaches. 0 turns SQL retrieval off. SQLite graphs are
 * always retrieved in memory. Kept apart from sql-retrieval.ts so deciding loads no driver.
 */
import { AppError } from "../../errors";
import { dialectOf, resolveDatabaseUrl } from "../db/database-url";

export const DEFAULT_SQL_RETRIEVAL_EDGES = 5_000_000;

export function sqlRetrievalThreshold(env: Record<string, string | undefined> = process.env): number {
  const raw = env.REFINERY_SQL_RETRIEVAL_EDGES;
  if (raw === undefined || raw.trim() === "") return DEFAULT_SQL_RETRIEVAL_EDGES;
  const n = Number(raw.trim().replace(/_/g, ""));
  if (!Number.isInteger(n) || n < 0) {
    throw new AppError("INVALID_INPUT", `REFINERY_SQL_RETRIEVAL_EDGES must be a whole number of edges (0 = never), not ${JSON.stringify(raw)}`);
  }
  return n;
}

/** Whether a graph (version) of `edges` edges is retrieved through SQL. */
export function usesSqlRetrieval(edges: number, env: Record<string, string | undefined> = process.env): boolean {
  const threshold = sqlRetrievalThreshold(env);
  return threshold > 0 && edges > threshold && dialectOf(resolveDatabaseUrl(env)) === "postgres";
}
