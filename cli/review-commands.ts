/**
 * `refinery review | apply | revert | diff | versions | proposals | wiki`: reviewing proposed
 * actions, applying them as a new graph version (the CLI call is the person's approval; LOW
 * needs --allow-low-confidence), undoing, diffing and exporting.
 *
 * `apply` works while the graph has nobody to ask for a second opinion: with no account at all
 * (single-user local mode), or in solo mode (fewer than two accounts may approve on the graph:
 * the one approver at their own terminal is who the browser would ask anyway; LOW then needs
 * --allow-low-confidence and a --reason, as the browser asks). In team mode the graph changes
 * only through approvals under its policy in the browser, so the command line — which cannot
 * prove who is typing — refuses to apply.
 */
import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { Option } from "commander";
import type { GraphDiff } from "../lib/changes/diff";
import { parseDeepRefineTrace } from "../lib/loop/deeprefine-files";
import { formatAction, parseRefinement } from "../lib/loop/parse-output";
import type { RefinementAction } from "../lib/loop/types";
import type { ActionReview } from "../lib/review/types";
import { diffVersions, findVersions, revertVersion } from "../lib/server/proposals/changesets";
import { getGraphRecord } from "../lib/server/graphs/graph-store";
import type { ProposalDetails, ProposalStatus } from "../lib/server/proposals/proposals";
import { applyProposal, createProposal, discardProposal, findProposals, getProposal, reviewForGraph } from "../lib/server/proposals/proposals";
import { AppError } from "../lib/errors";
import { CLI_ACTOR } from "../lib/auth/permissions";
import { isSetupNeeded } from "../lib/server/auth/is-setup-needed";
import { getPolicyInEffect } from "../lib/server/policies/policies";
import { MIN_REASON_LENGTH } from "../lib/auth/approval-policy";
import type { Io } from "./output";
import { UsageError, printJson } from "./output";

function readText(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    throw new UsageError(`${file}: cannot read the file`);
  }
}

interface FileActions {
  actions: RefinementAction[];
  warnings: string[];
  retrieved?: { subject: string; relation: string; object: string; subject_id: string; object_id: string }[];
  question?: string;
}

/** Actions from a refinement file (the skill's `<refinement>` block), with the trace's last subgraph. */
function actionsFromFiles(refinementFile: string, traceFile?: string): FileActions {
  const parsed = parseRefinement(readText(refinementFile), { maxActions: 1000 });
  if (!parsed.ok) throw new UsageError(`${refinementFile}: ${parsed.error}`);
  if (parsed.actions.length === 0) throw new UsageError(`${refinementFile}: no actions to review`);
  if (!traceFile) return { actions: parsed.actions, warnings: parsed.warnings };
  const trace = parseDeepRefineTrace(readText(traceFile), { source: traceFile });
  const last = trace.steps.at(-1)?.triples ?? [];
  const retrieved = last.map((t) => ({
    subject: t.subject ?? "",
    relation: t.relation ?? "",
    object: t.object ?? "",
    subject_id: t.subject_id ?? t.subject ?? "",
    object_id: t.object_id ?? t.object ?? "",
  }));
  return { actions: parsed.actions, warnings: parsed.warnings, retrieved, question: trace.question };
}

async function proposalForRun(runId: string): Promise<ProposalDetails> {
  const [proposal] = await findProposals({ runId });
  if (!proposal) throw new UsageError(`run ${runId} has no proposal (it exited early, failed, or proposed nothing)`);
  return proposal;
}

function printReviews(io: Io, reviews: ActionReview[]): void {
  const counts = { HIGH: 0, MEDIUM: 0, LOW: 0 };
  for (const r of reviews) counts[r.confidence]++;
  io.out(`${reviews.length} action(s): ${counts.HIGH} HIGH, ${counts.MEDIUM} MEDIUM, ${counts.LOW} LOW${counts.LOW ? " (LOW needs --allow-low-confidence to apply)" : ""}\n`);
  for (const r of reviews) {
    io.out(`${r.index + 1}. [${r.confidence}${r.score !== undefined ? ` ${r.score.toFixed(2)}` : ""}] ${r.text}`);
    for (const reason of r.reasons) io.out(`     why: ${reason}`);
    for (const sig of [...(r.signals ?? [])].sort((a, b) => Math.abs(b.contribution) - Math.abs(a.contribution)).slice(0, 5)) {
      io.out(`     ${sig.contribution >= 0 ? "+" : "−"}${Math.abs(sig.contribution).toFixed(2)} ${sig.kind}: ${sig.summary}`);
    }
    for (const e of r.evidence.slice(0, 4)) {
      const where = e.source ? ` (${e.source.path ?? e.source.docId}${e.source.line ? `:${e.source.line}` : ""})` : "";
      io.out(`     evidence: ${e.summary}${where}${e.quote ? `\n       “${e.quote.slice(0, 200)}”` : ""}`);
    }
    for (const w of r.warnings) io.out(`     warning [${w.code}]: ${w.message}`);
    for (const s of r.suggestions.slice(0, 3)) io.out(`     suggestion: ${s.text} — ${s.reason}`);
  }
}

function printDiff(io: Io, diff: GraphDiff): void {
  for (const n of diff.addedNodes) io.out(`  + node ${n.label} (${n.id})`);
  for (const m of diff.mergedNodes) io.out(`  ~ merged ${m.from.label} (${m.from.id}) into ${m.into.label} (${m.into.id})`);
  for (const n of diff.removedNodes) io.out(`  - node ${n.label} (${n.id})`);
  for (const c of diff.changedNodes) io.out(`  ~ node ${c.before.label} → ${c.after.label} (${c.fields.join(", ")})`);
  for (const e of diff.addedEdges) io.out(`  + ${e.subject} --${e.relation}--> ${e.object}`);
  for (const e of diff.removedEdges) io.out(`  - ${e.subject} --${e.relation}--> ${e.object}`);
  for (const c of diff.changedEdges) io.out(`  ~ ${c.before.subject} --${c.before.relation}--> ${c.before.object}  ⇒  ${c.after.subject} --${c.after.relation}--> ${c.after.object}`);
}

function parseIndexes(value: string | undefined): number[] | undefined {
  if (value === undefined) return undefined;
  const parts = value.split(",").map((p) => p.trim());
  const out = parts.map((p) => Number(p) - 1);
  if (parts.some((p) => !/^\d+$/.test(p)) || out.some((n) => n < 0)) throw new UsageError(`--actions takes 1-based numbers like 1,3 (got ${JSON.stringify(value)})`);
  return out;
}

function positiveInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} must be a positive integer, got ${JSON.stringify(value)}`);
  return n;
}

export function registerReviewCommands(program: Command, io: Io): void {
  program
    .command("review")
    .description("label proposed actions HIGH / MEDIUM / LOW with evidence, warnings and suggestions")
    .argument("<graph>", "graph name")
    .option("--run <id>", "the actions a run proposed")
    .option("--proposal <id>", "a stored proposal")
    .option("--refinement-file <file>", "a refinement_actions_<id>.txt (<refinement>…</refinement>)")
    .option("--trace-file <file>", "with --refinement-file: its loop trace (the retrieved subgraph)")
    .option("--json", "machine-readable output")
    .action(async (graph: string, opts: { run?: string; proposal?: string; refinementFile?: string; traceFile?: string; json?: boolean }) => {
      const given = [opts.run, opts.proposal, opts.refinementFile].filter(Boolean).length;
      if (given !== 1) throw new UsageError("give one of --run ID, --proposal ID or --refinement-file F");
      let reviews: ActionReview[];
      let warnings: string[] = [];
      if (opts.refinementFile) {
        const file = actionsFromFiles(opts.refinementFile, opts.traceFile);
        warnings = file.warnings;
        reviews = await reviewForGraph({ graph, actions: file.actions, retrieved: file.retrieved, rulesWaitMs: Infinity });
      } else {
        const proposal = opts.run ? await proposalForRun(opts.run) : await getProposal(opts.proposal as string);
        if (proposal.graph !== graph) throw new UsageError(`that proposal belongs to graph ${JSON.stringify(proposal.graph)}`);
        reviews = await reviewForGraph({ graph, version: proposal.baseVersion, actions: proposal.actions.map((a) => a.action), rulesWaitMs: Infinity });
      }
      if (opts.json) return printJson(io, { reviews, parse_warnings: warnings });
      for (const w of warnings) io.err(`skipped: ${w}`);
      printReviews(io, reviews);
    });

  program
    .command("apply")
    .description("apply approved actions as a new graph version (LOW confidence needs --allow-low-confidence)")
    .argument("<graph>", "graph name")
    .option("--proposal <id>", "a stored proposal")
    .option("--run <id>", "the proposal of a run")
    .option("--refinement-file <file>", "actions from a refinement file (reviewed now, then applied)")
    .option("--trace-file <file>", "with --refinement-file: its loop trace")
    .option("--actions <list>", "only these actions, 1-based (e.g. 1,3); default all pending")
    .option("--allow-low-confidence", "accept the risk of LOW-confidence actions explicitly")
    .option("--reason <text>", "with --allow-low-confidence: why (recorded with the version)")
    .option("--actor <name>", "who approves (recorded with the version)")
    .option("--json", "print {version, applied: [...]}")
    .action(async (graph: string, opts: { proposal?: string; run?: string; refinementFile?: string; traceFile?: string; actions?: string; allowLowConfidence?: boolean; reason?: string; actor?: string; json?: boolean }) => {
      const given = [opts.run, opts.proposal, opts.refinementFile].filter(Boolean).length;
      if (given !== 1) throw new UsageError("give one of --proposal ID, --run ID or --refinement-file F");
      // Accounts exist: the CLI applies only in solo mode, and then asks for what the browser would.
      const hasAccounts = !(await isSetupNeeded());
      if (hasAccounts) {
        const rules = await getPolicyInEffect((await getGraphRecord(graph)).id);
        if (rules.mode === "team") {
          throw new AppError(
            "FORBIDDEN",
            `${graph} has ${rules.approvers} people who may approve (team mode): changes are approved in the browser under the graph's approval policy (open /review), not applied from the command line. Nothing was changed.`,
          );
        }
      }
      let proposalId: string;
      /** A proposal made only for this call: nobody has seen it, so a refused apply removes it again. */
      let madeHere = false;
      if (opts.refinementFile) {
        const file = actionsFromFiles(opts.refinementFile, opts.traceFile);
        const record = await getGraphRecord(graph);
        const reviews = await reviewForGraph({ graph, actions: file.actions, retrieved: file.retrieved, rulesWaitMs: Infinity });
        proposalId = await createProposal({ graph, baseVersion: record.currentVersion, source: "file", question: file.question ?? null, actions: file.actions, reviews });
        madeHere = true;
      } else {
        const proposal = opts.run ? await proposalForRun(opts.run) : await getProposal(opts.proposal as string);
        if (proposal.graph !== graph) throw new UsageError(`that proposal belongs to graph ${JSON.stringify(proposal.graph)}`);
        proposalId = proposal.id;
      }
      if (hasAccounts && opts.allowLowConfidence && (opts.reason ?? "").trim().length < MIN_REASON_LENGTH) {
        const chosen = parseIndexes(opts.actions);
        const low = (await getProposal(proposalId)).actions.filter((a) => a.confidence === "LOW" && a.status === "pending" && (chosen ? chosen.includes(a.index) : true));
        if (low.length > 0) {
          if (madeHere) await discardProposal(proposalId);
          throw new AppError(
            "CONFIRMATION_REQUIRED",
            `action ${low.map((l) => l.index + 1).join(", ")} is LOW confidence: in solo mode the approval carries a written reason (--reason "why"), as in the browser. Nothing was changed.`,
            { low: low.map((l) => l.index), needsReason: true },
          );
        }
      }
      const result = await applyProposal({
        proposalId,
        actionIndexes: parseIndexes(opts.actions),
        allowLowConfidence: opts.allowLowConfidence === true,
        lowConfidenceReason: opts.reason,
        actor: opts.actor ?? "cli",
        auditActor: CLI_ACTOR,
      }).catch(async (error: unknown) => {
        // Without this, every refused `apply --refinement-file` left a pending proposal in the review queue.
        if (madeHere) await discardProposal(proposalId);
        throw error;
      });
      if (opts.json) return printJson(io, { version: result.version, proposal: proposalId, applied: result.applied, diff: result.diff });
      io.out(`applied as version ${result.version} of ${graph}:`);
      for (const a of result.applied) io.out(`  ${a.index + 1}. ${formatAction(a.action)}: ${a.summary}`);
      printDiff(io, result.diff);
    });

  program
    .command("revert")
    .description("undo the change that created a version, as a new version")
    .argument("<graph>", "graph name")
    .requiredOption("--version <n>", "the version whose change to undo")
    .option("--actor <name>", "who reverts")
    .option("--json", "machine-readable output")
    .action(async (graph: string, opts: { version: string; actor?: string; json?: boolean }) => {
      const result = await revertVersion({ graph, version: positiveInt(opts.version, "--version"), actor: opts.actor ?? "cli", auditAs: CLI_ACTOR });
      if (opts.json) return printJson(io, result);
      io.out(`undid version ${result.reverted}: now version ${result.version}`);
      printDiff(io, result.diff);
    });

  program
    .command("diff")
    .description("what changed between two versions")
    .argument("<graph>", "graph name")
    .requiredOption("--from <v>", "version")
    .requiredOption("--to <w>", "version")
    .option("--json", "machine-readable output")
    .action(async (graph: string, opts: { from: string; to: string; json?: boolean }) => {
      const diff = await diffVersions({ graph, from: positiveInt(opts.from, "--from"), to: positiveInt(opts.to, "--to") });
      if (opts.json) return printJson(io, diff);
      io.out(`${graph}: version ${diff.from} → ${diff.to}`);
      printDiff(io, diff);
    });

  program
    .command("versions")
    .description("a graph's versions, newest first, with what created each")
    .argument("<graph>", "graph name")
    .option("--json", "machine-readable output")
    .action(async (graph: string, opts: { json?: boolean }) => {
      const versions = await findVersions(graph);
      if (opts.json) return printJson(io, versions);
      for (const v of versions) {
        const note = v.revertedBy ? ` (undone by v${v.revertedBy})` : "";
        io.out(`v${v.version}  ${v.kind.padEnd(6)}  ${String(v.nodes).padStart(7)} nodes ${String(v.edges).padStart(8)} edges  ${v.message}${note}`);
        for (const a of v.actions) io.out(`      ${a.index + 1}. ${a.summary}${a.skipped ? " (skipped)" : ""}`);
      }
    });

  program
    .command("proposals")
    .description("proposals of a graph, as the review queue")
    .argument("<graph>", "graph name")
    .addOption(new Option("--status <status>", "only this status").choices(["pending", "applied", "partially_applied", "rejected"]))
    .option("--json", "machine-readable output")
    .action(async (graph: string, opts: { status?: ProposalStatus; json?: boolean }) => {
      const proposals = await findProposals({ graph, status: opts.status });
      if (opts.json) return printJson(io, proposals);
      if (proposals.length === 0) return io.out("no proposals");
      for (const p of proposals) {
        io.out(`${p.id}  ${p.status.padEnd(17)} ${p.actions.length} action(s) (${p.counts.HIGH} HIGH, ${p.counts.MEDIUM} MEDIUM, ${p.counts.LOW} LOW)  ${p.question ?? ""}`);
      }
    });

  program
    .command("wiki")
    .description("write a markdown wiki of a graph version (index, communities, hub nodes), atomically")
    .argument("<graph>", "graph name")
    .requiredOption("--out <dir>", "folder to (re)write")
    .option("--version <n>", "graph version (default: current)")
    .option("--json", "machine-readable output")
    .action(async (graph: string, opts: { out: string; version?: string; json?: boolean }) => {
      const { writeGraphWiki } = await import("../lib/server/graphs/graph-wiki");
      const result = await writeGraphWiki({ graph, dir: path.resolve(opts.out), version: opts.version === undefined ? undefined : positiveInt(opts.version, "--version") });
      if (opts.json) return printJson(io, result);
      io.out(`wrote ${result.files} page(s) of ${graph} v${result.version} to ${result.dir}`);
    });
}
