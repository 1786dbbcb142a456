/**
 * graph.json straight from a version's stored rows, read page by page (the SQL export,
 * lib/server/graphs/sql-export.ts): the same text as graphifyJsonChunks of the loaded version,
 * byte for byte, without building the graph. Each row becomes the node or edge a load makes of it
 * (the caller maps it with graph-rows.ts, as the loader does), put through the same nodeRecord /
 * edgeRecord, and the frame and printing are export-graphify.ts's own. Pure: pages come from the
 * caller, in stored order ("ord", "pk"), which is the order a loaded graph iterates in.
 */
import type { GraphEdge, GraphMeta, GraphNode } from "../graph/model";
import type { GraphifyJsonChunkOptions } from "./export-graphify";
import { edgeRecord, GraphifyPrinter, graphifyFrame, nodeRecord } from "./export-graphify";

/** What a node's record is printed from (the loader's node of its row). */
export type ExportNode = Pick<GraphNode, "id" | "label" | "attrs">;
/** What an edge's record is printed from. */
export type ExportEdge = Pick<GraphEdge, "source" | "target" | "relation" | "attrs">;

/** A version for the export: its meta and pages of its nodes and edges in stored order, read as pulled. */
export interface GraphifyRowSource {
  meta: GraphMeta;
  nodePages(): AsyncIterable<readonly ExportNode[]>;
  edgePages(): AsyncIterable<readonly ExportEdge[]>;
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
      for await (const page of source.nodePages()) for (const node of page) if (printer.record(nodeRecord(node))) yield printer.take();
    } else {
      for await (const page of source.edgePages()) for (const edge of page) if (printer.record(edgeRecord(edge))) yield printer.take();
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
