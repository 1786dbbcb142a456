/**
 * `refinery ask <graph> "<question>"`: Graph-RFT planned reasoning from the command line. The
 * ask is stored like a run (the Ask tab lists it); text output shows the plan, each tool call
 * and the answer, `--json` the answers (labels, best first) and the whole trace.
 */
import type { Command } from "commander";
import { Option } from "commander";
import type { AskTrace } from "../lib/ask/types";
import { CLI_ACTOR } from "../lib/auth/permissions";
import type { AskDetails } from "../lib/server/asks/asks";
import { askGraph, findAsks } from "../lib/server/asks/asks";
import type { ProviderName } from "../lib/server/providers";
import { getProvider } from "../lib/server/providers";
import { plural } from "../lib/text/plural";
import { CommandFailed } from "./loop-commands";
import type { Io } from "./output";
import { UsageError, printJson } from "./output";

interface AskOptions {
  provider?: ProviderName;
  replayFile?: string;
  version?: string;
  corpus?: boolean;
  toolBudget?: string;
  json?: boolean;
}

function positiveInt(value: string | undefined, flag: string, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new UsageError(`${flag} must be an integer from 1 to ${max}, got ${JSON.stringify(value)}`);
  return n;
}

/** What scripts read: `answers` are labels best first; `trace` is the stored AskTrace. */
export function askJson(ask: AskDetails) {
  return {
    ask_id: ask.id,
    graph: ask.graph,
    graph_version: ask.graphVersion,
    question: ask.question,
    status: ask.status,
    error: ask.error,
    provider: { name: ask.provider, model: ask.model, is_llm: ask.isLlm, note: ask.isLlm ? null : "heuristic planner: rule-based, not an LLM" },
    answers: ask.answers.map((a) => a.label),
    answer_details: ask.answers,
    total_ms: ask.totalMs,
    trace: ask.trace,
  };
}

function planLines(trace: AskTrace): string[] {
  return trace.plan.map((s) => {
    if (s.op === "search") {
      const head = "entity" in s.head ? JSON.stringify(s.head.entity) : s.head.ref;
      return `  ${s.id} = SearchKG(t=${s.targetType} | h=${head}, r=${s.relation})`;
    }
    if (s.op === "negation") return `  ${s.id} = Negation(${[s.main, ...s.args].join(", ")})`;
    return `  ${s.id} = ${s.op === "intersect" ? "Intersect" : "Union"}(${s.args.join(", ")})`;
  });
}

function callLine(call: AskTrace["calls"][number]): string {
  const input = call.tool === "web_search" ? JSON.stringify(call.input.query ?? "") : `${call.input.head ?? "?"}, ${call.input.relation ?? "?"}`;
  const found =
    call.error ??
    (call.tool === "relation_search"
      ? `${plural(call.relations?.length ?? 0, "relation")}: ${(call.relations ?? []).slice(0, 4).map((r) => r.relation).join(", ")}`
      : call.tool === "neighbor_search"
        ? `${plural(call.entities?.length ?? 0, "entity", "entities")}: ${(call.entities ?? []).slice(0, 4).map((e) => e.label).join(", ")}${(call.entities?.length ?? 0) > 4 ? ", …" : ""}`
        : `${plural(call.passages?.length ?? 0, "passage")}${call.passages?.[0] ? `: [${call.passages[0].docId}] ${JSON.stringify(call.passages[0].quote.slice(0, 120))}` : ""}`);
  return `  ${call.n}. ${call.tool}(${input})${call.planStep ? ` for ${call.planStep}` : ""} → ${found}`;
}

function printAsk(io: Io, ask: AskDetails): void {
  const trace = ask.trace;
  io.out(`ask ${ask.id} on ${ask.graph} v${ask.graphVersion} (${ask.provider}${ask.isLlm ? "" : ", not an LLM"}): ${ask.status}`);
  if (trace && trace.plan.length > 0) io.out(["plan:", ...planLines(trace)].join("\n"));
  if (trace && trace.calls.length > 0) io.out(["tool calls:", ...trace.calls.map(callLine)].join("\n"));
  if (ask.answers.length > 0) {
    io.out(["answer:", ...ask.answers.slice(0, 10).map((a, i) => `  ${i + 1}. ${a.label}  (${a.via}${a.evidence?.passage ? `, [${a.evidence.passage.docId}]` : ""})`), ...(ask.answers.length > 10 ? [`  … ${ask.answers.length - 10} more`] : [])].join("\n"));
  } else if (ask.status === "no_answer") {
    io.out("no answer: the graph has no chain for this question" + (trace?.options.corpusFallback === false ? " (corpus search was off)" : " and the corpus no passage"));
  }
  if (ask.totalMs !== null) io.out(`${ask.totalMs} ms`);
}

export function registerAskCommands(program: Command, io: Io): void {
  program
    .command("ask")
    .description("ask a graph a question: plan sub-problems, search relations, neighbours and the corpus, answer (stored; listed on the Ask tab)")
    .argument("<graph>", "graph name")
    .argument("[question]", "the question, in quotes")
    .addOption(new Option("--provider <name>", "LLM provider (default: REFINERY_LLM_PROVIDER or heuristic)").choices(["heuristic", "openai", "replay"]))
    .option("--replay-file <file>", "recording for --provider replay")
    .option("--version <n>", "graph version to ask (default: the current one)")
    .option("--no-corpus", "never fall back to searching the graph's corpus")
    .option("--tool-budget <n>", "tool calls allowed (default 12)")
    .option("--list", "list the graph's asks instead, newest first")
    .option("--json", "machine-readable output: {answers: [labels best first], trace, …}")
    .action(async (graph: string, question: string | undefined, opts: AskOptions & { list?: boolean }) => {
      if (opts.list) {
        const asks = await findAsks({ graph });
        if (opts.json) return printJson(io, asks);
        if (asks.length === 0) return io.out(`no asks yet: refinery ask ${graph} "…"`);
        for (const a of asks) io.out(`${a.createdAt}  ${a.id}  ${a.status.padEnd(9)}  ${a.question}${a.answers[0] ? `  → ${a.answers.slice(0, 3).map((x) => x.label).join(", ")}` : ""}`);
        return;
      }
      if (!question?.trim()) throw new UsageError('give the question: refinery ask <graph> "<question>"');
      const provider = await getProvider(opts.provider, { replayFile: opts.replayFile });
      if (!provider.isLlm && !opts.json) io.err("note: the heuristic planner is rule-based and offline, not an LLM");
      const ask = await askGraph({
        graph,
        question,
        provider,
        version: positiveInt(opts.version, "--version"),
        toolBudget: positiveInt(opts.toolBudget, "--tool-budget", 50),
        corpusFallback: opts.corpus,
        actor: CLI_ACTOR,
      });
      if (opts.json) printJson(io, askJson(ask));
      else printAsk(io, ask);
      if (ask.status === "failed" || ask.status === "interrupted") {
        io.err(`ask failed: ${ask.error ?? "unknown error"}`);
        throw new CommandFailed();
      }
    });
}
