/**
 * Graphs in the database: create from an import (one transaction: all or nothing), list,
 * stats, and load any version back into a KnowledgeGraph (cached per graph version).
 */
import type { Actor } from "../../auth/permissions";
import { AppError } from "../../errors";
import type { CorpusDocument } from "../../import/corpus";
import { KnowledgeGraph } from "../../graph/model";
import type { BundleQuestion } from "../../import/parse-bundle";
import { carryRelationRanker } from "../../retrieve/rank-relations";
import { prepareRelationRanking } from "./relation-ranking";
import { metaFromText, nodeFromColumns } from "./graph-rows";
import { getSql } from "../db/sql";
import type { VersionSource } from "./graph-versions";
import { getCachedVersion } from "./graph-versions";
import type { GraphFormat, GraphSummary } from "./write-graph";

// Start-up cost: loading a graph (`refinery query`, every server read) needs neither Prisma's
// client nor the write path (write-graph → audit → zod): together ~170 ms of CPU per CLI call.
// So they are imported on first use, inside the functions below, and loadGraph reads the graph's
// row with plain SQL.
const prisma = async () => (await import("../db/db")).getDb();

export type { GraphFormat, GraphSummary } from "./write-graph";
export { advanceCachedGraph, evictGraphs, getVersionCacheStats } from "./graph-versions";

export interface CreateGraphOptions {
  name: string;
  format: GraphFormat;
  sourcePath?: string | null;
  graph: KnowledgeGraph;
  documents?: CorpusDocument[];
  questions?: BundleQuestion[];
  message?: string;
  /** The `graph.import` event is written in the same transaction. */
  actor?: Actor;
  /** Called with (done, total) as rows are written, for progress output. */
  onProgress?: (done: number, total: number) => void;
}

/** Write a parsed graph as a new graph (one transaction: all or nothing). */
export async function createGraph(options: CreateGraphOptions): Promise<GraphSummary> {
  const { graph, ...rest } = options;
  const { contentOfGraph, writeGraph } = await import("./write-graph");
  return writeGraph({ ...rest, content: contentOfGraph(graph) });
}

export async function getGraphRecord(name: string) {
  const row = await (await prisma()).graph.findUnique({ where: { name } });
  if (!row) {
    throw new AppError("NOT_FOUND", `no graph named ${JSON.stringify(name)} (see \`refinery graphs\`)`, { name });
  }
  return row;
}

export async function getGraphSummary(name: string): Promise<GraphSummary> {
  const db = await prisma();
  const row = await getGraphRecord(name);
  const [version, documents, questions] = await Promise.all([
    db.graphVersion.findUnique({ where: { graphId_version: { graphId: row.id, version: row.currentVersion } } }),
    db.document.count({ where: { graphId: row.id } }),
    db.question.count({ where: { graphId: row.id } }),
  ]);
  return {
    id: row.id,
    name: row.name,
    format: row.format,
    sourcePath: row.sourcePath,
    version: row.currentVersion,
    nodes: version?.nodeCount ?? 0,
    edges: version?.edgeCount ?? 0,
    documents,
    questions,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function findGraphs(): Promise<GraphSummary[]> {
  const rows = await (await prisma()).graph.findMany({ orderBy: { createdAt: "asc" }, select: { name: true } });
  return Promise.all(rows.map((r) => getGraphSummary(r.name)));
}

export interface LoadedGraph {
  graphId: string;
  name: string;
  version: number;
  graph: KnowledgeGraph;
}

/**
 * Load a version (default: current) of a graph. Versions are immutable: the graph returned shows
 * that version for as long as it is held, and must be treated as read-only. Served from the
 * version cache (graph-versions.ts): a whole load only when the graph has no live version yet.
 */
export async function loadGraph(name: string, version?: number): Promise<LoadedGraph> {
  const row = await findGraphRow(name);
  const v = version ?? row.currentVersion;
  if (!Number.isInteger(v) || v < 1 || v > row.currentVersion) {
    throw new AppError("NOT_FOUND", `graph ${JSON.stringify(name)} has versions 1..${row.currentVersion}, not ${version}`, {
      name,
      version,
    });
  }
  const graph = await getCachedVersion(versionSource(row), v);
  return { graphId: row.id, name: row.name, version: v, graph };
}

/** The columns of a graph's row that a read needs, by plain SQL (no Prisma client: see the imports). */
export async function findGraphRow(name: string): Promise<{ id: string; name: string; currentVersion: number; meta: string; sourcePath: string | null }> {
  const row = await getSql().get<{ id: string; name: string; currentVersion: number | string; meta: string; sourcePath: string | null }>(
    `SELECT "id", "name", "currentVersion", "meta", "sourcePath" FROM "Graph" WHERE "name" = ?`,
    [name],
  );
  if (!row) throw new AppError("NOT_FOUND", `no graph named ${JSON.stringify(name)} (see \`refinery graphs\`)`, { name });
  return { ...row, currentVersion: Number(row.currentVersion) };
}

/** A version's node and edge counts by plain SQL (null: no such version), for a read that decides how to answer before it loads. */
export async function findVersionCounts(graphId: string, version: number): Promise<{ nodeCount: number; edgeCount: number } | null> {
  const row = await getSql().get<{ nodeCount: number | string; edgeCount: number | string }>(`SELECT "nodeCount", "edgeCount" FROM "GraphVersion" WHERE "graphId" = ? AND "version" = ?`, [graphId, version]);
  return row ? { nodeCount: Number(row.nodeCount), edgeCount: Number(row.edgeCount) } : null;
}

/** Where the version cache gets whole loads and the set-up of a new live graph from. */
export function versionSource(row: { id: string; currentVersion: number; meta: string; sourcePath: string | null }): VersionSource {
  return {
    graphId: row.id,
    currentVersion: row.currentVersion,
    load: (version) => buildGraph(row.id, version, row.meta, row.sourcePath),
    // A next version ranks as its previous one: no re-read of the descriptions, no edge scan.
    prepare: (graph, previous) => carryRelationRanker(previous, graph),
  };
}

/**
 * Rows per page of a load. Each page is one short indexed query and one slice of graph
 * building, then the event loop serves other requests: no request waits for a whole load.
 * PostgreSQL's pages are larger: each is a round trip to the server.
 */
const LOAD_PAGE_ROWS = { sqlite: 1_000, postgres: 5_000 } as const;

/**
 * Read a version's live rows page by page, in (ord, pk) order (readLivePages), and build the
 * graph as they come, yielding to the event loop between pages. Rows arrive as arrays of values and
 * become nodes and edges at once: no row object, no whole table in memory.
 */
async function buildGraph(graphId: string, version: number, meta: string, sourcePath: string | null): Promise<KnowledgeGraph> {
  const graph = new KnowledgeGraph(metaFromText(meta));
  await readLivePages("Node", `"nodeId", "label", "normLabel", "ord", "data"`, graphId, version, (rows) => {
    for (const r of rows) graph.addNode(nodeFromColumns(r[0] as string, r[1] as string, r[2] as string, Number(r[3]), r[4] as string | null));
  });
  // Edges go into the graph's columns as they come (no edge object per row); the store interns
  // endpoint ids to the node's own string and each relation to one string.
  const counted = await getSql().get<{ n: number | string }>(`SELECT "edgeCount" AS "n" FROM "GraphVersion" WHERE "graphId" = ? AND "version" = ?`, [graphId, version]);
  if (counted) graph.reserveEdges(Number(counted.n));
  await readLivePages("Edge", `"edgeKey", "source", "target", "relation", "ord", "data"`, graphId, version, (rows) => {
    for (const r of rows) graph.addEdgeRow(r[0] as string, r[1] as string, r[2] as string, r[3] as string, Number(r[4]), r[5] as string | null);
  });
  graph.buildIndexes();
  prepareRelationRanking(graph, sourcePath);
  return graph;
}

/**
 * Windows of "ord" (`ord >= lo AND ord < lo + page`): one index range scan on
 * ("graphId", "ord") each, on both dialects, in (ord, pk) order (the index holds the pk). A
 * keyset `("ord", "pk") > (?, ?) … LIMIT` made PostgreSQL sort every live row per page
 * (FB15k-237: 39 s) and cost SQLite a seek and a row-value comparison per row. The rows of an
 * item's versions share its ord, so a window never splits them; an empty window (ords freed
 * by deletes) skips ahead to the next ord the index holds.
 */
async function readLivePages(table: "Node" | "Edge", columns: string, graphId: string, version: number, onPage: (rows: unknown[][]) => void): Promise<void> {
  for await (const rows of livePages<unknown[]>(table, columns, graphId, version)) {
    onPage(rows);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** The same windows pulled one page at a time (export prints each page before the next is read). */
export async function* livePages<T>(table: "Node" | "Edge", columns: string, graphId: string, version: number): AsyncGenerator<T[], void, undefined> {
  const sql = getSql();
  const live = `"graphId" = ? AND "validFrom" <= ? AND ("validTo" IS NULL OR "validTo" > ?)`;
  // One subquery per bound: SQLite answers a lone MIN or MAX from the index's end, but scans the
  // whole index for both in one SELECT (1M edges: 0.4 s).
  const bound = (fn: "MIN" | "MAX") => `(SELECT ${fn}("ord") FROM "${table}" WHERE "graphId" = ?)`;
  const span = await sql.get<{ lo: number | string | null; hi: number | string | null }>(`SELECT ${bound("MIN")} AS "lo", ${bound("MAX")} AS "hi"`, [graphId, graphId]);
  if (span?.lo === null || span?.lo === undefined || span.hi === null) return;
  const windowed = `SELECT ${columns} FROM "${table}" WHERE ${live} AND "ord" >= ? AND "ord" < ? ORDER BY "ord", "pk"`;
  const nextOrd = `SELECT MIN("ord") AS "lo" FROM "${table}" WHERE "graphId" = ? AND "ord" >= ?`;
  const hi = Number(span.hi);
  const page = LOAD_PAGE_ROWS[sql.dialect];
  for (let lo = Number(span.lo); lo <= hi; ) {
    const rows = await sql.queryRows(windowed, [graphId, version, version, lo, lo + page]);
    lo += page;
    if (rows.length > 0) yield rows as T[];
    else {
      const next = (await sql.get<{ lo: number | string | null }>(nextOrd, [graphId, lo]))?.lo;
      if (next === null || next === undefined) return;
      lo = Number(next);
    }
  }
}

/** LIKE pattern for "contains `text`", `\` escaping LIKE's own characters. */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The graph's documents whose text names both strings (case-insensitive as LOWER goes: ASCII on
 * SQLite, Unicode on PostgreSQL), at most `limit` per search, in docId order: what a review reads
 * for an insert with an endpoint the graph does not have, or between two nodes (the passage that
 * states it may be linked to neither; review-actions.ts `textSearchesForReview`).
 */
export async function findDocumentsNaming(graphId: string, searches: readonly { subject: string; object: string }[], limit: number): Promise<CorpusDocument[]> {
  const out = new Map<string, CorpusDocument>();
  for (const { subject, object } of searches) {
    const rows = await getSql().query<{ docId: string; kind: string; title: string | null; path: string | null; text: string }>(
      `SELECT "docId", "kind", "title", "path", "text" FROM "Document"
       WHERE "graphId" = ? AND LOWER("text") LIKE ? ESCAPE '\\' AND LOWER("text") LIKE ? ESCAPE '\\'
       ORDER BY "docId" LIMIT ${Math.max(1, Math.floor(limit))}`,
      [graphId, containsPattern(subject), containsPattern(object)],
    );
    for (const r of rows) out.set(r.docId, { ...r, kind: r.kind === "file" ? "file" : "passage" });
  }
  return [...out.values()];
}

export async function findDocuments(graphId: string, docIds: string[]): Promise<CorpusDocument[]> {
  if (docIds.length === 0) return [];
  const rows = await (await prisma()).document.findMany({
    where: { graphId, docId: { in: docIds } },
    select: { docId: true, kind: true, title: true, path: true, text: true },
  });
  return rows.map((r) => ({ ...r, kind: r.kind === "file" ? "file" : "passage" }));
}

/** How often each relation is used in a version, most used first. */
export async function findRelationCounts(graphId: string, version: number): Promise<{ relation: string; count: number }[]> {
  return getSql().query<{ relation: string; count: number }>(
    `SELECT "relation", COUNT(*) AS "count" FROM "Edge"
     WHERE "graphId" = ? AND "validFrom" <= ? AND ("validTo" IS NULL OR "validTo" > ?)
     GROUP BY "relation" ORDER BY "count" DESC, "relation"`,
    [graphId, version, version],
  );
}
