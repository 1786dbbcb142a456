/**
 * Asks of a graph (Graph-RFT planned reasoning, issue #11), stored like loop runs: the row
 * first (status running, so the page can show progress), then the whole AskTrace with the
 * final status and the audit event in one transaction. The ask executes in the calling process
 * (server or CLI); lib/ask's runAsk does the work.
 */
import { runAsk } from "../../ask/run-ask";
import type { AskAnswer, AskTrace } from "../../ask/types";
import type { Actor } from "../../auth/permissions";
import { SYSTEM_ACTOR, accountIdOf, actorLabel } from "../../auth/permissions";
import { AppError } from "../../errors";
import type { CorpusDocument } from "../../import/corpus";
import type { LlmProvider } from "../../loop/types";
import { plural } from "../../text/plural";
import { recordAudit } from "../audit";
import { getDb } from "../db/db";
import { findSqlRunGraph, getGraphRecord, loadGraph, sqlSettleGraph } from "../graphs";
import type { KnowledgeGraph } from "../../graph/model";
import type { ProviderName } from "../providers";
import { getProvider } from "../providers";

/** The trace's statuses, plus the two a stored row can have besides. */
export type AskRowStatus = "running" | AskTrace["status"] | "interrupted";

export interface AskSummary {
  id: string;
  graph: string;
  question: string;
  graphVersion: number;
  provider: string;
  model: string;
  isLlm: boolean;
  status: AskRowStatus;
  /** Best first; empty while running. */
  answers: AskAnswer[];
  error: string | null;
  totalMs: number | null;
  proposalId: string | null;
  startedByName: string | null;
  createdAt: string;
  finishedAt: string | null;
}

export interface AskDetails extends AskSummary {
  /** Null while running (and for an interrupted ask). */
  trace: AskTrace | null;
}

export interface StartAskOptions {
  graph: string;
  question: string;
  /** Default: the current version. */
  version?: number;
  provider?: ProviderName | LlmProvider;
  corpusFallback?: boolean;
  toolBudget?: number;
  /** The proposal whose question this re-checks ("ask again" after an apply). */
  proposalId?: string;
  actor?: Actor;
  signal?: AbortSignal;
}

export interface StartedAsk {
  askId: string;
  /** Resolves with the stored ask when it ends (never rejects: failures are a status). */
  done: Promise<AskDetails>;
}

export const MAX_QUESTION_CHARS = 4000;
/** No ask runs longer: the executor is aborted, and a row still running after it is shown as interrupted. */
const ASK_TIMEOUT_MS = 10 * 60_000;
const INTERRUPTED_ERROR = "the process running it stopped before it finished (restart or crash)";

// Asks this process started and has not finished (on globalThis: Next.js may load this module twice).
const globalForAsks = globalThis as unknown as { refineryLiveAsks?: Set<string>; refineryCorpus?: Map<string, { count: number; documents: CorpusDocument[] }> };
const liveAsks = (globalForAsks.refineryLiveAsks ??= new Set<string>());
// The corpus per graph, for web_search: documents are not versioned, so the count is the key.
const corpusCache = (globalForAsks.refineryCorpus ??= new Map<string, { count: number; documents: CorpusDocument[] }>());

async function loadCorpus(graphId: string): Promise<CorpusDocument[]> {
  const db = getDb();
  const count = await db.document.count({ where: { graphId } });
  const hit = corpusCache.get(graphId);
  if (hit && hit.count === count) return hit.documents;
  const rows = await db.document.findMany({ where: { graphId }, select: { docId: true, kind: true, title: true, path: true, text: true }, orderBy: { pk: "asc" } });
  const documents: CorpusDocument[] = rows.map((r) => ({ ...r, kind: r.kind === "file" ? "file" : "passage" }));
  corpusCache.set(graphId, { count, documents });
  return documents;
}

function checkQuestion(question: string): string {
  const text = question.trim();
  if (!text) throw new AppError("INVALID_INPUT", "the question is empty: type what you want to ask the graph");
  if (text.length > MAX_QUESTION_CHARS) throw new AppError("INVALID_INPUT", `the question is longer than ${MAX_QUESTION_CHARS} characters`);
  return text;
}

function outcomeOf(trace: AskTrace | null, failure: string | null): string {
  if (!trace) return `failed: ${(failure ?? "unknown error").slice(0, 300)}`;
  if (trace.status === "failed") return `failed at ${trace.error?.step ?? "an unknown step"}: ${(trace.error?.message ?? "unknown error").slice(0, 300)}`;
  if (trace.status === "no_answer") return `no answer after ${plural(trace.calls.length, "tool call")}`;
  const labels = trace.answers.slice(0, 3).map((a) => a.label);
  return `answered ${labels.join(", ")}${trace.answers.length > 3 ? ", …" : ""} after ${plural(trace.calls.length, "tool call")}`;
}

export async function startAsk(options: StartAskOptions): Promise<StartedAsk> {
  const question = checkQuestion(options.question);
  const db = getDb();
  const graphRow = await getGraphRecord(options.graph);
  // Over REFINERY_SQL_RETRIEVAL_EDGES on PostgreSQL the version is not loaded: the ask reads partial graphs fetched through SQL.
  const sql = await findSqlRunGraph(options.graph, options.version);
  const loaded = sql ? { name: sql.name, version: sql.source.version, graph: null } : await loadGraph(options.graph, options.version);
  const provider = typeof options.provider === "object" ? options.provider : await getProvider(options.provider);
  if (options.proposalId) {
    const proposal = await db.proposal.findUnique({ where: { id: options.proposalId }, select: { graphId: true } });
    if (!proposal || proposal.graphId !== graphRow.id) throw new AppError("NOT_FOUND", `no proposal ${options.proposalId} for graph ${options.graph}`);
  }
  const actor = options.actor ?? null;
  const row = await db.$transaction(async (tx) => {
    const created = await tx.ask.create({
      data: {
        graphId: graphRow.id,
        question,
        graphVersion: loaded.version,
        provider: provider.name,
        model: provider.model,
        isLlm: provider.isLlm,
        status: "running",
        proposalId: options.proposalId ?? null,
        startedById: actor ? accountIdOf(actor) : null,
        startedByName: actor ? actorLabel(actor) : null,
      },
      select: { id: true },
    });
    if (actor) {
      await recordAudit(
        actor,
        { action: "ask.start", summary: `asked ${JSON.stringify(question)} (version ${loaded.version})`, graphName: loaded.name, targetType: "ask", targetId: created.id, details: { provider: provider.name, version: loaded.version, proposalId: options.proposalId ?? undefined } },
        tx,
      );
    }
    return created;
  });
  liveAsks.add(row.id);

  const done = (async (): Promise<AskDetails> => {
    let trace: AskTrace | null = null;
    let failure: string | null = null;
    const timeout = AbortSignal.timeout(ASK_TIMEOUT_MS);
    try {
      const documents = await loadCorpus(graphRow.id);
      const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
      const ask = (graph: KnowledgeGraph, model: typeof provider | undefined = provider) =>
        runAsk({ graph, question, provider: model, documents, corpusFallback: options.corpusFallback, toolBudget: options.toolBudget, graphName: loaded.name, graphVersion: loaded.version, signal });
      if (loaded.graph) trace = await ask(loaded.graph);
      else if (sql && !provider.isLlm) trace = (await sqlSettleGraph(sql.source, question, (graph) => ask(graph))).result;
      else if (sql) {
        // A model is asked once: the graph is the one the heuristic plan of the same question settles on.
        const settled = await sqlSettleGraph(sql.source, question, (graph) => ask(graph, undefined));
        trace = await ask(settled.graph);
      }
    } catch (error) {
      failure = timeout.aborted ? `the ask took longer than ${ASK_TIMEOUT_MS / 60_000} minutes` : error instanceof Error ? error.message : String(error);
    }
    try {
      await db.$transaction(async (tx) => {
        await recordAudit(
          actor ?? SYSTEM_ACTOR,
          { action: "ask.finish", summary: `ask of ${JSON.stringify(question)}: ${outcomeOf(trace, failure)}`, graphName: loaded.name, targetType: "ask", targetId: row.id, details: { status: trace?.status ?? "failed", answers: trace?.answers.length ?? 0, calls: trace?.calls.length ?? 0 } },
          tx,
        );
        await tx.ask.update({
          where: { id: row.id },
          data: {
            status: trace?.status ?? "failed",
            answers: trace ? JSON.stringify(trace.answers) : null,
            trace: trace ? JSON.stringify(trace) : null,
            error: failure ?? (trace?.error ? `${trace.error.step}: ${trace.error.message}` : null),
            totalMs: trace ? Math.round(trace.timings.totalMs) : null,
            modelMs: trace ? Math.round(trace.timings.modelMs) : null,
            toolMs: trace ? Math.round(trace.timings.toolMs) : null,
            finishedAt: new Date(),
          },
        });
      });
    } finally {
      liveAsks.delete(row.id);
    }
    return getAsk(row.id);
  })();
  return { askId: row.id, done };
}

/** Start an ask and wait for it (the CLI, scripts, "ask again"). */
export async function askGraph(options: StartAskOptions): Promise<AskDetails> {
  return (await startAsk(options)).done;
}

const summarySelect = {
  id: true,
  question: true,
  graphVersion: true,
  provider: true,
  model: true,
  isLlm: true,
  status: true,
  answers: true,
  error: true,
  totalMs: true,
  proposalId: true,
  startedByName: true,
  createdAt: true,
  finishedAt: true,
  graph: { select: { name: true } },
} as const;

type SummaryRow = {
  id: string;
  question: string;
  graphVersion: number;
  provider: string;
  model: string;
  isLlm: boolean;
  status: string;
  answers: string | null;
  error: string | null;
  totalMs: number | null;
  proposalId: string | null;
  startedByName: string | null;
  createdAt: Date;
  finishedAt: Date | null;
  graph: { name: string };
};

function summaryOf(row: SummaryRow, now = Date.now()): AskSummary {
  // A row left running by a process that is gone: no ask of ours runs past the timeout.
  const isStale = row.status === "running" && !liveAsks.has(row.id) && now - row.createdAt.getTime() > ASK_TIMEOUT_MS + 60_000;
  return {
    id: row.id,
    graph: row.graph.name,
    question: row.question,
    graphVersion: row.graphVersion,
    provider: row.provider,
    model: row.model,
    isLlm: row.isLlm,
    status: isStale ? "interrupted" : (row.status as AskRowStatus),
    answers: row.answers ? (JSON.parse(row.answers) as AskAnswer[]) : [],
    error: isStale ? INTERRUPTED_ERROR : row.error,
    totalMs: row.totalMs,
    proposalId: row.proposalId,
    startedByName: row.startedByName,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

export async function getAsk(id: string): Promise<AskDetails> {
  const row = await getDb().ask.findUnique({ where: { id }, select: { ...summarySelect, trace: true } });
  if (!row) throw new AppError("NOT_FOUND", `no ask ${id}`);
  return { ...summaryOf(row), trace: row.trace ? (JSON.parse(row.trace) as AskTrace) : null };
}

export async function findAsks(options: { graph?: string; proposalId?: string; limit?: number }): Promise<AskSummary[]> {
  const graphId = options.graph ? (await getGraphRecord(options.graph)).id : undefined;
  const rows = await getDb().ask.findMany({
    where: { ...(graphId ? { graphId } : {}), ...(options.proposalId ? { proposalId: options.proposalId } : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: options.limit ?? 100,
    select: summarySelect,
  });
  return rows.map((r) => summaryOf(r));
}
