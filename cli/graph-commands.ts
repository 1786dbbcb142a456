/**
 * The graph commands of `refinery`: import, graphs (list), stats, query and export. Export
 * streams: graph.json is printed chunk by chunk into a temporary file renamed over the target
 * (or onto stdout), so graphs of any size export with flat memory.
 */
import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { Option } from "commander";
import { formatQueryText } from "../lib/retrieve/query-graph";
import { findGraphs, findRelationCounts, getGraphSummary } from "../lib/server/graphs/graph-store";
import type { GraphFormat } from "../lib/server/graphs/graph-store";
import { CLI_ACTOR } from "../lib/auth/permissions";
import type { Io } from "./output";
import { UsageError, printJson } from "./output";

function positiveInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} must be a positive integer, got ${JSON.stringify(value)}`);
  return n;
}

/**
 * Write chunks to a file atomically: into a temporary file beside it, renamed over it once
 * complete, so a crash (or a failed write) never leaves a half-written export behind.
 * Returns the bytes written.
 */
async function writeChunksAtomic(file: string, chunks: AsyncIterable<string>): Promise<number> {
  const dir = path.dirname(path.resolve(file));
  fs.mkdirSync(dir, { recursive: true });
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.tmp`);
  const fd = fs.openSync(tmp, "w");
  let bytes = 0;
  try {
    for await (const chunk of chunks) {
      const buffer = Buffer.from(chunk, "utf8");
      for (let done = 0; done < buffer.length; ) done += fs.writeSync(fd, buffer, done);
      bytes += buffer.length;
    }
    fs.closeSync(fd);
  } catch (error) {
    try {
      fs.closeSync(fd);
    } catch {
      // Already closed: the close itself failed above.
    }
    fs.rmSync(tmp, { force: true });
    throw error;
  }
  fs.renameSync(tmp, file);
  return bytes;
}

export function registerGraphCommands(program: Command, io: Io): void {
  program
    .command("import")
    .description("import a graph: graphify graph.json (or its folder), a triple file (s|r|o or TSV, .gz ok) or a JSONL bundle folder")
    .argument("<path>", "file or folder to import")
    .option("--name <name>", "name to address the graph by (default: from the path)")
    .addOption(new Option("--format <format>", "input format (default: detected)").choices(["graphify", "triples", "bundle"]))
    .option("--root <dir>", "graphify: project root holding the source files (default: beside graph.json)")
    .option("--labels <file>", "triples: id<TAB>label file (default: entity2text.txt beside the file)")
    .option("--json", "machine-readable output")
    .action(async (input: string, opts: { name?: string; format?: GraphFormat; root?: string; labels?: string; json?: boolean }) => {
      const started = Date.now();
      // Imported here, not at the top: the import path (parsers, zod, the worker, audit) costs
      // every other command of this group start-up time (`refinery query` reads only).
      const [{ importGraphFromPath }, { recordImport }] = await Promise.all([import("../lib/server/graphs/import-graph"), import("../lib/server/graphs/record-import")]);
      const report = await recordImport(
        CLI_ACTOR,
        await importGraphFromPath({
          path: input,
          name: opts.name,
          format: opts.format,
          root: opts.root,
          labels: opts.labels,
          actor: CLI_ACTOR,
          onProgress: (message) => io.err(`… ${message}`),
        }),
      );
      if (opts.json) {
        printJson(io, { ...report.graph, corpus: report.corpus, warnings: report.warnings, seconds: (Date.now() - started) / 1000 });
        return;
      }
      const g = report.graph;
      io.out(`imported ${g.name} (${report.format}): ${g.nodes} nodes, ${g.edges} edges, ${g.documents} documents, ${g.questions} questions, version ${g.version} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      if (report.corpus.missing.length > 0) {
        io.err(`note: ${report.corpus.missing.length} source file(s) not found under the root (use --root): ${report.corpus.missing.slice(0, 5).join(", ")}${report.corpus.missing.length > 5 ? ", …" : ""}`);
      }
      if (report.corpus.skipped.length > 0) io.err(`note: skipped ${report.corpus.skipped.length} binary or oversized file(s)`);
    });

  program
    .command("graphs")
    .description("list imported graphs")
    .option("--json", "machine-readable output")
    .action(async (opts: { json?: boolean }) => {
      const graphs = await findGraphs();
      if (opts.json) return printJson(io, graphs);
      if (graphs.length === 0) {
        io.out("no graphs yet: import one with `refinery import <path> --name <name>`");
        return;
      }
      const rows = graphs.map((g) => [g.name, g.format, String(g.nodes), String(g.edges), String(g.documents), `v${g.version}`]);
      printTable(io, ["NAME", "FORMAT", "NODES", "EDGES", "DOCUMENTS", "VERSION"], rows);
    });

  program
    .command("stats")
    .description("counts for a graph: nodes, edges, documents, version, top relations")
    .argument("<graph>", "graph name")
    .option("--json", "machine-readable output")
    .action(async (name: string, opts: { json?: boolean }) => {
      const summary = await getGraphSummary(name);
      const relations = await findRelationCounts(summary.id, summary.version);
      if (opts.json) return printJson(io, { ...summary, relations });
      io.out(`${summary.name} (${summary.format}, version ${summary.version})`);
      io.out(`  nodes      ${summary.nodes}\n  edges      ${summary.edges}\n  documents  ${summary.documents}\n  questions  ${summary.questions}`);
      io.out(`  relations  ${relations.length} distinct; most used:`);
      for (const r of relations.slice(0, 10)) io.out(`    ${String(r.count).padStart(8)}  ${r.relation}`);
    });

  program
    .command("query")
    .description("retrieve triples for a question (graphify-compatible query, structured triples with ids)")
    .argument("<graph>", "graph name")
    .argument("<question>", "the question")
    .option("--version <n>", "graph version (default: current)")
    .option("--limit <n>", "maximum triples", "30")
    .option("--budget <chars>", "text output budget in characters", "2000")
    .option("--json", "machine-readable output: {seeds, triples}")
    .action(async (name: string, question: string, opts: { version?: string; limit: string; budget: string; json?: boolean }) => {
      const version = opts.version === undefined ? undefined : positiveInt(opts.version, "--version");
      const limit = positiveInt(opts.limit, "--limit");
      const budget = positiveInt(opts.budget, "--budget");
      if (!question.trim()) throw new UsageError("the question is empty");
      // In memory, or through SQL for a graph too big to hold (PostgreSQL, REFINERY_SQL_RETRIEVAL_EDGES).
      const { queryStoredGraph } = await import("../lib/server/graphs/sql-query-graph");
      const { graph, result } = await queryStoredGraph({ name, version, question, limit });
      if (opts.json) return printJson(io, { seeds: result.seeds, triples: result.triples, terms: result.terms });
      if (result.triples.length === 0 && result.seeds.length === 0) {
        io.out(`no node matches the question's words (${result.terms.join(", ") || "none usable"})`);
        return;
      }
      io.out(formatQueryText(graph, result, budget));
    });

  program
    .command("export")
    .description("write a version of a graph as graphify graph.json")
    .argument("<graph>", "graph name")
    .option("--version <n>", "graph version (default: current)")
    .option("--out <file>", "write to this file (atomically) instead of stdout")
    .option("--json", "with --out: print {out, bytes, version} as JSON")
    .action(async (name: string, opts: { version?: string; out?: string; json?: boolean }) => {
      const version = opts.version === undefined ? undefined : positiveInt(opts.version, "--version");
      // From the loaded version, or straight from its rows for a graph served by SQL retrieval
      // (never loaded whole: lib/server/graphs/sql-export.ts). Errors come before any output.
      const { openGraphExport } = await import("../lib/server/graphs/sql-export");
      const exported = await openGraphExport(name, version);
      if (!opts.out) {
        if (!io.write) {
          const parts: string[] = [];
          for await (const chunk of exported.chunks()) parts.push(chunk);
          return io.out(parts.join(""));
        }
        for await (const chunk of exported.chunks()) await io.write(chunk);
        await io.write("\n");
        return;
      }
      const bytes = await writeChunksAtomic(opts.out, exported.chunks());
      const info = { out: path.resolve(opts.out), bytes, version: exported.version };
      if (opts.json) printJson(io, info);
      else io.out(`wrote ${info.out} (version ${info.version}, ${info.bytes} bytes)`);
    });
}

function printTable(io: Io, header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join("  ").trimEnd();
  io.out([line(header), ...rows.map(line)].join("\n"));
}
