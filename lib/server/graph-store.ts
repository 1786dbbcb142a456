/**
 * Graphs in the database: create from an import (one transaction: all or nothing), list,
 * stats, and load any version back into a KnowledgeGraph (cached per graph version).
 */
import { randomUUID } from "node:crypto";
import { queryIdOf } from "../questions/query-id";
import { AppError } from "../errors";
import type { CorpusDocument } from "../import/corpus";
import { KnowledgeGraph } from "../graph/model";
import type { BundleQuestion } from "../import/parse-bundle";
import { getDb } from "./db";
import { prepareRelationRanking } from "./relation-ranking";
import type { EdgeRow, NodeRow } from "./graph-rows";
import { edgeFromRow, edgeToRow, metaFromText, metaToText, nodeFromRow, nodeToRow } from "./graph-rows";
import type { SqlExecutor, SqlValue } from "./sql";
import { getSql, isUniqueViolation } from "./sql";

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

/** Names that would collide with fixed API paths (`/api/graphs/upload`). */
const RESERVED_NAMES = new Set(["upload"]);

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


export interface CreateGraphOptions {
  name: string;
  format: GraphFormat;
  sourcePath?: string | null;
  graph: KnowledgeGraph;
  documents?: CorpusDocument[];
  questions?: BundleQuestion[];
  message?: string;
  /** Called with (done, total) as rows are written, for progress output. */
  onProgress?: (done: number, total: number) => void;
}

export async function createGraph(options: CreateGraphOptions): Promise<GraphSummary> {
  const db = getDb();
  const name = validateGraphName(options.name);
  const existing = await db.graph.findUnique({ where: { name }, select: { id: true } });
  if (existing) {
    throw new AppError("CONFLICT", `a graph named ${JSON.stringify(name)} already exists; choose another name`, { name });
  }
  const { graph } = options;
  const documents = options.documents ?? [];
  const questions = dedupeQuestions(options.questions ?? []);
  const total = graph.nodes.size + graph.edges.size + documents.length;
  let done = 0;
  const progress = (n: number) => {
    done += n;
    options.onProgress?.(done, total);
  };

  const graphId = randomUUID();
  const now = new Date();
  // One transaction: a failure anywhere (even a constraint on the last row) leaves nothing.
  const write = async (tx: SqlExecutor) => {
    await tx.execute(
      `INSERT INTO "Graph" ("id", "name", "format", "sourcePath", "meta", "currentVersion", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, 1, ?, ?)`,
      [graphId, name, options.format, options.sourcePath ?? null, metaToText(graph.meta), now, now],
    );
    await tx.execute(
      `INSERT INTO "GraphVersion" ("graphId", "version", "message", "nodeCount", "edgeCount", "createdAt") VALUES (?, 1, ?, ?, ?, ?)`,
      [graphId, options.message ?? `imported ${options.format}`, graph.nodes.size, graph.edges.size, now],
    );
    await tx.insertMany("Node", ["graphId", "nodeId", "label", "normLabel", "ord", "data", "validFrom"], nodeRows(graphId, graph), progress);
    await tx.insertMany("Edge", ["graphId", "edgeKey", "source", "target", "relation", "ord", "data", "validFrom"], edgeRows(graphId, graph), progress);
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
  };
  try {
    await getSql().transaction(write);
  } catch (e) {
    if (isUniqueViolation(e, "Graph", "name")) {
      throw new AppError("CONFLICT", `a graph named ${JSON.stringify(name)} already exists; choose another name`, { name });
    }
    throw e;
  }
  return getGraphSummary(name);
}

function* nodeRows(graphId: string, graph: KnowledgeGraph): Generator<SqlValue[]> {
  let ord = 0;
  for (const node of graph.nodes.values()) {
    const r = nodeToRow(node, ord++);
    yield [graphId, r.nodeId, r.label, r.normLabel, r.ord, r.data, 1];
  }
}

function* edgeRows(graphId: string, graph: KnowledgeGraph): Generator<SqlValue[]> {
  let ord = 0;
  for (const edge of graph.edges.values()) {
    const r = edgeToRow(edge, ord++);
    yield [graphId, r.edgeKey, r.source, r.target, r.relation, r.ord, r.data, 1];
  }
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

// On globalThis: Next.js gives pages and API routes separate module instances, and two copies
// of a 272k-edge graph would double the memory and the load time.
const globalForGraphs = globalThis as unknown as { refineryGraphCache?: Map<string, KnowledgeGraph> };
const graphCache = (globalForGraphs.refineryGraphCache ??= new Map<string, KnowledgeGraph>());
const GRAPH_CACHE_SIZE = 4;

export interface LoadedGraph {
  graphId: string;
  name: string;
  version: number;
  graph: KnowledgeGraph;
}

/**
 * Load a version (default: current) of a graph. Versions are immutable, so loaded graphs are
 * cached (a few, least-recently-used) and must be treated as read-only by callers.
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
  const key = `${row.id}:${v}`;
  const cached = graphCache.get(key);
  if (cached) {
    graphCache.delete(key);
    graphCache.set(key, cached);
    return { graphId: row.id, name: row.name, version: v, graph: cached };
  }
  // Raw reads: Prisma's row mapping costs seconds on a 272k-edge graph; this is one scan each.
  const sql = getSql();
  const live = `"graphId" = ? AND "validFrom" <= ? AND ("validTo" IS NULL OR "validTo" > ?) ORDER BY "ord"`;
  const [nodes, edges] = await Promise.all([
    sql.query<NodeRow>(`SELECT "nodeId", "label", "normLabel", "ord", "data" FROM "Node" WHERE ${live}`, [row.id, v, v]),
    sql.query<EdgeRow>(`SELECT "edgeKey", "source", "target", "relation", "ord", "data" FROM "Edge" WHERE ${live}`, [row.id, v, v]),
  ]);
  const graph = new KnowledgeGraph(metaFromText(row.meta));
  for (const n of nodes) graph.addNode(nodeFromRow(n));
  for (const e of edges) graph.addEdge(edgeFromRow(e));
  prepareRelationRanking(graph, row.sourcePath);
  graphCache.set(key, graph);
  while (graphCache.size > GRAPH_CACHE_SIZE) {
    const oldest = graphCache.keys().next().value;
    if (oldest === undefined) break;
    graphCache.delete(oldest);
  }
  return { graphId: row.id, name: row.name, version: v, graph };
}

/** Put a graph version into the cache (e.g. right after an apply computed it in memory). */
export function cacheGraph(graphId: string, version: number, graph: KnowledgeGraph): void {
  graphCache.set(`${graphId}:${version}`, graph);
  while (graphCache.size > GRAPH_CACHE_SIZE) {
    const oldest = graphCache.keys().next().value;
    if (oldest === undefined) break;
    graphCache.delete(oldest);
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
