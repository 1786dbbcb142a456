/**
 * The SQL-retrieval part of `npm run bench:scale` (PostgreSQL): the bench's questions answered
 * through lib/server/graphs/sql-retrieval.ts without loading the graph, beside (when the graph
 * is loaded too) the in-memory answers, which must be the same.
 *
 *   keys     writing the NodeKey rows of a new import (once per graph, on first use)
 *   first    the first question: the version's whole-graph figures (counts, hub degree) + one query
 *   query    the bench questions, queryGraph cap 20 through SQL: p50 / p95, fetch rounds and
 *            SQL statements per question
 */
import type { KnowledgeGraph } from "../lib/graph/model";
import { queryGraph } from "../lib/retrieve/query-graph";
import { percentile } from "./bench-helpers";

export interface SqlRetrievalFigures {
  keysS: number;
  firstMs: number;
  p50: number;
  p95: number;
  rounds: number;
  statements: number;
  /** Questions whose SQL answer differed from the in-memory one (only when a graph was given). */
  differing: number | null;
}

/** The bench's questions (benchQuestions) from the stored rows: edge i·7919 in load order, its subject's label. */
export async function sqlBenchQuestions(graphId: string, version: number, count = 200): Promise<string[]> {
  const { getSql } = await import("../lib/server/db/sql");
  const sql = getSql();
  const live = (a: string) => `${a}."validFrom" <= ? AND (${a}."validTo" IS NULL OR ${a}."validTo" > ?)`;
  const span = await sql.get<{ n: number; lo: number; hi: number }>(
    `SELECT COUNT(*) AS "n", MIN(e."ord") AS "lo", MAX(e."ord") AS "hi" FROM "Edge" e WHERE e."graphId" = ? AND ${live("e")}`,
    [graphId, version, version],
  );
  const total = Number(span?.n ?? 0);
  // A fresh import numbers its edges 0..n-1: edge k is then the one at ord lo+k (an OFFSET would scan k index entries).
  const contiguous = total > 0 && Number(span?.hi) - Number(span?.lo) + 1 === total;
  const questions: string[] = [];
  for (let i = 0; i < count && total > 0; i++) {
    const k = (i * 7919) % total;
    const pick = contiguous ? `AND e."ord" = ? ORDER BY e."pk" LIMIT 1` : `ORDER BY e."ord", e."pk" LIMIT 1 OFFSET ?`;
    const row = await sql.get<{ label: string; relation: string }>(
      `SELECT n."label", e."relation" FROM "Edge" e JOIN "Node" n ON n."graphId" = e."graphId" AND n."nodeId" = e."source" AND ${live("n")}
       WHERE e."graphId" = ? AND ${live("e")} ${pick}`,
      [version, version, graphId, version, version, contiguous ? Number(span?.lo) + k : k],
    );
    if (!row) continue;
    const relation = row.relation.split(/[/._]/).filter(Boolean).slice(-2).join(" ");
    questions.push(`What is the ${relation} of ${row.label}?`);
  }
  return questions;
}

export async function measureSqlRetrieval(name: string, questions: readonly string[], graph?: KnowledgeGraph): Promise<SqlRetrievalFigures> {
  const { getDb } = await import("../lib/server/db/db");
  const { ensureNodeKeys } = await import("../lib/server/graphs/sql-node-keys");
  const { sqlQueryGraph } = await import("../lib/server/graphs/sql-retrieval");
  const row = await getDb().graph.findUniqueOrThrow({ where: { name } });
  const source = { graphId: row.id, version: row.currentVersion, sourcePath: row.sourcePath, meta: row.meta };
  let t = performance.now();
  await ensureNodeKeys(source.graphId, source.version);
  const keysS = (performance.now() - t) / 1000;
  t = performance.now();
  await sqlQueryGraph(source, { question: questions[0] ?? "", limit: 20 });
  const firstMs = performance.now() - t;
  const samples: number[] = [];
  let rounds = 0;
  let statements = 0;
  let differing = graph ? 0 : null;
  for (const question of questions) {
    t = performance.now();
    const r = await sqlQueryGraph(source, { question, limit: 20 });
    samples.push(performance.now() - t);
    rounds += r.rounds;
    statements += r.queries;
    if (graph && differing !== null) {
      const memory = queryGraph({ graph, question, limit: 20 });
      if (JSON.stringify(memory.edgeKeys) !== JSON.stringify(r.result.edgeKeys)) differing++;
    }
  }
  const sorted = [...samples].sort((a, b) => a - b);
  const n = Math.max(1, questions.length);
  return { keysS, firstMs, p50: percentile(sorted, 50), p95: percentile(sorted, 95), rounds: rounds / n, statements: statements / n, differing };
}

/**
 * A graph of `copies` × an imported graph whose ids end in `~0` (replicateFb15k's ×1 file),
 * written server-side in SQL as the import of the ×copies file would store it (ids, labels
 * and edge keys per copy, one version). For sizes the import cannot take yet (it reads the
 * file whole, under a 512 MiB limit): the figure measured on it is SQL retrieval's, not import's.
 */
export async function replicateStoredGraph(fromName: string, copies: number, name: string): Promise<number> {
  const { getSql } = await import("../lib/server/db/sql");
  const { randomUUID } = await import("node:crypto");
  const sql = getSql();
  const from = await sql.get<{ id: string }>(`SELECT "id" FROM "Graph" WHERE "name" = ?`, [fromName]);
  if (!from) throw new Error(`no graph ${fromName}`);
  const id = `bench-${randomUUID()}`;
  const span = async (table: string) => Number((await sql.get<{ n: number }>(`SELECT COALESCE(MAX("ord"), -1) + 1 AS "n" FROM "${table}" WHERE "graphId" = ?`, [from.id]))?.n ?? 0);
  const nodeSpan = await span("Node");
  const edgeSpan = await span("Edge");
  const suffix = (column: string) => `regexp_replace(${column}, '~0$', '~' || k)`;
  // The bench's own database: its Node/Edge indexes are rebuilt after the rows, as the bulk
  // import does (kept during 10M inserts they thrash the buffer cache for tens of minutes).
  const indexes = await sql.query<{ name: string; def: string }>(
    `SELECT indexname AS "name", indexdef AS "def" FROM pg_indexes WHERE tablename IN ('Node', 'Edge') AND indexname NOT LIKE '%pkey'`,
  );
  for (const index of indexes) await sql.execute(`DROP INDEX "${index.name}"`);
  await sql.transaction(async (tx) => {
    await tx.execute(
      `INSERT INTO "Graph" ("id", "name", "format", "sourcePath", "meta", "currentVersion", "loopRetrieval", "createdAt", "updatedAt")
       SELECT ?, ?, "format", "sourcePath", "meta", 1, "loopRetrieval", now(), now() FROM "Graph" WHERE "id" = ?`,
      [id, name, from.id],
    );
    await tx.execute(
      `INSERT INTO "GraphVersion" ("graphId", "version", "message", "nodeCount", "edgeCount", "createdAt")
       SELECT ?, 1, 'replicated ×' || ?, "nodeCount" * ?, "edgeCount" * ?, now() FROM "GraphVersion" WHERE "graphId" = ? AND "version" = 1`,
      [id, copies, copies, copies, from.id],
    );
    await tx.execute(
      `INSERT INTO "Node" ("graphId", "nodeId", "label", "normLabel", "ord", "data", "validFrom")
       SELECT ?, ${suffix(`n."nodeId"`)}, ${suffix(`n."label"`)}, ${suffix(`n."normLabel"`)}, k * ? + n."ord", n."data", 1
       FROM generate_series(0, ? - 1) AS k, "Node" n WHERE n."graphId" = ? AND n."validTo" IS NULL ORDER BY k, n."ord"`,
      [id, nodeSpan, copies, from.id],
    );
    await tx.execute(
      `INSERT INTO "Edge" ("graphId", "edgeKey", "source", "target", "relation", "ord", "data", "validFrom")
       SELECT ?, 'e' || (k * ? + substr(e."edgeKey", 2)::bigint), ${suffix(`e."source"`)}, ${suffix(`e."target"`)}, e."relation", k * ? + e."ord", e."data", 1
       FROM generate_series(0, ? - 1) AS k, "Edge" e WHERE e."graphId" = ? AND e."validTo" IS NULL ORDER BY k, e."ord"`,
      [id, edgeSpan, edgeSpan, copies, from.id],
    );
  });
  for (const index of indexes) await sql.execute(index.def);
  await sql.execute(`ANALYZE "Node"`);
  await sql.execute(`ANALYZE "Edge"`);
  return Number((await sql.get<{ n: number }>(`SELECT "edgeCount" AS "n" FROM "GraphVersion" WHERE "graphId" = ?`, [id]))?.n ?? 0);
}
