/**
 * A stored version as graphify graph.json (`refinery export`, GET /api/graphs/:name/export),
 * wherever it is best printed from. A graph served by SQL retrieval (PostgreSQL, more edges than
 * REFINERY_SQL_RETRIEVAL_EDGES: sql-retrieval-setting.ts) is never loaded whole by any other
 * read, so its export is printed straight from the version's Node and Edge rows, read in
 * windows of "ord" as a load reads them (graph-store.ts: same windows, same (ord, pk) order,
 * which is the order a loaded graph iterates in), each window only when the reader has taken
 * the text before it: memory stays flat at any size and the text is byte for byte the in-memory
 * export's (export-graphify-rows.ts). Every other graph is printed from the version cache: it
 * is usually there already (every read of it loads it), and printing from memory reads no rows.
 *
 * Versions are immutable (a commit only closes rows at later versions and adds rows valid from
 * later versions), so a reader that takes hours still gets one version, windows read apart.
 * Errors (no such graph or version) are thrown by openGraphExport, before the first byte.
 */
import { AppError } from "../../errors";
import { graphifyJsonChunks } from "../../export/export-graphify";
import type { GraphifyRowSource } from "../../export/export-graphify-rows";
import { graphifyJsonChunksFromRows, textChunkStream } from "../../export/export-graphify-rows";
import { edgeFromColumns, metaFromText, nodeFromColumns } from "./graph-rows";
import { findGraphRow, findVersionCounts, livePages, loadGraph } from "./graph-store";
import { usesSqlRetrieval } from "./sql-retrieval-setting";

export interface GraphExport {
  version: number;
  /** "sql": printed from rows; "memory": from the loaded version. */
  via: "memory" | "sql";
  /** The text in chunks, read as pulled. */
  chunks(): AsyncIterator<string> & AsyncIterable<string>;
  /** The text as UTF-8 bytes (an HTTP body), `trailer` appended. */
  stream(options?: { trailer?: string }): ReadableStream<Uint8Array>;
}

/**
 * Open the export of a version (default: current) of a graph: checked now, printed as read.
 * `via` forces a path (tests, measurements); by default the rows for a graph served by SQL.
 */
export async function openGraphExport(name: string, version?: number, options: { via?: "memory" | "sql" } = {}): Promise<GraphExport> {
  const row = await findGraphRow(name);
  const v = version ?? row.currentVersion;
  const counts = Number.isInteger(v) && v >= 1 && v <= row.currentVersion ? await findVersionCounts(row.id, v) : null;
  const viaSql = options.via ? options.via === "sql" : counts !== null && usesSqlRetrieval(counts.edgeCount);
  if (viaSql) {
    if (!counts) throw new AppError("NOT_FOUND", `graph ${JSON.stringify(name)} has versions 1..${row.currentVersion}, not ${version}`, { name, version });
    const source = versionRowSource(row.id, v, row.meta);
    const chunks = () => graphifyJsonChunksFromRows(source);
    return { version: v, via: "sql", chunks, stream: (o = {}) => textChunkStream(chunks(), o.trailer) };
  }
  // loadGraph checks the version (the same error as before this module).
  const loaded = await loadGraph(name, version);
  const chunks = () => toAsync(graphifyJsonChunks(loaded.graph));
  return { version: loaded.version, via: "memory", chunks, stream: (o = {}) => textChunkStream(graphifyJsonChunks(loaded.graph), o.trailer) };
}

async function* toAsync(chunks: Iterable<string>): AsyncGenerator<string, void, undefined> {
  yield* chunks;
}

/** A version's rows as the export reads them (tests read them too). */
export function versionRowSource(graphId: string, version: number, meta: string): GraphifyRowSource {
  return {
    meta: metaFromText(meta),
    // Each row as the loader makes it (graph-store.ts buildGraph), so the records are the loaded graph's.
    nodePages: () => mapPages(livePages<unknown[]>("Node", `"nodeId", "label", "normLabel", "ord", "data"`, graphId, version), (r) => nodeFromColumns(r[0] as string, r[1] as string, r[2] as string, Number(r[3]), r[4] as string | null)),
    edgePages: () => mapPages(livePages<unknown[]>("Edge", `"edgeKey", "source", "target", "relation", "ord", "data"`, graphId, version), (r) => edgeFromColumns(r[0] as string, r[1] as string, r[2] as string, r[3] as string, Number(r[4]), r[5] as string | null)),
  };
}

async function* mapPages<R, T>(pages: AsyncIterable<R[]>, fn: (row: R) => T): AsyncGenerator<T[], void, undefined> {
  for await (const page of pages) yield page.map(fn);
}

