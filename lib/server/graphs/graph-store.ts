/**
 * Graphs in the database: create from an import (one transaction: all or nothing), list,
 * stats, and load any version back into a KnowledgeGraph (cached per graph version).
 */
import type { Actor } from "../../auth/permissions";
import { AppError } from "../../errors";
import type { CorpusDocument } from "../../import/corpus";
import { KnowledgeGraph } from "../../graph/model";
import type { BundleQuestion } from "../../import/parse-bundle";
import { getDb } from "../db/db";
import { carryRelationRanker } from "../../retrieve/rank-relations";
import { prepareRelationRanking } from "./relation-ranking";
import { edgeFromColumns, metaFromText, nodeFromColumns } from "./graph-rows";
import type { SqlValue } from "../db/sql";
import { getSql } from "../db/sql";
import type { VersionSource } from "./graph-versions";
import { getCachedVersion } from "./graph-versions";
import type { GraphFormat, GraphSummary } from "./write-graph";
import { contentOfGraph, writeGraph } from "./write-graph";

export type { GraphFormat, GraphSummary } from "./write-graph";
export { validateGraphName } from "./write-graph";
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
  return writeGraph({ ...rest, content: contentOfGraph(graph) });
}

export async function getGraphRecord(name: string) {
  const row = await getDb().graph.findUnique({ where: { name } });
  if (!row) {
    throw new AppError("NOT_FOUND", `no graph named ${JSON.stringify(name)} (see \`refinery graphs\`)`, { name });
  }
  return row;
}

export async function getGraphSummary(name: string): Promise<GraphSummary> {
  const db = getDb();
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
  const rows = await getDb().graph.findMany({ orderBy: { createdAt: "asc" }, select: { name: true } });
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
  const row = await getGraphRecord(name);
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
 */
const LOAD_PAGE_ROWS = 1_000;

/**
 * Read a version's live rows page by page, in (ord, pk) order (keyset on the (graphId, ord)
 * index: the row-value comparison plus the plain `ord >=` keeps both planners on its range; an
 * OR of the two made SQLite scan from the start of the graph on every page), and build the graph
 * as they come, yielding to the event loop between pages. Rows arrive as arrays of values and
 * become nodes and edges at once: no row object, no whole table in memory.
 */
async function buildGraph(graphId: string, version: number, meta: string, sourcePath: string | null): Promise<KnowledgeGraph> {
  const graph = new KnowledgeGraph(metaFromText(meta));
  await readLivePages("Node", `"nodeId", "label", "normLabel", "ord", "data"`, graphId, version, (rows) => {
    for (const r of rows) graph.addNode(nodeFromColumns(r[0] as string, r[1] as string, r[2] as string, Number(r[3]), r[4] as string | null));
  });
  // Every row brings fresh copies of its endpoint ids and relation: kept, they would be most of a
  // big graph's heap (1M edges: ~120 MB of duplicates for the GC to trace). Each edge holds the
  // node's own id string and one shared string per relation instead.
  const relations = new Map<string, string>();
  const shared = (relation: string) => {
    const known = relations.get(relation);
    if (known !== undefined) return known;
    relations.set(relation, relation);
    return relation;
  };
  await readLivePages("Edge", `"edgeKey", "source", "target", "relation", "ord", "data"`, graphId, version, (rows) => {
    for (const r of rows) {
      const source = r[1] as string;
      const target = r[2] as string;
      const s = graph.getNode(source)?.id ?? source;
      const t = graph.getNode(target)?.id ?? target;
      graph.addEdge(edgeFromColumns(r[0] as string, s, t, shared(r[3] as string), Number(r[4]), r[5] as string | null));
    }
  });
  prepareRelationRanking(graph, sourcePath);
  return graph;
}

/** `columns` end with `"ord", "data"` (the keyset reads "ord" there); "pk" is appended. */
async function readLivePages(table: "Node" | "Edge", columns: string, graphId: string, version: number, onPage: (rows: unknown[][]) => void): Promise<void> {
  const sql = getSql();
  const live = `"graphId" = ? AND "validFrom" <= ? AND ("validTo" IS NULL OR "validTo" > ?)`;
  const first = `SELECT ${columns}, "pk" FROM "${table}" WHERE ${live} ORDER BY "ord", "pk" LIMIT ${LOAD_PAGE_ROWS}`;
  const next = `SELECT ${columns}, "pk" FROM "${table}" WHERE ${live} AND "ord" >= ? AND ("ord", "pk") > (?, ?) ORDER BY "ord", "pk" LIMIT ${LOAD_PAGE_ROWS}`;
  if (sql.dialect === "postgres") {
    // PostgreSQL plans `("ord", "pk") > (?, ?) ORDER BY … LIMIT` as a sort of every live row per
    // page (FB15k-237: 39 s); windows of "ord" are index range scans on ("graphId", "ord").
    const span = await sql.get<{ lo: number | string | null; hi: number | string | null }>(`SELECT MIN("ord") AS "lo", MAX("ord") AS "hi" FROM "${table}" WHERE "graphId" = ?`, [graphId]);
    if (span?.lo === null || span?.lo === undefined || span.hi === null) return;
    const windowed = `SELECT ${columns}, "pk" FROM "${table}" WHERE ${live} AND "ord" >= ? AND "ord" < ? ORDER BY "ord", "pk"`;
    for (let lo = Number(span.lo); lo <= Number(span.hi); lo += LOAD_PAGE_ROWS) {
      const rows = await sql.queryRows(windowed, [graphId, version, version, lo, lo + LOAD_PAGE_ROWS]);
      if (rows.length > 0) onPage(rows);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return;
  }
  let params: SqlValue[] = [graphId, version, version];
  let text = first;
  for (;;) {
    const rows = await sql.queryRows(text, params);
    onPage(rows);
    if (rows.length < LOAD_PAGE_ROWS) return;
    const last = rows[rows.length - 1] as unknown[];
    const ord = last[last.length - 3] as number;
    params = [graphId, version, version, ord, ord, last[last.length - 1] as number];
    text = next;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

export async function findDocuments(graphId: string, docIds: string[]): Promise<CorpusDocument[]> {
  if (docIds.length === 0) return [];
  const rows = await getDb().document.findMany({
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
