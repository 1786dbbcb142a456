/**
 * `deeprefine loop init | validate | finish`: the agent-loop trace's life cycle. The agent runs
 * the hops and writes `loop_trace_<id>.json`; these commands create its template, check it
 * (against Refinery's constants and the real graph) and close it (results log, history).
 */
import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { createHistoryRow, hasRow, markRefined } from "../../lib/deeprefine/history";
import { loopInitInfo, resultsFileName, resultsRow, traceTemplate } from "../../lib/deeprefine/loop-files";
import { stringifyPythonJson } from "../../lib/deeprefine/python-json";
import { parseGraphifyJson } from "../../lib/import/parse-graphify";
import { DEFAULT_LOOP_CONFIG } from "../../lib/loop/types";
import { queryIdOf } from "../../lib/questions/query-id";
import { UsageError, printJson } from "../output";
import { backupVersionDirs, checkTraceAcrossVersions, refinementTextFor } from "./check-trace";
import { appendHistory, readHistory, writeHistory } from "./history-commands";
import type { Context, ProjectPaths, RootOptions } from "./project";
import { CommandFailed, appendLine, display, projectPaths, readGraphFile, readText, readTraceFile, resolveInput, rootOptions, writeFileAtomic } from "./project";

interface TraceOptions extends RootOptions {
  traceFile: string;
  refinementFile?: string;
  json?: boolean;
}

/** Validate a trace file for validate/finish; prints nothing. */
function checkTraceFile(ctx: Context, paths: ProjectPaths, opts: TraceOptions) {
  const traceFile = readTraceFile(resolveInput(opts.traceFile, paths, ctx.cwd));
  const refinement = refinementTextFor({ refinementFile: opts.refinementFile, trace: traceFile.trace, paths, cwd: ctx.cwd });
  const current = readGraphFile(paths.graph);
  const check = checkTraceAcrossVersions({
    trace: traceFile.trace,
    graph: current.graph,
    refinementText: refinement.text,
    earlier: () =>
      backupVersionDirs(paths).map((v) => {
        const file = path.join(v.dir, "graph.json");
        return { version: v.version, graph: () => parseGraphifyJson(readText(file), { source: file }) };
      }),
  });
  return { traceFile, refinement, check };
}

function matchedNote(version: number | null): string | null {
  return version === null ? null : `note: the trace's triples match the graph as it was before apply ${version} (that apply changed them)`;
}

export function registerLoopCommands(program: Command, ctx: Context): void {
  const { io } = ctx;
  const loop = program.command("loop").description("the agent loop's trace: init, validate, finish");

  rootOptions(loop.command("init").description("record the question and write the loop_trace_<id>.json template; prints the paths and constants as JSON"))
    .requiredOption("--query <text>", "the exact question")
    .option("--trace-file <file>", "where to write the template (default graphify-out/.deeprefine/loop_trace_<id>.json)")
    .option("--json", "accepted for symmetry: the output is always JSON")
    .action((opts: RootOptions & { query: string; traceFile?: string }) => {
      const paths = projectPaths(opts, ctx.cwd);
      const query = opts.query.trim();
      if (!query) throw new UsageError("--query is empty");
      const info = loopInitInfo({ query, config: DEFAULT_LOOP_CONFIG, stateDir: paths.state });
      const traceFile = opts.traceFile ? path.resolve(ctx.cwd, opts.traceFile) : info.trace_file;
      const replaced = fs.existsSync(traceFile);
      writeFileAtomic(traceFile, `${JSON.stringify(traceTemplate({ query, config: DEFAULT_LOOP_CONFIG }), null, 2)}\n`);
      const rows = readHistory(paths);
      const recorded = !hasRow(rows, info.query_id);
      if (recorded) appendHistory(paths, [createHistoryRow({ query, source: "deeprefine_loop", now: ctx.now() })]);
      printJson(io, {
        ...info,
        trace_file: traceFile,
        project_root: paths.root,
        refinement_action_file: display(paths, info.refinement_file),
        history: recorded ? "recorded" : "already in history",
        template: replaced ? "replaced the existing trace file" : "written",
      });
    });

  rootOptions(loop.command("validate").description("check a trace against Refinery's constants and the graph (exit 1 with each error on stderr)"))
    .requiredOption("--trace-file <file>", "loop_trace_<id>.json")
    .option("--refinement-file <file>", "refinement_actions_<id>.txt (default: the trace's refinement_action_file)")
    .option("--json", "print {ok, errors} as JSON")
    .action((opts: TraceOptions) => {
      const paths = projectPaths(opts, ctx.cwd);
      const { check } = checkTraceFile(ctx, paths, opts);
      const note = matchedNote(check.matchedVersion);
      if (opts.json) printJson(io, { ok: check.errors.length === 0, errors: check.errors, matched_version: check.matchedVersion });
      if (check.errors.length > 0) {
        if (!opts.json) {
          io.err("INVALID — does not match Reafiner.refine() control flow (checked with Refinery's constants and graph.json):");
          for (const e of check.errors) io.err(`  - ${e}`);
        }
        throw new CommandFailed();
      }
      if (note) io.err(note);
      if (!opts.json) io.out("OK — loop trace matches Reafiner.refine() rules (constants and every triple checked against graph.json).");
    });

  rootOptions(loop.command("finish").description("validate, append to refinement_results_<YYYYMMDD>.jsonl and mark the question refined"))
    .requiredOption("--trace-file <file>", "loop_trace_<id>.json")
    .option("--refinement-file <file>", "refinement_actions_<id>.txt (default: the trace's refinement_action_file)")
    .option("--json", "print {results_file, query_id, row} as JSON")
    .action((opts: TraceOptions) => {
      const paths = projectPaths(opts, ctx.cwd);
      const { traceFile, refinement, check } = checkTraceFile(ctx, paths, opts);
      if (check.errors.length > 0) {
        io.err("Cannot finish — trace invalid:");
        for (const e of check.errors) io.err(`  - ${e}`);
        throw new CommandFailed();
      }
      const note = matchedNote(check.matchedVersion);
      if (note) io.err(note);
      const now = ctx.now();
      const query = traceFile.trace.question.trim();
      const id = traceFile.trace.queryId ?? queryIdOf(query);
      // The trace path as given, like the skill records it.
      const recordedTrace = opts.traceFile;
      let rows = readHistory(paths);
      if (!hasRow(rows, id)) {
        const row = createHistoryRow({ query, source: "deeprefine_loop", now, id, extra: { trace_file: recordedTrace } });
        appendHistory(paths, [row]);
        rows = [...rows, row];
      }
      const row = resultsRow({ trace: traceFile.raw, refinementText: refinement.text ?? null, traceFile: recordedTrace });
      const log = path.join(paths.state, resultsFileName(now));
      appendLine(log, `${stringifyPythonJson(row)}\n`);
      const marked = markRefined({ rows, id, now, traceFile: recordedTrace });
      if (marked.changed) writeHistory(paths, marked.rows);
      if (opts.json) return printJson(io, { results_file: log, query_id: id, marked_refined: marked.changed, row });
      io.out(`Logged → ${log}`);
      io.out(marked.changed ? `Marked refined: ${id}` : `Already refined: ${id}`);
    });
}
