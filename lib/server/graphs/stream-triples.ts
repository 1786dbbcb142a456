/**
 * A triple file of any size as streamed graph content (write-graph.ts `StreamedContent`): the
 * file is read in chunks (read-input.ts `readTextChunks`, gunzipped as it goes), parsed line by
 * line (lib/import/parse-triples.ts `createTripleLineReader`, the parser of the whole-file path)
 * and its edge rows handed on in batches as they are read; the node rows follow once the file
 * is over. The stored rows are those of `contentOfTriples` on the whole file: edges `e<n>` in
 * file order, nodes in order of first sight (subject before object), labels from the label map.
 *
 * Memory is flat in the file's size except for the set of node ids (every distinct entity, held
 * to give each its row once: ~100 bytes per node; 10M FB15k-237 edges have 537k nodes, ~55 MB).
 */
import type { GraphMeta } from "../../graph/model";
import { normalizeLabel } from "../../graph/normalize";
import { createTripleLineReader } from "../../import/parse-triples";
import type { SqlValue } from "../db/sql";
import type { TextChunks } from "./read-input";
import type { RowSink, StreamedContent } from "./write-graph";

/** Edge rows per batch handed to the sink (one COPY or a run of multi-row INSERTs each). */
export const EDGE_BATCH_ROWS = 50_000;

/** A string of its own: a slice of a chunk would keep the whole chunk alive in the node set. */
function own(s: string): string {
  return (" " + s).slice(1);
}

export interface StreamedTriples extends StreamedContent {
  /** Rows read so far (edges parsed plus nodes seen): with the bytes read, an estimate of the total. */
  readonly rowsRead: number;
}

export function contentOfTripleStream(input: TextChunks, source: string, labels?: ReadonlyMap<string, string>): StreamedTriples {
  const meta: GraphMeta = { top: { directed: true, multigraph: true, graph: {}, nodes: null, links: null }, linksKey: "links" };
  let rowsRead = () => 0;
  return {
    meta,
    get rowsRead() {
      return rowsRead();
    },
    async stream(graphId: string, sink: RowSink) {
      const nodes = new Set<string>();
      let subjects: string[] = [];
      let relations: string[] = [];
      let objects: string[] = [];
      let edges = 0;
      let began = false;
      const inFlight: { write: Promise<void> | null } = { write: null };
      rowsRead = () => reader.rows + nodes.size;
      const see = (id: string) => {
        if (!nodes.has(id)) nodes.add(own(id));
      };
      const reader = createTripleLineReader(source, (subject, relation, object) => {
        see(subject);
        see(object);
        subjects.push(subject);
        relations.push(relation);
        objects.push(object);
      });
      const begin = async (done: boolean) => {
        began = true;
        const fraction = done ? 1 : Math.min(1, Math.max(input.diskBytes / Math.max(1, input.fileBytes), 1e-6));
        const seen = edges + subjects.length;
        await sink.begin({ edgeCount: Math.round(seen / fraction), nodeCount: Math.round(nodes.size / fraction) });
      };
      /** Hand the batch on; parse the next one while it is written (one write at a time). */
      const flush = async (done: boolean) => {
        if (!began) await begin(done);
        if (inFlight.write) await inFlight.write;
        inFlight.write = null;
        if (subjects.length === 0) return;
        const write = sink.edges(edgeRows(graphId, subjects, relations, objects, edges), subjects.length);
        write.catch(() => {}); // awaited below; no unhandled rejection meanwhile
        inFlight.write = write;
        edges += subjects.length;
        subjects = [];
        relations = [];
        objects = [];
      };
      try {
        for await (const chunk of input.chunks) {
          reader.push(chunk);
          if (subjects.length >= EDGE_BATCH_ROWS) await flush(false);
        }
        reader.end();
        await flush(true);
        if (inFlight.write) await inFlight.write;
        inFlight.write = null;
      } finally {
        // A parse error mid-file: let the write in flight settle before the caller rolls back.
        if (inFlight.write) await inFlight.write.catch(() => {});
      }
      await sink.nodes(nodeRows(graphId, nodes, labels), nodes.size);
      return { nodeCount: nodes.size, edgeCount: edges };
    },
  };
}

function* edgeRows(graphId: string, subjects: string[], relations: string[], objects: string[], firstOrd: number): Generator<SqlValue[]> {
  const row: SqlValue[] = [graphId, "", "", "", "", 0, null, 1];
  for (let i = 0; i < subjects.length; i++) {
    const ord = firstOrd + i;
    row[1] = `e${ord}`;
    row[2] = subjects[i] as string;
    row[3] = objects[i] as string;
    row[4] = relations[i] as string;
    row[5] = ord;
    yield row;
  }
}

function* nodeRows(graphId: string, nodes: Iterable<string>, labels?: ReadonlyMap<string, string>): Generator<SqlValue[]> {
  let ord = 0;
  for (const id of nodes) {
    const label = labels?.get(id) ?? id;
    yield [graphId, id, label, normalizeLabel(label), ord++, null, 1];
  }
}
