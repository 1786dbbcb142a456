/**
 * `deeprefine review`: label each proposed action HIGH / MEDIUM / LOW with Refinery's review,
 * write the markdown report (the skill's proposed_refinement_review.md) and print it. Never
 * changes the graph.
 */
import path from "node:path";
import type { Command } from "commander";
import { renderReviewMarkdown, skillReviewJson } from "../../lib/deeprefine/review-report";
import { parseGraphifyJson } from "../../lib/import/parse-graphify";
import type { LoadedTrace } from "../../lib/loop/deeprefine-files";
import { printJson } from "../output";
import { backupVersionDirs, checkTraceAcrossVersions } from "./check-trace";
import type { Context, GraphFile, ProjectPaths, RootOptions } from "./project";
import { failWith, projectPaths, readGraphFile, readText, readTraceFile, resolveInput, rootOptions, writeFileAtomic } from "./project";
import type { FileReview } from "./run-review";
import { reviewRefinement } from "./run-review";
import type { ServerOptions } from "./server-commands";
import { serverOptions, serverTarget, submitToServer } from "./server-commands";

/** The trace of `--trace-file`, validated (exit 1 listing the errors when it is not valid). */
export function checkedTrace(ctx: Context, paths: ProjectPaths, graph: GraphFile, traceFile: string, refinementText: string, heading: string): LoadedTrace {
  const { trace } = readTraceFile(resolveInput(traceFile, paths, ctx.cwd));
  const check = checkTraceAcrossVersions({
    trace,
    graph: graph.graph,
    refinementText,
    earlier: () =>
      backupVersionDirs(paths).map((v) => {
        const file = path.join(v.dir, "graph.json");
        return { version: v.version, graph: () => parseGraphifyJson(readText(file), { source: file }) };
      }),
  });
  if (check.errors.length > 0) failWith(ctx, [heading, ...check.errors.map((e) => `  - ${e}`)]);
  return trace;
}

export interface ReviewedFile {
  paths: ProjectPaths;
  graph: GraphFile;
  refinementFile: string;
  text: string;
  trace: LoadedTrace | null;
  review: FileReview;
}

/** Read everything a review needs and run it (shared with apply). */
export function reviewFiles(
  ctx: Context,
  opts: RootOptions & { refinementFile: string; traceFile?: string },
  { validateTrace, heading }: { validateTrace: boolean; heading: string },
): ReviewedFile {
  const paths = projectPaths(opts, ctx.cwd);
  const refinementFile = resolveInput(opts.refinementFile, paths, ctx.cwd);
  const text = readText(refinementFile);
  if (!text.trim()) failWith(ctx, [`${refinementFile}: empty; provide --refinement-file with a <refinement>...</refinement> block`]);
  const graph = readGraphFile(paths.graph);
  let trace: LoadedTrace | null = null;
  if (opts.traceFile !== undefined) {
    trace = validateTrace
      ? checkedTrace(ctx, paths, graph, opts.traceFile, text, heading)
      : readTraceFile(resolveInput(opts.traceFile, paths, ctx.cwd)).trace;
  }
  const review = reviewRefinement({ graph: graph.graph, text, file: refinementFile, trace, root: paths.root });
  return { paths, graph, refinementFile, text, trace, review };
}

export function registerReviewCommand(program: Command, ctx: Context): void {
  const { io } = ctx;
  serverOptions(rootOptions(program.command("review").description("label proposed actions HIGH / MEDIUM / LOW with evidence, warnings and ranked suggestions (no graph change); with --server, submit them to the team's review queue")))
    .requiredOption("--refinement-file <file>", "refinement_actions_<id>.txt holding <refinement>…</refinement>")
    .option("--trace-file <file>", "its loop_trace_<id>.json (validated first; its last step is the retrieved subgraph)")
    .option("--output <file>", "markdown report (default graphify-out/.deeprefine/proposed_refinement_review.md)")
    .option("--json-output <file>", "also write the JSON report here")
    .option("--json", "print the JSON report instead of the markdown")
    .action(async (opts: RootOptions & ServerOptions & { refinementFile: string; traceFile?: string; output?: string; jsonOutput?: string; json?: boolean }) => {
      const server = serverTarget(opts, projectPaths(opts, ctx.cwd));
      if (server) return submitToServer(ctx, server, projectPaths(opts, ctx.cwd), opts, "review");
      const { paths, review } = reviewFiles(ctx, opts, { validateTrace: true, heading: "Loop trace validation failed:" });
      const markdown = renderReviewMarkdown(review.reviews, { notes: review.inputs.notes });
      const json = review.reviews.map(skillReviewJson);
      const reportFile = opts.output ? path.resolve(ctx.cwd, opts.output) : paths.reviewReport;
      writeFileAtomic(reportFile, markdown);
      const jsonFile = opts.jsonOutput ? path.resolve(ctx.cwd, opts.jsonOutput) : null;
      if (jsonFile) writeFileAtomic(jsonFile, `${JSON.stringify(json, null, 2)}\n`);
      if (opts.json) {
        printJson(io, json);
        io.err(`Review saved: ${reportFile}`);
        return;
      }
      io.out(markdown);
      io.out(`Review saved: ${reportFile}`);
      if (jsonFile) io.out(`Review JSON saved: ${jsonFile}`);
      io.out(`No graph changes applied. Proposed actions: ${review.reviews.length}`);
    });
}
