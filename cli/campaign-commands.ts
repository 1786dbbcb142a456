/**
 * `refinery campaign run|list|show`: refinement campaigns from the command line. `run` iterates
 * over a question set in a sandbox of the graph (the live graph is not changed) and submits the
 * best accepted iteration as one proposal for review. Progress goes to stderr so `--json` stays
 * parseable.
 */
import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { Option } from "commander";
import { parseCampaignQuestions } from "../lib/campaign/parse-campaign-questions";
import { CLI_ACTOR } from "../lib/auth/permissions";
import { AppError } from "../lib/errors";
import type { CampaignDetails } from "../lib/server/campaigns/campaigns";
import { findCampaigns, getCampaign, resumeCampaign, startCampaign } from "../lib/server/campaigns/campaigns";
import type { ProviderName } from "../lib/server/providers";
import { getProvider } from "../lib/server/providers";
import { CommandFailed } from "./loop-commands";
import type { Io } from "./output";
import { UsageError, printJson } from "./output";

function positiveInt(value: string | undefined, flag: string, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new UsageError(`${flag} must be an integer from 1 to ${max}, got ${JSON.stringify(value)}`);
  return n;
}

/** What scripts read: one entry per iteration (the baseline is iter 0), the best, the halt and the proposal. */
export function campaignJson(c: CampaignDetails) {
  return {
    campaign_id: c.id,
    graph: c.graph,
    base_version: c.baseVersion,
    status: c.status,
    error: c.error,
    provider: { name: c.provider, model: c.model, is_llm: c.isLlm, note: c.isLlm ? null : "not an LLM (rule-based)" },
    iterations: c.iterationList.map((it) => ({
      iter: it.iter,
      decision: it.decision,
      accepted: it.accepted,
      score: { overall: it.score.overall, band: it.score.band, ...it.score.sub },
      delta: it.delta,
      actions: it.actions.map((a) => ({ action: a.text, evidence: a.evidence, confidence: a.confidence })),
      held_back: it.heldBack.map((a) => ({ action: a.text, evidence: a.evidence, reason: a.reason })),
      da_findings: it.da.findings.filter((f) => !f.withdrawn).map((f) => ({ id: f.id, severity: f.severity, rebuttal_score: f.rebuttalScore, conceded: f.conceded })),
      reasons: it.reasons,
    })),
    best_iter: c.bestIter,
    halted_because: c.haltedBecause,
    proposal_id: c.proposalId,
    worklog: c.worklog,
  };
}

function trajectoryOf(c: CampaignDetails): string {
  return c.iterationList.map((it) => `iter${it.iter} ${it.score.overall.toFixed(1)} ${it.score.band}${it.decision === "BASELINE" ? "" : ` (${it.decision.toLowerCase()})`}`).join(" → ");
}

function printCampaign(io: Io, c: CampaignDetails): void {
  io.out(`campaign ${c.id} on ${c.graph} v${c.baseVersion} (${c.provider}${c.isLlm ? "" : ", not an LLM"}): ${c.status}${c.haltedBecause ? `, halted: ${c.haltedBecause.replace(/_/g, " ")}` : ""}`);
  io.out(trajectoryOf(c));
  for (const it of c.iterationList) {
    const s = it.score.sub;
    io.out(`  iter ${it.iter}: ${it.decision}  overall ${it.score.overall.toFixed(1)} (answerability ${s.answerability}, accuracy ${s.accuracy ?? "–"}, efficiency ${s.efficiency}, hygiene ${s.hygiene}); ${it.actions.length} applied, ${it.heldBack.length} held back`);
    for (const r of it.reasons) io.out(`    ${r}`);
  }
  io.out(c.proposalId ? `best: iteration ${c.bestIter}; proposal ${c.proposalId} is waiting for review` : `best: iteration ${c.bestIter ?? 0}; nothing to propose`);
  if (c.error) io.err(`campaign error: ${c.error}`);
}

export function registerCampaignCommands(program: Command, io: Io): void {
  const campaign = program.command("campaign").description("refinement campaigns: iterate over a question set in a sandbox, accept or revert, submit the best as one proposal");
  campaign
    .command("run")
    .description("run a campaign on a graph (the live graph is not changed; the best accepted iteration becomes one proposal)")
    .argument("<graph>", "graph name")
    .requiredOption("--questions <file>", 'JSON Lines: {"id"?, "question", "answers"?: [...]} per line (like musique/questions.jsonl)')
    .option("--iterations <n>", "iteration cap (default 3)")
    .option("--max-actions <n>", "actions tried per iteration (default 20)")
    .option("--target <score>", "overall score that halts as target met (default 80)")
    .addOption(new Option("--provider <name>", "LLM provider (default: REFINERY_LLM_PROVIDER or heuristic)").choices(["heuristic", "openai", "replay"]))
    .option("--replay-file <file>", "recording for --provider replay")
    .option("--json", "machine-readable output: {iterations: [{iter, decision, score}], best_iter, halted_because, proposal_id, worklog}")
    .action(async (graph: string, opts: { questions: string; iterations?: string; maxActions?: string; target?: string; provider?: ProviderName; replayFile?: string; json?: boolean }) => {
      const iterationCap = positiveInt(opts.iterations, "--iterations", 20);
      const maxActionsPerIteration = positiveInt(opts.maxActions, "--max-actions", 200);
      let text: string;
      try {
        text = fs.readFileSync(opts.questions, "utf8");
      } catch {
        throw new AppError("NOT_FOUND", `${opts.questions}: no such file`);
      }
      const questions = parseCampaignQuestions({ name: path.basename(opts.questions), text });
      const target = opts.target === undefined ? undefined : Number(opts.target);
      if (target !== undefined && !(target > 0 && target <= 100)) throw new UsageError(`--target must be a number from 0 to 100, got ${JSON.stringify(opts.target)}`);
      const provider = await getProvider(opts.provider, { replayFile: opts.replayFile });
      if (!provider.isLlm) io.err("note: the heuristic provider is rule-based and offline, not an LLM");
      const started = await startCampaign({
        graph,
        questions,
        provider,
        iterationCap,
        maxActionsPerIteration,
        ...(target !== undefined ? { thresholds: { target } } : {}),
        actor: CLI_ACTOR,
        onIteration: (it) => io.err(`iter ${it.iter}: ${it.decision} ${it.score.overall.toFixed(1)} ${it.score.band} (${it.actions.length} applied, ${it.heldBack.length} held back)`),
      });
      const done = await started.done;
      if (opts.json) printJson(io, campaignJson(done));
      else printCampaign(io, done);
      if (done.status === "failed" || done.status === "interrupted") throw new CommandFailed();
    });
  campaign
    .command("resume")
    .description("go on with an interrupted campaign from its stored iterations (on its base version)")
    .argument("<id>", "campaign id")
    .addOption(new Option("--provider <name>", "LLM provider (default: the one it started with)").choices(["heuristic", "openai", "replay"]))
    .option("--replay-file <file>", "recording for --provider replay")
    .option("--json", "machine-readable output (as campaign run --json)")
    .action(async (id: string, opts: { provider?: ProviderName; replayFile?: string; json?: boolean }) => {
      const provider = opts.provider || opts.replayFile ? await getProvider(opts.provider, { replayFile: opts.replayFile }) : undefined;
      const started = await resumeCampaign({ id, ...(provider ? { provider } : {}), actor: CLI_ACTOR, onIteration: (it) => io.err(`iter ${it.iter}: ${it.decision} ${it.score.overall.toFixed(1)} ${it.score.band}`) });
      const done = await started.done;
      if (opts.json) printJson(io, campaignJson(done));
      else printCampaign(io, done);
      if (done.status === "failed" || done.status === "interrupted") throw new CommandFailed();
    });
  campaign
    .command("list")
    .description("list campaigns, newest first")
    .argument("[graph]", "only this graph's")
    .option("--json", "machine-readable output")
    .action(async (graph: string | undefined, opts: { json?: boolean }) => {
      const list = await findCampaigns(graph ? { graph } : {});
      if (opts.json) return printJson(io, list);
      if (list.length === 0) return io.out("no campaigns yet: refinery campaign run <graph> --questions FILE");
      for (const c of list) io.out(`${c.createdAt}  ${c.id}  ${c.graph}  ${c.status.padEnd(11)}  ${c.iterations} iteration(s)  overall ${c.overall?.toFixed(1) ?? "–"}${c.proposalId ? `  proposal ${c.proposalId}` : ""}`);
    });
  campaign
    .command("show")
    .description("a campaign's iterations, decisions, reasons and worklog")
    .argument("<id>", "campaign id")
    .option("--json", "machine-readable output (as campaign run --json)")
    .action(async (id: string, opts: { json?: boolean }) => {
      const c = await getCampaign(id);
      if (opts.json) printJson(io, campaignJson(c));
      else printCampaign(io, c);
    });
}
