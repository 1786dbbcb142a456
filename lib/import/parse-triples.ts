/**
 * Plain triple files → KnowledgeGraph: `subject|relation|object` (MetaQA) or
 * `head<TAB>relation<TAB>tail` (FB15k-237, Countries). CRLF and a UTF-8 BOM are tolerated,
 * blank lines and `#` comments skipped. Entities are identified by their exact text; an
 * optional label map (FB15k-237's entity2text) gives them readable labels.
 */
import { AppError } from "../errors";
import { KnowledgeGraph } from "../graph/model";
import { normalizeLabel } from "../graph/normalize";
import type { LabelCapOptions } from "./cap-label";
import { createLabelCapper } from "./cap-label";

export interface ParseTriplesOptions {
  source?: string;
  /** Entity id → display label. */
  labels?: ReadonlyMap<string, string>;
}

export interface RawTriple {
  subject: string;
  relation: string;
  object: string;
  line: number;
}

/**
 * Split triple text into rows; throws PARSE_ERROR naming the file and line of a bad row. The
 * text goes through the same line reader a streamed import feeds chunk by chunk
 * (`createTripleLineReader`), so both give the same rows and the same errors.
 */
export function parseTripleLines(text: string, source = "triples"): RawTriple[] {
  const rows: RawTriple[] = [];
  const reader = createTripleLineReader(source, (subject, relation, object, line) => rows.push({ subject, relation, object, line }));
  reader.push(text);
  reader.end();
  return rows;
}

/** The longest line a triple file may have (a streamed import holds one line at a time). */
export const MAX_LINE_CHARS = 1024 * 1024;

export interface TripleLineReader {
  /** Feed the next piece of the text (any split, even inside a line); complete lines are parsed now. */
  push(text: string): void;
  /** The text is over: parse the last line; throws when the whole text held no triple. */
  end(): void;
  /** Triples read so far. */
  readonly rows: number;
}

/**
 * An incremental triple parser: `s|r|o` or tab-separated (decided by the first line that is not
 * blank or a `#` comment), CRLF and a leading BOM tolerated, fields trimmed. Each row goes to
 * `onRow` as it is read (the field strings may be slices of the pushed text). Scans with
 * indexOf: no array of lines, no array of fields per line. Memory: the current chunk only.
 */
export function createTripleLineReader(source: string, onRow: (subject: string, relation: string, object: string, line: number) => void): TripleLineReader {
  let separator: "\t" | "|" | null = null;
  let carry = "";
  let lineNo = 0;
  let first = true;
  let rows = 0;

  /** Parse the complete lines text[from, to) (separated by "\n", no trailing newline). */
  const scan = (text: string, from: number, to: number) => {
    let start = from;
    while (start <= to) {
      const newline = text.indexOf("\n", start);
      const stop = newline < 0 || newline > to ? to : newline;
      const end = stop > start && text.charCodeAt(stop - 1) === 13 ? stop - 1 : stop;
      const lineStart = start;
      start = stop + 1;
      const line = ++lineNo;
      if (end === lineStart || text.charCodeAt(lineStart) === 35 /* # */) continue;
      if (separator === null) {
        const content = text.slice(lineStart, end);
        if (content.trim() === "") continue;
        separator = content.includes("\t") ? "\t" : "|";
      }
      const f1 = text.indexOf(separator, lineStart);
      const f2 = f1 < 0 || f1 >= end ? -1 : text.indexOf(separator, f1 + 1);
      const f3 = f2 < 0 || f2 >= end ? -1 : text.indexOf(separator, f2 + 1);
      if (f1 < 0 || f1 >= end || f2 < 0 || f2 >= end || (f3 >= 0 && f3 < end)) {
        const content = text.slice(lineStart, end);
        if (content.trim() === "") continue;
        const what = separator === "\t" ? "tab-separated" : "'|'-separated";
        throw new AppError(
          "PARSE_ERROR",
          `${source}: line ${line}: expected 3 ${what} fields (subject, relation, object), found ${content.split(separator).length}`,
          { source, line },
        );
      }
      const subject = text.slice(lineStart, f1).trim();
      const relation = text.slice(f1 + 1, f2).trim();
      const object = text.slice(f2 + 1, end).trim();
      if (!subject || !relation || !object) {
        if (text.slice(lineStart, end).trim() === "") continue;
        throw new AppError("PARSE_ERROR", `${source}: line ${line}: empty subject, relation or object`, { source, line });
      }
      rows++;
      onRow(subject, relation, object, line);
    }
  };

  const tooLong = (line: number): never => {
    throw new AppError("PARSE_ERROR", `${source}: line ${line} is over ${MAX_LINE_CHARS.toLocaleString("en-US")} characters with no line break; is this a triple file?`, { source, line });
  };

  return {
    push(piece: string) {
      let text = carry.length > 0 ? carry + piece : piece;
      if (first && text.length > 0) {
        first = false;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      const last = text.lastIndexOf("\n");
      if (last < 0) {
        carry = text;
        if (carry.length > MAX_LINE_CHARS) tooLong(lineNo + 1);
        return;
      }
      scan(text, 0, last);
      carry = text.slice(last + 1);
      if (carry.length > MAX_LINE_CHARS) tooLong(lineNo + 1);
    },
    end() {
      scan(carry, 0, carry.length);
      carry = "";
      if (rows === 0) throw new AppError("PARSE_ERROR", `${source}: no triples found (the file is empty)`, { source });
    },
    get rows() {
      return rows;
    },
  };
}

/** Add triples to a graph, creating entity nodes on first sight. Returns the new edges' keys. */
export function addTriples(
  graph: KnowledgeGraph,
  rows: Iterable<{ subject: string; relation: string; object: string; extra?: Record<string, string> }>,
  labels?: ReadonlyMap<string, string>,
): void {
  const ensure = (id: string) => {
    if (graph.nodes.has(id)) return;
    const label = labels?.get(id) ?? id;
    graph.addNode({
      id,
      label,
      normLabel: normalizeLabel(label),
      aliases: [],
      community: null,
      fileType: null,
      sourceFile: null,
      sourceLocation: null,
      attrs: label === id ? { id } : { label, id },
    });
  };
  for (const row of rows) {
    ensure(row.subject);
    ensure(row.object);
    graph.addEdge({
      source: row.subject,
      target: row.object,
      relation: row.relation,
      attrs: { relation: row.relation, ...row.extra, source: row.subject, target: row.object },
    });
  }
}

export function parseTriples(text: string, options: ParseTriplesOptions = {}): KnowledgeGraph {
  const rows = parseTripleLines(text, options.source);
  const graph = new KnowledgeGraph({
    top: { directed: true, multigraph: true, graph: {}, nodes: null, links: null },
    linksKey: "links",
  });
  addTriples(graph, rows, options.labels);
  return graph;
}

/** `id<TAB>label` lines (FB15k-237 entity2text.txt). */
export function parseLabelFile(text: string, source = "labels", capOptions: LabelCapOptions = {}): Map<string, string> {
  const map = new Map<string, string>();
  const capper = createLabelCapper(source, capOptions);
  text.split("\n").forEach((raw, i) => {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (!line.trim()) return;
    const tab = line.indexOf("\t");
    if (tab <= 0) throw new AppError("PARSE_ERROR", `${source}: line ${i + 1}: expected "id<TAB>label"`, { source, line: i + 1 });
    const id = line.slice(0, tab);
    map.set(id, capper.cap(id, line.slice(tab + 1).trim()));
  });
  capper.report();
  return map;
}
