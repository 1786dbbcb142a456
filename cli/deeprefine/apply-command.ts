/**
 * `deeprefine apply`: the person's approval, carried out. Reviews the actions on the current
 * graph.json (any LOW refuses everything without --allow-low-confidence), plans them with the
 * resolver the review used (replace_node merges for real), and writes:
 *
 *   1. `.deeprefine/versions/<n>/` — graph.json as it was, the changeset and its inverse;
 *   2. graph.json, atomically, in graphify's formatting;
 *   3. with --refresh-wiki, graphify-out/wiki (atomically); if that fails, graph.json is put
 *      back and the version removed, so graph and wiki never disagree.
 *
 * With --refresh-wiki a new edge on an already-linked pair is refused (the skill's rule: the
 * wiki shows one edge per pair). Nothing is written before every check has passed.
 */
import path from "node:path";
import type { Command } from "commander";
import type { Changeset } from "../../lib/changes/changeset";
import { applyChangeset, invertChangeset } from "../../lib/changes/changeset";
import type { GraphDiff } from "../../lib/changes/diff";
import { diffChangesets } from "../../lib/changes/diff";
import type { Plan } from "../../lib/changes/plan-actions";
import { planActions } from "../../lib/changes/plan-actions";
import { findParallelRelations } from "../../lib/deeprefine/parallel-relations";
import { renderReviewMarkdown, skillReviewJson } from "../../lib/deeprefine/review-report";
import type { AppliedAction, VersionMeta } from "../../lib/deeprefine/versions";
import { nextVersionNumber } from "../../lib/deeprefine/versions";
import { formatUtcTimestamp } from "../../lib/deeprefine/history";
import { AppError } from "../../lib/errors";
import { buildWiki } from "../../lib/export/export-wiki";
import { exportGraphifyJson } from "../../lib/export/export-graphify";
import type { KnowledgeGraph } from "../../lib/graph/model";
import { formatAction } from "../../lib/loop/parse-output";
import type { ActionReview } from "../../lib/review/types";
import { writeWikiAtomically } from "../../lib/server/graphs/write-wiki";
import type { Io } from "../output";
import { printJson } from "../output";
import type { Context, ProjectPaths, RootOptions } from "./project";
import { display, failWith, isFile, projectPaths, rootOptions, sha256, withTrailing, writeFileAtomic } from "./project";
import type { ServerOptions } from "./server-commands";
import { serverOptions, serverTarget, submitToServer } from "./server-commands";
import { reviewFiles } from "./review-command";
import { existingVersionNumbers, removeVersion, writeVersion } from "./version-store";

interface ApplyOptions extends RootOptions {
  refinementFile: string;
  traceFile?: string;
  skipTraceCheck?: boolean;
  allowLowConfidence?: boolean;
  refreshWiki?: boolean;
  json?: boolean;
}

export function printDiff(io: Io, diff: GraphDiff): void {
  for (const n of diff.addedNodes) io.out(`  + node ${n.label} (${n.id})`);
  for (const m of diff.mergedNodes) io.out(`  ~ merged ${m.from.label} (${m.from.id}) into ${m.into.label} (${m.into.id})`);
  for (const n of diff.removedNodes) io.out(`  - node ${n.label} (${n.id})`);
  for (const c of diff.changedNodes) io.out(`  ~ node ${c.before.label} → ${c.after.label} (${c.fields.join(", ")})`);
  for (const e of diff.addedEdges) io.out(`  + ${e.subject} --${e.relation}--> ${e.object}`);
  for (const e of diff.removedEdges) io.out(`  - ${e.subject} --${e.relation}--> ${e.object}`);
  for (const c of diff.changedEdges) io.out(`  ~ ${c.before.subject} --${c.before.relation}--> ${c.before.object}  ⇒  ${c.after.subject} --${c.after.relation}--> ${c.after.object}`);
}

export function diffOf(changeset: Changeset, merges: Plan["merges"], before: KnowledgeGraph, after: KnowledgeGraph): GraphDiff {
  const labelOf = (id: string) => after.getNode(id)?.label ?? before.getNode(id)?.label ?? id;
  return diffChangesets({ changesets: [changeset], merges, labelOf });
}

/** The wiki for a graph, written atomically into graphify-out/wiki. */
export async function refreshWiki(paths: ProjectPaths, graph: KnowledgeGraph, version?: number) {
  const wiki = buildWiki({ graph, title: path.basename(paths.root) || "graph", version });
  return writeWikiAtomically({ dir: paths.wiki, files: wiki.files });
}

function lowRefusal(ctx: Context, reviews: readonly ActionReview[], json: boolean): never {
  const low = reviews.filter((r) => r.confidence === "LOW");
  if (json) ctx.io.err(JSON.stringify({ error: { code: "LOW_CONFIDENCE", message: "LOW-confidence actions need --allow-low-confidence; graph.json was not changed", actions: low.map((r) => r.text) } }));
  failWith(ctx, [
    "Refusing to apply because LOW-confidence action(s) were detected. Review or rewrite the proposed actions, or rerun with --allow-low-confidence to override. graph.json was not changed.",
    ...low.map((r) => `  - ${r.text}: ${r.reasons.at(-1) ?? "LOW"}`),
  ]);
}

export function registerApplyCommand(program: Command, ctx: Context): void {
  const { io } = ctx;
  serverOptions(rootOptions(program.command("apply").description("apply reviewed actions to graph.json with a versioned backup (undo with `deeprefine undo`); with --server, submit them for approval instead")))
    .requiredOption("--refinement-file <file>", "refinement_actions_<id>.txt holding <refinement>…</refinement>")
    .option("--trace-file <file>", "its loop_trace_<id>.json, validated before anything is applied (required unless --skip-trace-check)")
    .option("--skip-trace-check", "apply without a validated trace (not for the agent loop)")
    .option("--allow-low-confidence", "explicitly accept the risk of LOW-confidence actions")
    .option("--refresh-wiki", "also regenerate graphify-out/wiki; graph.json is rolled back if that fails")
    .option("--json", "print {version, actions, diff, wiki, reviews} as JSON")
    .action(async (opts: ApplyOptions & ServerOptions) => {
      const json = opts.json === true;
      // With a server, "apply" asks people: the file becomes a proposal; graph.json waits for `deeprefine pull`.
      const server = serverTarget(opts, projectPaths(opts, ctx.cwd));
      if (server) return submitToServer(ctx, server, projectPaths(opts, ctx.cwd), opts, "apply");
      if (!opts.skipTraceCheck && opts.traceFile === undefined) {
        failWith(ctx, ["Agent loop requires --trace-file (loop_trace_*.json). See SKILL.md or run: deeprefine loop validate --trace-file ..."]);
      }
      const { paths, graph, refinementFile, trace, review } = reviewFiles(ctx, opts, {
        validateTrace: !opts.skipTraceCheck,
        heading: "Loop trace validation failed (must match Reafiner.refine()):",
      });
      const { reviews, inputs } = review;
      if (!json) io.out(renderReviewMarkdown(reviews, { notes: inputs.notes }));
      if (reviews.some((r) => r.confidence === "LOW") && !opts.allowLowConfidence) lowRefusal(ctx, reviews, json);

      const version = nextVersionNumber(existingVersionNumbers(paths));
      // Plan errors (an ambiguous name, deleting an edge that is not there) refuse the whole apply.
      let plan: Plan;
      try {
        plan = planActions({ graph: graph.graph, actions: inputs.actions, edgeKeyPrefix: `v${version}.` });
      } catch (e) {
        if (e instanceof AppError) throw new AppError(e.code, `${e.message}; graph.json was not changed`, e.details);
        throw e;
      }
      const confidenceOf = (i: number) => reviews.find((r) => r.index === i)?.confidence ?? null;
      const actions: AppliedAction[] = plan.actions.map((a) => ({
        index: a.index,
        action: formatAction(a.action),
        confidence: confidenceOf(a.index),
        summary: a.summary,
        skipped: a.skipped,
      }));
      const notApplied = inputs.unparseable.map((u) => `${u.raw}: does not parse (${u.error}), not applied`);

      if (plan.changeset.ops.length === 0) {
        if (json) return printJson(io, { applied: false, version: null, graph_file: graph.file, actions, not_applied: notApplied, diff: null, wiki: null, reviews: reviews.map(skillReviewJson) });
        io.out(`No change to ${graph.file}: nothing to apply.`);
        for (const a of actions) io.out(`  ${a.index + 1}. ${a.action}: ${a.summary}`);
        for (const n of notApplied) io.out(`  ${n}`);
        return;
      }

      const after = applyChangeset(graph.graph, plan.changeset);
      if (opts.refreshWiki) {
        const parallel = findParallelRelations({ before: graph.graph, after, changeset: plan.changeset });
        if (parallel.length > 0) {
          if (json) ctx.io.err(JSON.stringify({ error: { code: "PARALLEL_RELATION", message: "new parallel relation on an already-linked pair refused with --refresh-wiki", edges: parallel } }));
          failWith(ctx, [
            "Refusing to apply with --refresh-wiki: the wiki shows one edge per node pair, and these actions add a parallel relation to a pair that is already linked. graph.json was not changed.",
            ...parallel.map((p) => `  - ${p.subject} --${p.relation}--> ${p.object}: already linked by ${p.existing.map((r) => `"${r}"`).join(", ")}`),
            "Rewrite the action (or delete the existing edge in the same refinement), or apply without --refresh-wiki.",
          ]);
        }
      }

      const newText = withTrailing(graph.text, exportGraphifyJson(after));
      const now = ctx.now();
      const meta: VersionMeta = {
        version,
        created_ts: formatUtcTimestamp(now),
        query: trace?.question.trim() ?? null,
        query_id: trace?.queryId ?? null,
        trace_file: opts.traceFile ?? null,
        refinement_file: display(paths, refinementFile),
        before_sha256: graph.sha256,
        after_sha256: sha256(newText),
        refresh_wiki: opts.refreshWiki === true,
        allow_low_confidence: opts.allowLowConfidence === true,
        actions,
        undone_ts: null,
      };
      const dir = writeVersion(paths, { meta, before: graph.bytes, changeset: plan.changeset, inverse: invertChangeset(plan.changeset) });
      // The skill's one-time backup, for agents whose checklist looks for it.
      if (!isFile(paths.legacyBackup)) writeFileAtomic(paths.legacyBackup, graph.bytes);
      writeFileAtomic(graph.file, newText);

      let wiki: { dir: string; files: number } | null = null;
      if (opts.refreshWiki) {
        try {
          wiki = await refreshWiki(paths, after, version);
        } catch (e) {
          writeFileAtomic(graph.file, graph.bytes);
          removeVersion(paths, version);
          const why = e instanceof Error ? e.message : String(e);
          throw new AppError("INTERNAL", `refreshing the wiki failed (${why}); graph.json was rolled back and nothing was applied`);
        }
      }

      const diff = diffOf(plan.changeset, plan.merges, graph.graph, after);
      if (json) {
        return printJson(io, { applied: true, version, version_dir: dir, graph_file: graph.file, actions, not_applied: notApplied, diff, wiki, reviews: reviews.map(skillReviewJson) });
      }
      const done = actions.filter((a) => !a.skipped).length;
      io.out(`Applied ${done} action(s) to ${graph.file} as version ${version} (backup: ${display(paths, dir)}/graph.json)`);
      for (const a of actions) io.out(`  - ${a.index + 1}. ${a.action}${a.confidence ? ` [${a.confidence}]` : ""}: ${a.summary}`);
      for (const n of notApplied) io.out(`  - ${n}`);
      io.out("Changes:");
      printDiff(io, diff);
      if (wiki) io.out(`Wiki: wrote ${wiki.files} page(s) to ${display(paths, wiki.dir)}`);
      io.out("Undo with: deeprefine undo");
    });
}
