/**
 * Writing a new graph to the database in one transaction (all or nothing), through raw SQL
 * only: this module runs in the import worker too (import-worker.ts), which loads no Prisma.
 *
 * A graph arrives as `GraphContent`: counts plus row generators, either from a parsed
 * KnowledgeGraph (`contentOfGraph`) or straight from triple lines (`contentOfTriples`, which
 * never builds the in-memory graph: a triple file's rows are fully derived from its lines); or
 * as `StreamedContent` (a triple file of any size read in chunks, stream-triples.ts): edge rows
 * in batches as the file is read, node rows after, counts at the end.
 *
 * With `bulk` (the worker's own connection, never the server's): on SQLite the import runs with
 * synchronous = OFF, a large page cache and no per-row foreign-key check (tuneSqliteForBulk; the
 * settings are put back after), on PostgreSQL without the per-row foreign-key triggers where the
 * role may (skipForeignKeyChecks); and when the new rows outnumber what the tables hold
 * already, the Node/Edge secondary indexes are dropped before the inserts and rebuilt after them,
 * inside the same transaction (DDL is transactional on both dialects, so a kill leaves the old
 * indexes); on PostgreSQL only into empty tables (see dropIndexesForBulk). Rows go through
 * `insertMany`: multi-row prepared statements on SQLite, `COPY … FROM STDIN` on PostgreSQL.
 * Progress: rows as they are written (`onProgress`), then each index build and the commit
 * (`onStep`), the slow part at a million edges.
 */
import { randomUUID } from "node:crypto";
import type { Actor } from "../../auth/permissions";
import { AppError } from "../../errors";
import type { GraphMeta, KnowledgeGraph } from "../../graph/model";
import { normalizeLabel } from "../../graph/normalize";
import type { CorpusDocument } from "../../import/corpus";
import type { BundleQuestion } from "../../import/parse-bundle";
import type { RawTriple } from "../../import/parse-triples";
import { queryIdOf } from "../../questions/query-id";
import { recordAuditSql } from "../audit";
import { edgeToRow, metaToText, nodeToRow } from "./graph-rows";
import type { SqlExecutor, SqlValue } from "../db/sql";
import { getSql, isUniqueViolation } from "../db/sql";

export type GraphFormat = "graphify" | "triples" | "bundle";

export interface GraphSummary {
  id: string;
  name: string;
  format: string;
  sourcePath: string | null;
  version: number;
  nodes: number;
  edges: number;
  documents: number;
  questions: number;
  createdAt: string;
  updatedAt: string;
}

const NAME_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N} ._@+-]{0,99}$/u;

/** Names that would collide with fixed API paths (`/api/graphs/upload`, `/api/graphs/imports`). */
const RESERVED_NAMES = new Set(["upload", "imports"]);

export function validateGraphName(name: string): string {
  const trimmed = name.trim();
  if (RESERVED_NAMES.has(trimmed.toLowerCase())) {
    throw new AppError("INVALID_INPUT", `${JSON.stringify(trimmed)} is reserved; choose another graph name`);
  }
  if (!NAME_PATTERN.test(trimmed)) {
    throw new AppError(
      "INVALID_INPUT",
      `invalid graph name ${JSON.stringify(name)}: use 1-100 letters, digits, spaces, ".", "_", "-", "+" or "@", starting with a letter or digit`,
    );
  }
  return trimmed;
}

/** A graph to write: counts up front (the version row comes first), rows as generators. */
export interface GraphContent {
  meta: GraphMeta;
  nodeCount: number;
  edgeCount: number;
  /** Rows `[graphId, nodeId, label, normLabel, ord, data, validFrom]`; the array may be reused. */
  nodeRows(graphId: string): Iterable<SqlValue[]>;
  /** Rows `[graphId, edgeKey, source, target, relation, ord, data, validFrom]`. */
  edgeRows(graphId: string): Iterable<SqlValue[]>;
}

/**
 * A graph whose rows are produced as its input is read (a triple file of any size,
 * stream-triples.ts): the counts are known only at the end. `stream` calls `sink.begin` once
 * with its estimate of the counts (before the first rows: the bulk index decision), then
 * `sink.edges` with batches of edge rows (one batch in flight at a time), then `sink.nodes`;
 * it resolves with the exact counts.
 */
export interface StreamedContent {
  meta: GraphMeta;
  stream(graphId: string, sink: RowSink): Promise<{ nodeCount: number; edgeCount: number }>;
}

export interface RowSink {
  begin(expected: { nodeCount: number; edgeCount: number }): Promise<void>;
  edges(rows: Iterable<SqlValue[]>, count: number): Promise<void>;
  nodes(rows: Iterable<SqlValue[]>, count: number): Promise<void>;
}

function isStreamed(content: GraphContent | StreamedContent): content is StreamedContent {
  return "stream" in content;
}

const NODE_COLUMNS = ["graphId", "nodeId", "label", "normLabel", "ord", "data", "validFrom"] as const;
const EDGE_COLUMNS = ["graphId", "edgeKey", "source", "target", "relation", "ord", "data", "validFrom"] as const;
/** Every imported row belongs to the new graph's first version: SQLite writes these once per statement (insertMany). */
const SAME_IN_EVERY_ROW = ["graphId", "validFrom"] as const;

export function contentOfGraph(graph: KnowledgeGraph): GraphContent {
  return {
    meta: graph.meta,
    nodeCount: graph.nodes.size,
    edgeCount: graph.edges.size,
    *nodeRows(graphId) {
      let ord = 0;
      for (const node of graph.nodes.values()) {
        const r = nodeToRow(node, ord++);
        yield [graphId, r.nodeId, r.label, r.normLabel, r.ord, r.data, 1];
      }
    },
    *edgeRows(graphId) {
      let ord = 0;
      for (const edge of graph.edges.values()) {
        const r = edgeToRow(edge, ord++);
        yield [graphId, r.edgeKey, r.source, r.target, r.relation, r.ord, r.data, 1];
      }
    },
  };
}

/**
 * The rows `parseTriples` + `contentOfGraph` would give, without the graph: nodes in order of
 * first sight (subject before object), edges `e<n>` in file order, every record derivable
 * (stored as null). graph-rows.test.ts checks both paths agree on real files.
 */
export function contentOfTriples(triples: readonly RawTriple[], labels?: ReadonlyMap<string, string>): GraphContent {
  const nodeIds = new Set<string>();
  for (const t of triples) {
    nodeIds.add(t.subject);
    nodeIds.add(t.object);
  }
  return {
    meta: { top: { directed: true, multigraph: true, graph: {}, nodes: null, links: null }, linksKey: "links" },
    nodeCount: nodeIds.size,
    edgeCount: triples.length,
    *nodeRows(graphId) {
      let ord = 0;
      for (const id of nodeIds) {
        const label = labels?.get(id) ?? id;
        yield [graphId, id, label, normalizeLabel(label), ord++, null, 1];
      }
    },
    *edgeRows(graphId) {
      const row: SqlValue[] = [graphId, "", "", "", "", 0, null, 1];
      for (let i = 0; i < triples.length; i++) {
        const t = triples[i] as RawTriple;
        row[0] = graphId;
        row[1] = `e${i}`;
        row[2] = t.subject;
        row[3] = t.object;
        row[4] = t.relation;
        row[5] = i;
        row[6] = null;
        row[7] = 1;
        yield row;
      }
    },
  };
}

export interface WriteGraphOptions {
  name: string;
  format: GraphFormat;
  sourcePath?: string | null;
  /** Rows known up front, or streamed as the input is read (counts known at the end). */
  content: GraphContent | StreamedContent;
  documents?: CorpusDocument[];
  questions?: BundleQuestion[];
  message?: string;
  /** Who imports: the `graph.import` audit event is written in the import's own transaction. */
  actor?: Actor;
  /** The worker's own connection: tune it for one big write (see the file comment). */
  bulk?: boolean;
  /** Called with (done, total) as rows are written (streamed content: total is the estimate given to `begin`). */
  onProgress?: (done: number, total: number) => void;
  /** Called as each later step starts (index builds, commit): the rows are written, and these take seconds at a million edges. */
  onStep?: (message: string) => void;
}

export function importAuditSummary(g: Pick<GraphSummary, "name" | "nodes" | "edges" | "documents">, format: string): string {
  return `imported ${g.name} (${format}: ${g.nodes} nodes, ${g.edges} edges, ${g.documents} documents)`;
}

export async function writeGraph(options: WriteGraphOptions): Promise<GraphSummary> {
  const sql = getSql();
  const name = validateGraphName(options.name);
  const conflict = () => new AppError("CONFLICT", `a graph named ${JSON.stringify(name)} already exists; choose another name`, { name });
  if (await sql.get(`SELECT "id" FROM "Graph" WHERE "name" = ?`, [name])) throw conflict();
  const { content } = options;
  const documents = options.documents ?? [];
  const questions = dedupeQuestions(options.questions ?? []);
  const streamed = isStreamed(content);
  let total = streamed ? documents.length : content.nodeCount + content.edgeCount + documents.length;
  let done = 0;
  const progress = (n: number) => {
    done += n;
    options.onProgress?.(done, total);
  };
  const graphId = randomUUID();
  const now = new Date();
  const summary: GraphSummary = {
    id: graphId,
    name,
    format: options.format,
    sourcePath: options.sourcePath ?? null,
    version: 1,
    nodes: streamed ? 0 : content.nodeCount,
    edges: streamed ? 0 : content.edgeCount,
    documents: documents.length,
    questions: questions.length,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  const restore = options.bulk && sql.dialect === "sqlite" ? await tuneSqliteForBulk(sql) : [];
  const step = options.onStep ?? (() => {});
  const write = async (tx: SqlExecutor) => {
    await tx.execute(
      `INSERT INTO "Graph" ("id", "name", "format", "sourcePath", "meta", "currentVersion", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, 1, ?, ?)`,
      [graphId, name, options.format, options.sourcePath ?? null, metaToText(content.meta), now, now],
    );
    let rebuild: { name: string; sql: string }[] = [];
    let withoutRowChecks = false;
    const prepare = async (expected: { nodeCount: number; edgeCount: number }) => {
      rebuild = options.bulk ? await dropIndexesForBulk(tx, expected) : [];
      withoutRowChecks = Boolean(options.bulk) && tx.dialect === "postgres" && (await skipForeignKeyChecks(tx));
    };
    if (streamed) {
      const counts = await content.stream(graphId, {
        begin: async (expected) => {
          total += expected.nodeCount + expected.edgeCount;
          await prepare(expected);
        },
        edges: (rows) => tx.insertMany("Edge", EDGE_COLUMNS, rows, progress, SAME_IN_EVERY_ROW),
        nodes: (rows) => tx.insertMany("Node", NODE_COLUMNS, rows, progress, SAME_IN_EVERY_ROW),
      });
      summary.nodes = counts.nodeCount;
      summary.edges = counts.edgeCount;
    } else {
      await prepare(content);
      await tx.insertMany("Node", NODE_COLUMNS, content.nodeRows(graphId), progress, SAME_IN_EVERY_ROW);
      await tx.insertMany("Edge", EDGE_COLUMNS, content.edgeRows(graphId), progress, SAME_IN_EVERY_ROW);
    }
    if (withoutRowChecks) await tx.execute(`SET LOCAL session_replication_role = origin`);
    // After the rows: a streamed graph's counts are known only now (same transaction either way).
    await tx.execute(
      `INSERT INTO "GraphVersion" ("graphId", "version", "message", "nodeCount", "edgeCount", "createdAt") VALUES (?, 1, ?, ?, ?, ?)`,
      [graphId, options.message ?? `imported ${options.format}`, summary.nodes, summary.edges, now],
    );
    const sqlite = tx.dialect === "sqlite";
    let sorting = false;
    for (const [i, index] of (sqlite ? inRebuildOrder(rebuild) : rebuild).entries()) {
      if (sqlite && !sorting && !leadsWithGraphId(index.sql)) {
        await tx.execute(`PRAGMA cache_size = ${SQLITE_SORT_CACHE}`);
        sorting = true;
      }
      step(`building index ${i + 1} of ${rebuild.length} (${index.name})`);
      await tx.execute(index.sql);
    }
    await tx.insertMany(
      "Document",
      ["graphId", "docId", "kind", "title", "path", "text"],
      documents.map((d) => [graphId, d.docId, d.kind, d.title, d.path, d.text]),
    );
    progress(documents.length);
    await tx.insertMany(
      "Question",
      ["graphId", "queryId", "text", "source", "answers", "refined", "ord", "createdAt"],
      questions.map((q) => [graphId, queryIdOf(q.question), q.question.trim(), "bundle", q.answers ? JSON.stringify(q.answers) : null, false, q.ord, now]),
    );
    if (options.actor) {
      await recordAuditSql(tx, options.actor, {
        action: "graph.import",
        summary: importAuditSummary(summary, options.format),
        graphName: name,
        targetType: "graph",
        targetId: name,
        details: { format: options.format, nodes: summary.nodes, edges: summary.edges, documents: summary.documents },
      });
    }
    step("committing");
  };
  try {
    await sql.transaction(write);
  } catch (e) {
    if (isUniqueViolation(e, "Graph", "name")) throw conflict();
    throw e;
  } finally {
    for (const pragma of restore) await sql.execute(`PRAGMA ${pragma}`);
  }
  if (options.bulk && sql.dialect === "postgres") {
    // A bulk import grows the tables many times over before autovacuum notices: without fresh
    // planner statistics the first commits after it closed each deleted edge by a sequential
    // plan (300–450 ms per UPDATE at 1M edges, against ~1 ms once analyzed; ANALYZE samples,
    // 0.3 s at 1M and 0.7 s at 10M). After the commit: the rows are there and nothing waits on it.
    step("updating the database's planner statistics");
    await sql.execute(`ANALYZE "Edge"`);
    await sql.execute(`ANALYZE "Node"`);
  }
  return summary;
}

/**
 * SQLite settings for one big write on the worker's own connection, returning the statements
 * that put the connection's settings back afterwards. synchronous = OFF: a kill still rolls
 * the import back (the WAL is written, only not fsynced before the commit returns; an OS crash
 * can lose the last commit, never corrupt the file). A large page cache keeps the new rows'
 * pages in memory while they are written; foreign keys are off because every row's graphId is
 * the Graph row this transaction wrote first. temp_store = FILE, not MEMORY, for the index
 * builds: with temporary storage in memory SQLite's sorter mallocs each record and sorts them
 * all as one list (cache misses on every merge pass); with files it packs records into one
 * buffer and sorts runs of the page cache's size, on a second thread (`threads`), merging them
 * after — see SQLITE_SORT_CACHE.
 */
/**
 * The page cache while SQLite rebuilds the endpoint indexes of a bulk import (KiB, negative): it
 * also sizes the sorter's runs. 32 MiB runs fit the processor's caches far better than one list
 * of a million records in random order, and each run is sorted on the second thread while the
 * next is read. The rows' dirty pages are spilled to the WAL as the new index pages need room
 * (pages the commit would write anyway). The (graphId, …) indexes are built before, with the
 * whole cache: one graph's rows arrive in their key order (ord, e<n>), so one list sorts fast,
 * and building them during the spill cost twice as much.
 * Measured at 1.09M edges (CPU): endpoint indexes 4.9 → 3.2 s, the others and the commit unchanged.
 */
const SQLITE_SORT_CACHE = -32_768;

/** Whether an index's first column is graphId (its rows arrive nearly in key order at an import). */
function leadsWithGraphId(indexSql: string): boolean {
  return /\(\s*"graphId"/.test(indexSql);
}

/** The (graphId, …) indexes first (see SQLITE_SORT_CACHE), otherwise as the schema lists them. */
function inRebuildOrder<T extends { sql: string }>(indexes: T[]): T[] {
  return [...indexes.filter((x) => leadsWithGraphId(x.sql)), ...indexes.filter((x) => !leadsWithGraphId(x.sql))];
}

async function tuneSqliteForBulk(sql: SqlExecutor): Promise<string[]> {
  const settings: [string, string][] = [
    ["synchronous", "OFF"],
    ["cache_size", "-262144"],
    ["temp_store", "FILE"],
    ["threads", "2"],
    ["foreign_keys", "OFF"],
  ];
  const restore: string[] = [];
  for (const [name, value] of settings) {
    const before = await sql.get<Record<string, SqlValue>>(`PRAGMA ${name}`);
    const old = before ? Object.values(before)[0] : undefined;
    if (old !== undefined && old !== null) restore.push(`${name} = ${Number(old)}`);
    await sql.execute(`PRAGMA ${name} = ${value}`);
  }
  return restore;
}

/**
 * PostgreSQL checks each COPYed row's foreign key (graphId → Graph) with a trigger of its own:
 * 60% of the rows' time at a million edges (COPY 25.5 → 9.5 s). Every row here carries the
 * graphId of the Graph row this transaction wrote first, so the checks can only pass; where the
 * role may (a superuser, or `GRANT SET ON PARAMETER session_replication_role`), the rows' triggers
 * are skipped until the rows are in (the caller sets it back to `origin`). Otherwise the import
 * runs with the checks, as before. Takes no lock; other sessions are unaffected.
 */
async function skipForeignKeyChecks(tx: SqlExecutor): Promise<boolean> {
  await tx.execute(`SAVEPOINT "bulk_role"`);
  try {
    await tx.execute(`SET LOCAL session_replication_role = replica`);
    await tx.execute(`RELEASE SAVEPOINT "bulk_role"`);
    return true;
  } catch {
    await tx.execute(`ROLLBACK TO SAVEPOINT "bulk_role"`);
    return false;
  }
}

/**
 * Drop the secondary indexes of Node and Edge when this import brings more rows than the
 * tables hold (rebuilding them after costs less than updating them row by row); returns the
 * statements that recreate them, read from the schema itself. PostgreSQL: only into an empty
 * table, because DROP INDEX locks the table against every reader until the import commits
 * (SQLite's readers keep reading the last commit meanwhile); the rebuild gets more sort memory.
 */
async function dropIndexesForBulk(tx: SqlExecutor, content: { nodeCount: number; edgeCount: number }): Promise<{ name: string; sql: string }[]> {
  const rebuild: { name: string; sql: string }[] = [];
  for (const [table, incoming] of [
    ["Node", content.nodeCount],
    ["Edge", content.edgeCount],
  ] as const) {
    if (incoming < 50_000) continue;
    const existing = (await tx.get<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "${table}"`))?.n ?? 0;
    if (tx.dialect === "postgres" ? existing > 0 : incoming < existing) continue;
    if (tx.dialect === "postgres" && rebuild.length === 0) await tx.execute(`SET LOCAL maintenance_work_mem = '256MB'`);
    const indexes =
      tx.dialect === "postgres"
        ? await tx.query<{ name: string; sql: string }>(
            `SELECT c."relname" AS "name", pg_get_indexdef(i."indexrelid") AS "sql" FROM "pg_index" i JOIN "pg_class" c ON c."oid" = i."indexrelid"
             WHERE i."indrelid" = ?::regclass AND NOT i."indisprimary" AND NOT i."indisunique"`,
            [`"${table}"`],
          )
        : await tx.query<{ name: string; sql: string }>(
            `SELECT "name", "sql" FROM "sqlite_master" WHERE "type" = 'index' AND "tbl_name" = ? AND "sql" IS NOT NULL`,
            [table],
          );
    for (const index of indexes) {
      await tx.execute(`DROP INDEX "${index.name.replace(/"/g, '""')}"`);
      rebuild.push(index);
    }
  }
  return rebuild;
}

function dedupeQuestions(questions: BundleQuestion[]): (BundleQuestion & { ord: number })[] {
  const seen = new Set<string>();
  const out: (BundleQuestion & { ord: number })[] = [];
  for (const q of questions) {
    const id = queryIdOf(q.question);
    if (seen.has(id)) continue;
    seen.add(id);
    out.push({ ...q, ord: out.length });
  }
  return out;
}
