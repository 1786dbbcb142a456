/**
 * The deeprefine skill's question queue, `graphify-out/.deeprefine/history.jsonl`
 * (reference.md §1.2): one JSON object a line, `{id, ts, query, source, refined, memory_file?,
 * trace_file?, refined_ts?}`. Rows are kept as parsed (lossless, unknown keys and key order
 * preserved) so rewriting the file for `mark refined` changes only what it must.
 *
 * Pending = `refined` not true, deduplicated by id (first occurrence wins), file order kept;
 * a row without an id gets the query id of its text, as the skill does.
 */
import { AppError } from "../errors";
import type { JsonObject } from "../json/lossless-json";
import { isJsonObject, parseLosslessJson } from "../json/lossless-json";
import { queryIdOf } from "../questions/query-id";
import { stringifyPythonJson } from "./python-json";

export const HISTORY_SOURCES = ["user", "graphify_memory", "deeprefine", "deeprefine_loop"] as const;
export type HistorySource = (typeof HISTORY_SOURCES)[number];

/** A row as read from the file: any JSON object; use the accessors below. */
export type HistoryRow = JsonObject;

/** `2026-01-31T12:00:00Z`, the skill's `time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())`. */
export function formatUtcTimestamp(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

export function rowQuery(row: HistoryRow): string {
  return typeof row.query === "string" ? row.query.trim() : "";
}

export function rowId(row: HistoryRow): string {
  return typeof row.id === "string" && row.id ? row.id : queryIdOf(rowQuery(row));
}

export function isRefined(row: HistoryRow): boolean {
  return row.refined === true;
}

/** Parse history.jsonl; a line that is not a JSON object is an error naming the file and line. */
export function parseHistory(text: string, { source = "history.jsonl" }: { source?: string } = {}): HistoryRow[] {
  const rows: HistoryRow[] = [];
  const lines = text.replace(/^\uFEFF/, "").split("\n");
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const where = `${source}: line ${i + 1}`;
    let value;
    try {
      value = parseLosslessJson(line, { source: where });
    } catch (e) {
      throw new AppError("PARSE_ERROR", e instanceof Error ? e.message : `${where}: invalid JSON`, { source, line: i + 1 });
    }
    if (!isJsonObject(value)) throw new AppError("PARSE_ERROR", `${where}: expected a JSON object`, { source, line: i + 1 });
    rows.push(value);
  });
  return rows;
}

/** The file's text for `rows`: one Python-style JSON line each. */
export function formatHistory(rows: readonly HistoryRow[]): string {
  return rows.map(formatHistoryLine).join("");
}

export function formatHistoryLine(row: HistoryRow): string {
  return `${stringifyPythonJson(row)}\n`;
}

/** Rows not yet refined, one per id (the first), in file order. */
export function pendingRows(rows: readonly HistoryRow[]): HistoryRow[] {
  const seen = new Set<string>();
  const out: HistoryRow[] = [];
  for (const row of rows) {
    if (!rowQuery(row) || isRefined(row)) continue;
    const id = rowId(row);
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(row);
  }
  return out;
}

export interface NewRowOptions {
  query: string;
  source: string;
  now: Date;
  /** Defaults to the query id of the stripped text. */
  id?: string;
  refined?: boolean;
  /** Extra keys after the standard ones (memory_file, trace_file). */
  extra?: JsonObject;
}

/** A new row, keys in the skill's order. */
export function createHistoryRow({ query, source, now, id, refined = false, extra = {} }: NewRowOptions): HistoryRow {
  const q = query.trim();
  if (!q) throw new AppError("USAGE", "the query is empty");
  return { id: id ?? queryIdOf(q), ts: formatUtcTimestamp(now), query: q, source, refined, ...extra };
}

export function hasRow(rows: readonly HistoryRow[], id: string): boolean {
  return rows.some((r) => rowId(r) === id);
}

export interface MemoryQuestion {
  query: string;
  /** The memory file the question came from, as recorded in `memory_file`. */
  file: string;
}

/**
 * `history sync-memory`: rows to append for memory questions whose id is not in the history
 * yet (each id once, in the given order: the caller sorts the files by name, as the skill does).
 */
export function memoryRowsToAdd({ rows, memory, now }: { rows: readonly HistoryRow[]; memory: readonly MemoryQuestion[]; now: Date }): {
  added: HistoryRow[];
  known: number;
} {
  const ids = new Set(rows.map(rowId));
  const added: HistoryRow[] = [];
  for (const m of memory) {
    const query = m.query.trim();
    if (!query) continue;
    const id = queryIdOf(query);
    if (ids.has(id)) continue;
    ids.add(id);
    added.push(createHistoryRow({ query, source: "graphify_memory", now, id, extra: { memory_file: m.file } }));
  }
  return { added, known: ids.size };
}

/**
 * Mark every row of `id` refined (with `refined_ts`, and `trace_file` when the row has none).
 * Returns new row objects; `changed` is false when nothing needed marking.
 */
export function markRefined({ rows, id, now, traceFile }: { rows: readonly HistoryRow[]; id: string; now: Date; traceFile?: string }): {
  rows: HistoryRow[];
  changed: boolean;
} {
  let changed = false;
  const out = rows.map((row) => {
    if (rowId(row) !== id || isRefined(row)) return row;
    changed = true;
    const next: HistoryRow = { ...row, refined: true, refined_ts: formatUtcTimestamp(now) };
    if (traceFile !== undefined && typeof row.trace_file !== "string") next.trace_file = traceFile;
    return next;
  });
  return { rows: out, changed };
}
