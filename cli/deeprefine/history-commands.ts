/**
 * `deeprefine history add | list | sync-memory`: the question queue in
 * `graphify-out/.deeprefine/history.jsonl`, with the skill's flags and messages.
 */
import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { Option } from "commander";
import type { HistoryRow } from "../../lib/deeprefine/history";
import {
  HISTORY_SOURCES,
  createHistoryRow,
  formatHistory,
  formatHistoryLine,
  isRefined,
  memoryRowsToAdd,
  parseHistory,
  pendingRows,
  rowId,
  rowQuery,
} from "../../lib/deeprefine/history";
import { parseMemoryFile } from "../../lib/questions/parse-memory-file";
import { printJson } from "../output";
import type { Context, ProjectPaths, RootOptions } from "./project";
import { appendLine, isFile, projectPaths, readText, rootOptions, writeFileAtomic } from "./project";

export function readHistory(paths: ProjectPaths): HistoryRow[] {
  return isFile(paths.history) ? parseHistory(readText(paths.history), { source: paths.history }) : [];
}

export function appendHistory(paths: ProjectPaths, rows: readonly HistoryRow[]): void {
  for (const row of rows) appendLine(paths.history, formatHistoryLine(row));
}

export function writeHistory(paths: ProjectPaths, rows: readonly HistoryRow[]): void {
  writeFileAtomic(paths.history, formatHistory(rows));
}

/** The skill's `sync_history_from_memory`: graphify-out/memory/query_*.md, in name order. */
export function syncMemory(ctx: Context, paths: ProjectPaths): { added: HistoryRow[]; known: number } {
  const names = fs.existsSync(paths.memory) && fs.statSync(paths.memory).isDirectory() ? fs.readdirSync(paths.memory) : [];
  const memory: { query: string; file: string }[] = [];
  for (const name of names.filter((n) => /^query_.*\.md$/.test(n)).sort()) {
    const file = path.join(paths.memory, name);
    if (!isFile(file)) continue;
    let query: string | null;
    try {
      query = parseMemoryFile(readText(file));
    } catch (e) {
      ctx.io.err(`note: skipped ${file}: ${e instanceof Error ? e.message : String(e)}`);
      continue;
    }
    if (query) memory.push({ query, file });
  }
  const result = memoryRowsToAdd({ rows: readHistory(paths), memory, now: ctx.now() });
  appendHistory(paths, result.added);
  return result;
}

export function registerHistoryCommands(program: Command, ctx: Context): void {
  const { io } = ctx;
  const history = program.command("history").description("the question queue (graphify-out/.deeprefine/history.jsonl)");

  rootOptions(history.command("add").description("append a question to the history"))
    .requiredOption("--query <text>", "the question")
    .addOption(new Option("--source <source>", "where the question came from").choices([...HISTORY_SOURCES]).default("user"))
    .option("--json", "print the row as JSON")
    .action((opts: RootOptions & { query: string; source: string; json?: boolean }) => {
      const paths = projectPaths(opts, ctx.cwd);
      const row = createHistoryRow({ query: opts.query, source: opts.source, now: ctx.now() });
      appendHistory(paths, [row]);
      if (opts.json) return printJson(io, row);
      io.out(`Recorded: ${rowId(row)} → ${paths.history}`);
    });

  rootOptions(history.command("list").description("list the history (all rows, or the pending queue)"))
    .option("--pending", "only questions not refined yet: one per id, first occurrence, file order")
    .option("--sync-memory", "import graphify-out/memory/query_*.md first")
    .option("--json", "print the rows as JSON")
    .action((opts: RootOptions & { pending?: boolean; syncMemory?: boolean; json?: boolean }) => {
      const paths = projectPaths(opts, ctx.cwd);
      if (opts.syncMemory) {
        const synced = syncMemory(ctx, paths);
        if (synced.added.length > 0) (opts.json ? io.err : io.out)(`Synced ${synced.added.length} query(s) from ${paths.memory}`);
      }
      const all = readHistory(paths);
      const rows = opts.pending ? pendingRows(all) : all;
      if (opts.json) return printJson(io, rows);
      if (rows.length === 0) return io.out(opts.pending ? "No pending queries." : "No queries yet.");
      for (const row of rows) io.out(`[${isRefined(row) ? "refined" : "pending"}] ${rowId(row)}: ${rowQuery(row)}`);
    });

  rootOptions(history.command("sync-memory").description("import graphify memory files (graphify-out/memory/query_*.md) into the history"))
    .option("--json", "print {memory_dir, history, added, known} as JSON")
    .action((opts: RootOptions & { json?: boolean }) => {
      const paths = projectPaths(opts, ctx.cwd);
      const result = syncMemory(ctx, paths);
      if (opts.json) {
        return printJson(io, { memory_dir: paths.memory, history: paths.history, added: result.added.length, known: result.known, rows: result.added });
      }
      io.out(`Memory dir: ${paths.memory}`);
      io.out(`History: ${paths.history}`);
      io.out(`Added: ${result.added.length}`);
      io.out(`Known query ids: ${result.known}`);
    });
}
