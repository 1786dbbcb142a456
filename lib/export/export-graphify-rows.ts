/**
 * graph.json straight from a version's stored rows, read page by page (the SQL export,
 * lib/server/graphs/sql-export.ts): the same text as graphifyJsonChunks of the loaded version,
 * byte for byte, without building the graph. A row's record is what a load makes of its columns
 * (graph-rows.ts: `data` null is the record the columns give) put through the same nodeRecord /
 * edgeRecord, and the frame and printing are export-graphify.ts's own. Pure: rows come from the
 * caller, in stored order ("ord", "pk"), which is the order a loaded graph iterates in.
 */
import type { GraphMeta } from "../graph/model";
import type { JsonObject } from "../json/lossless-json";
import { isJsonObject, parseLosslessJson } from "../json/lossless-json";
import type { GraphifyJsonChunkOptions } from "./export-graphify";
import { edgeRecord, GraphifyPrinter, graphifyFrame, nodeRecord } from "./export-graphify";

/** A stored node's columns: `[nodeId, label, data]` (data: its record's JSON, null when derivable). */
export type NodeRowColumns = readonly [nodeId: string, label: string, data: string | null];
/** A stored edge's columns: `[edgeKey, source, target, relation, data]`. */
export type EdgeRowColumns = readonly [edgeKey: string, source: string, target: string, relation: string, data: string | null];

/** A version's rows for the export: its meta and pages of rows in stored order, read as pulled. */
export interface GraphifyRowSource {
  meta: GraphMeta;
  nodePages(): AsyncIterable<readonly NodeRowColumns[]>;
  edgePages(): AsyncIterable<readonly EdgeRowColumns[]>;
}

/** The record a node row exports as (nodeFromColumns, then nodeRecord). */
export function nodeRecordOfRow([nodeId, label, data]: NodeRowColumns): JsonObject {
  if (data === null) return label === nodeId ? { id: nodeId } : { label, id: nodeId };
  const record = parseLosslessJson(data, { source: `node ${nodeId}` });
  if (!isJsonObject(record)) throw new Error(`stored node ${nodeId} is not an object`);
  if (typeof record.id !== "string") throw new Error("node record without a string id");
  return nodeRecord({ id: nodeId, label, attrs: record });
}

/** The record an edge row exports as (edgeFromColumns, then edgeRecord). */
export function edgeRecordOfRow([edgeKey, source, target, relation, data]: EdgeRowColumns): JsonObject {
  if (data === null) return { relation, source, target };
  const record = parseLosslessJson(data, { source: `edge ${edgeKey}` });
  if (!isJsonObject(record)) throw new Error(`stored edge ${edgeKey} is not an object`);
  return edgeRecord({ source, target, relation, attrs: record });
}

/**
 * graph.json as text chunks, each page of rows pulled only when the chunks before it were
 * taken: memory holds one page and one chunk, at any graph size.
 */
export async function* graphifyJsonChunksFromRows(source: GraphifyRowSource, options: GraphifyJsonChunkOptions = {}): AsyncGenerator<string, void, undefined> {
  const printer = new GraphifyPrinter(options.chunkSize ?? 64 * 1024);
  for (const part of graphifyFrame(source.meta)) {
    if (typeof part === "string") {
      printer.text(part);
      continue;
    }
    if (part.list === "nodes") {
      for await (const page of source.nodePages()) for (const row of page) if (printer.record(nodeRecordOfRow(row))) yield printer.take();
    } else {
      for await (const page of source.edgePages()) for (const row of page) if (printer.record(edgeRecordOfRow(row))) yield printer.take();
    }
    printer.endList();
  }
  yield printer.take();
}

/** Text chunks as a stream of UTF-8 bytes, one chunk per pull (the reader paces the reading); `trailer` at the end. */
export function textChunkStream(chunks: AsyncIterator<string> | Iterator<string>, trailer?: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (!next.done) {
        controller.enqueue(encoder.encode(next.value));
        return;
      }
      if (trailer) controller.enqueue(encoder.encode(trailer));
      controller.close();
    },
    async cancel() {
      await chunks.return?.();
    },
  });
}
