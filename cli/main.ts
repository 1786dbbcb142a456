/**
 * `refinery` command line. Every command takes --json; errors go to stderr with exit code 1
 * (failure) or 2 (usage). Commands are thin: parse flags, call lib/server, print.
 */
import fs from "node:fs";
import path from "node:path";
import { Command, CommanderError, Option } from "commander";
import { exportGraphifyJson } from "../lib/export/export-graphify";
import { formatQueryText, queryGraph } from "../lib/retrieve/query-graph";
import { findGraphs, findRelationCounts, getGraphSummary, loadGraph } from "../lib/server/graphs/graph-store";
import type { GraphFormat } from "../lib/server/graphs/graph-store";
import { importGraphFromPath } from "../lib/server/graphs/import-graph";
import { recordImport } from "../lib/server/graphs/record-import";
import { CLI_ACTOR } from "../lib/auth/permissions";
import { CommandFailed, registerLoopCommands } from "./loop-commands";
import { registerAuditCommands } from "./audit-commands";
import { registerAskCommands } from "./ask-commands";
import { registerCampaignCommands } from "./campaign-commands";
import { registerReviewCommands } from "./review-commands";
import { registerMcpCommand } from "./mcp-command";
import type { Io } from "./output";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError, printJson, processIo, reportError } from "./output";

function positiveInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} must be a positive integer, got ${JSON.stringify(value)}`);
  return n;
}

/** Write a file atomically: a crash never leaves a half-written export behind. */
function writeFileAtomic(file: string, text: string): void {
  const dir = path.dirname(path.resolve(file));
  fs.mkdirSync(dir, { recursive: true });
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.tmp`);
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

function buildProgram(io: Io): Command {
  const program = new Command("refinery")
    .description("Question-driven refinement of knowledge graphs with human approval")
    .version("0.1.0")
    .enablePositionalOptions()
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) });

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
      const { graph } = await loadGraph(name, version);
      const result = queryGraph({ graph, question, limit });
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
      const loaded = await loadGraph(name, version);
      const text = exportGraphifyJson(loaded.graph);
      if (!opts.out) {
        io.out(text);
        return;
      }
      writeFileAtomic(opts.out, text);
      const info = { out: path.resolve(opts.out), bytes: Buffer.byteLength(text), version: loaded.version };
      if (opts.json) printJson(io, info);
      else io.out(`wrote ${info.out} (version ${info.version}, ${info.bytes} bytes)`);
    });

  registerLoopCommands(program, io);
  registerReviewCommands(program, io);
  registerMcpCommand(program, io);
  registerAuditCommands(program, io);
  registerAskCommands(program, io);
  registerCampaignCommands(program, io);
  return program;
}

function printTable(io: Io, header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join("  ").trimEnd();
  io.out([line(header), ...rows.map(line)].join("\n"));
}

/** Run the CLI; returns the exit code (never calls process.exit, so tests can call it). */
export async function main(argv: string[], io: Io = processIo): Promise<number> {
  const program = buildProgram(io);
  const json = argv.includes("--json");
  try {
    await program.parseAsync(argv, { from: "user" });
    return EXIT_OK;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.code === "commander.help") return EXIT_OK;
      return EXIT_USAGE;
    }
    // The command already explained the failure on stderr (invalid trace, failed run).
    if (error instanceof CommandFailed) return EXIT_FAILURE;
    return reportError(io, error, json);
  }
}
