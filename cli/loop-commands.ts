/**
 * `refinery history …`, `refinery loop …` and `refinery runs`: the question queue and the hop
 * loop from the command line. Progress goes to stderr so `--json` output stays parseable.
 */
import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { Option } from "commander";
import { CLI_ACTOR } from "../lib/auth/permissions";
import { deepRefineFileNames, parseDeepRefineTrace, refinementActionsText, runTraceFromLoaded, traceToDeepRefineJson, validateTrace } from "../lib/loop/deeprefine-files";
import type { LoopConfig, LoopEvent } from "../lib/loop/types";
import { DEFAULT_LOOP_CONFIG } from "../lib/loop/types";
import { getGraphRecord } from "../lib/server/graphs/graph-store";
import { runOnVersion } from "../lib/server/graphs/on-version";
import type { ProviderName } from "../lib/server/providers";
import { getProvider } from "../lib/server/providers";
import { addQuestions, findQuestions, syncMemoryFiles } from "../lib/server/runs/questions";
import type { RunDetails } from "../lib/server/runs/runs";
import { findRuns, getRun, importTraceRun, runPending, startRun, traceOfRun } from "../lib/server/runs/runs";
import type { Io } from "./output";
import { CommandFailed, UsageError, printJson } from "./output";

/** Kept here too for the modules that import it from this one (it lives in output.ts, which main.ts loads first). */
export { CommandFailed };

function writeAtomic(file: string, text: string): void {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

function describeEvent(event: LoopEvent): string | null {
  switch (event.type) {
    case "step_started":
      return `[Step: ${event.step}] retrieving (cap ${event.cap})`;
    case "step_finished":
      return `  ${event.step.triples.length} triples via ${event.step.retrieval.method}; answerable: ${event.step.answerable ? "Yes" : "No"}`;
    case "abduction":
      return `  abduction: ${event.abduction.slice(0, 160)}${event.abduction.length > 160 ? "…" : ""}`;
    case "refinement":
      return `  ${event.actions.length} action(s) proposed${event.warnings.length ? `, ${event.warnings.length} skipped` : ""}`;
    default:
      return null;
  }
}

/** The trace as scripts see it: triples carry {subject, relation, object, subject_id, object_id}. */
function runJson(run: RunDetails) {
  return {
    run_id: run.id,
    graph: run.graph,
    graph_version: run.graphVersion,
    query: run.question,
    query_id: run.queryId,
    status: run.status,
    error: run.error,
    provider: { name: run.provider, model: run.model, is_llm: run.isLlm, note: run.isLlm ? null : "heuristic provider: rule-based, not an LLM" },
    constants: run.config,
    early_exit: run.earlyExit,
    steps: run.stepRecords,
    error_abduction_reason: run.abduction,
    error_abduction_raw: run.abductionRaw,
    refinement_raw: run.refinementRaw,
    actions: run.actionList,
    action_warnings: run.actionWarnings,
    calls: run.calls,
  };
}

function summaryLine(run: RunDetails): string {
  const what =
    run.status === "early_exit"
      ? "answerable at step 1: early exit, no refinement"
      : run.status === "awaiting_review"
        ? `${run.actionList.length} action(s) awaiting review`
        : run.status === "failed"
          ? `failed: ${run.error ?? "unknown error"}`
          : run.status;
  return `run ${run.id} (${run.provider}${run.isLlm ? "" : ", not an LLM"}): ${run.steps} step(s), ${what}`;
}

function configFrom(opts: { refineAfterYes?: boolean }): Partial<LoopConfig> {
  return opts.refineAfterYes === false ? { refineAfterFinalYes: false } : {};
}

export function registerLoopCommands(program: Command, io: Io): void {
  const history = program.command("history").description("the question queue of a graph");
  history
    .command("add")
    .description("add questions to a graph's queue (deduplicated by query id)")
    .argument("<graph>", "graph name")
    .argument("<questions...>", "question texts")
    .option("--json", "machine-readable output")
    .action(async (graph: string, texts: string[], opts: { json?: boolean }) => {
      const result = await addQuestions({ graph, texts, source: "user" });
      if (opts.json) return printJson(io, result);
      for (const q of result.added) io.out(`added ${q.queryId}  ${q.text}`);
      for (const q of result.existing) io.out(`already queued ${q.queryId}  ${q.text}`);
    });
  history
    .command("list")
    .description("list a graph's questions in queue order")
    .argument("<graph>", "graph name")
    .option("--pending", "only questions not yet refined")
    .option("--json", "machine-readable output")
    .action(async (graph: string, opts: { pending?: boolean; json?: boolean }) => {
      const items = await findQuestions({ graph, status: opts.pending ? "pending" : "all" });
      if (opts.json) return printJson(io, items);
      if (items.length === 0) return io.out(opts.pending ? "no pending questions" : "no questions yet: `refinery history add <graph> \"…\"`");
      for (const q of items) io.out(`${q.refined ? "refined" : "pending"}  ${q.queryId}  ${q.text}`);
    });
  history
    .command("sync-memory")
    .description("import graphify memory files (graphify-out/memory/query_*.md) as questions")
    .argument("<graph>", "graph name")
    .option("--dir <dir>", "project folder, graphify-out or memory folder (default: where the graph was imported from)")
    .option("--json", "machine-readable output")
    .action(async (graph: string, opts: { dir?: string; json?: boolean }) => {
      let dir = opts.dir;
      if (!dir) {
        const source = (await getGraphRecord(graph)).sourcePath;
        if (!source) throw new UsageError("this graph was uploaded, not imported from a folder: give --dir");
        dir = fs.existsSync(source) && fs.statSync(source).isDirectory() ? source : path.dirname(source);
      }
      const result = await syncMemoryFiles({ graph, dir });
      if (opts.json) return printJson(io, result);
      io.out(`${result.files} memory file(s): ${result.added.length} question(s) added, ${result.existing.length} already queued${result.unreadable.length ? `, ${result.unreadable.length} without a question` : ""}`);
    });

  const loop = program.command("loop").description("the refinement hop loop");
  loop
    .command("run")
    .description("run the hop loop for a question (or every pending question) and print the trace")
    .argument("<graph>", "graph name")
    .option("--query <question>", "the question (added to the queue if new)")
    .option("--pending", "run every pending question of the queue, in order")
    .addOption(new Option("--provider <name>", "LLM provider (default: REFINERY_LLM_PROVIDER or heuristic)").choices(["heuristic", "openai", "replay"]))
    .option("--replay-file <file>", "recording for --provider replay")
    .option("--no-refine-after-yes", "skip abduction and refinement when the last step was answerable")
    .option("--json", "print the trace(s) as JSON")
    .action(async (graph: string, opts: { query?: string; pending?: boolean; provider?: ProviderName; replayFile?: string; refineAfterYes?: boolean; json?: boolean }) => {
      if (!opts.query && !opts.pending) throw new UsageError('give --query "<question>" or --pending');
      if (opts.query && opts.pending) throw new UsageError("give either --query or --pending, not both");
      const provider = await getProvider(opts.provider, { replayFile: opts.replayFile });
      if (!provider.isLlm) io.err("note: the heuristic provider is rule-based and offline, not an LLM");
      const onEvent = (_runId: string, event: LoopEvent) => {
        const line = describeEvent(event);
        if (line) io.err(line);
      };
      const runs = opts.pending
        ? await runPending({ graph, provider, config: configFrom(opts), onEvent, actor: CLI_ACTOR })
        : [await (await startRun({ graph, question: opts.query, provider, config: configFrom(opts), onEvent, actor: CLI_ACTOR })).done];
      if (opts.json) printJson(io, opts.pending ? runs.map(runJson) : runJson(runs[0] as RunDetails));
      else if (runs.length === 0) io.out("no pending questions");
      else for (const r of runs) io.out(summaryLine(r));
      if (runs.some((r) => r.status === "failed" || r.status === "interrupted")) throw new CommandFailed();
    });
  loop
    .command("validate")
    .description("check a loop trace (ours or the deeprefine skill's) against our constants and the graph")
    .argument("<graph>", "graph name")
    .requiredOption("--trace-file <file>", "loop_trace_<id>.json")
    .option("--refinement-file <file>", "refinement_actions_<id>.txt")
    .option("--json", "machine-readable output")
    .action(async (graph: string, opts: { traceFile: string; refinementFile?: string; json?: boolean }) => {
      const trace = parseDeepRefineTrace(readText(opts.traceFile), { source: opts.traceFile });
      const refinementText = opts.refinementFile ? readText(opts.refinementFile) : undefined;
      // On the version in memory, or over SQL for a graph served by SQL retrieval (only the trace's nodes and edges are read).
      const { result } = await runOnVersion(graph, undefined, (kg) => validateTrace({ trace, config: DEFAULT_LOOP_CONFIG, graph: kg, refinementText }));
      if (opts.json) printJson(io, result);
      else if (result.ok) io.out(`valid: ${opts.traceFile}`);
      else for (const e of result.errors) io.err(`invalid: ${e}`);
      if (!result.ok) throw new CommandFailed();
    });
  loop
    .command("export")
    .description("write a run as the skill's loop_trace_<id>.json and refinement_actions_<id>.txt")
    .argument("<run>", "run id")
    .option("--out <dir>", "folder to write into", ".")
    .option("--json", "machine-readable output")
    .action(async (runId: string, opts: { out: string; json?: boolean }) => {
      const run = await getRun(runId);
      const names = deepRefineFileNames(run.queryId);
      const trace = traceOfRun(run);
      const hasRefinement = !run.earlyExit && run.refinementRaw !== null;
      const traceFile = path.join(opts.out, names.trace);
      const refinementFile = path.join(opts.out, names.refinement);
      if (hasRefinement) writeAtomic(refinementFile, refinementActionsText(trace));
      writeAtomic(traceFile, JSON.stringify(traceToDeepRefineJson(trace, { refinementActionFile: hasRefinement ? refinementFile : null }), null, 2) + "\n");
      const written = { trace_file: path.resolve(traceFile), refinement_file: hasRefinement ? path.resolve(refinementFile) : null };
      if (opts.json) printJson(io, written);
      else io.out(`wrote ${written.trace_file}${written.refinement_file ? ` and ${written.refinement_file}` : ""}`);
    });
  loop
    .command("import")
    .description("store a deeprefine skill trace (and its refinement file) as a run, after validating it")
    .argument("<graph>", "graph name")
    .requiredOption("--trace-file <file>", "loop_trace_<id>.json")
    .option("--refinement-file <file>", "refinement_actions_<id>.txt")
    .option("--json", "machine-readable output")
    .action(async (graph: string, opts: { traceFile: string; refinementFile?: string; json?: boolean }) => {
      const loaded = parseDeepRefineTrace(readText(opts.traceFile), { source: opts.traceFile });
      const refinementText = opts.refinementFile ? readText(opts.refinementFile) : undefined;
      const { result: check } = await runOnVersion(graph, undefined, (kg) => validateTrace({ trace: loaded, config: DEFAULT_LOOP_CONFIG, graph: kg, refinementText }));
      if (!check.ok) {
        for (const e of check.errors) io.err(`invalid: ${e}`);
        throw new CommandFailed();
      }
      const run = await importTraceRun({ graph, trace: runTraceFromLoaded(loaded, { config: DEFAULT_LOOP_CONFIG, refinementText }) });
      if (opts.json) printJson(io, runJson(run));
      else io.out(summaryLine(run));
    });

  program
    .command("runs")
    .description("list runs, newest first")
    .argument("[graph]", "only this graph's runs")
    .option("--json", "machine-readable output")
    .action(async (graph: string | undefined, opts: { json?: boolean }) => {
      const runs = await findRuns({ graph });
      if (opts.json) return printJson(io, runs);
      if (runs.length === 0) return io.out("no runs yet: `refinery loop run <graph> --query \"…\"`");
      for (const r of runs) io.out(`${r.id}  ${r.status.padEnd(15)} ${String(r.steps)} step(s)  ${r.actions} action(s)  ${r.graph}  ${r.question}`);
    });
}

function readText(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    throw new UsageError(`${file}: cannot read the file`);
  }
}
