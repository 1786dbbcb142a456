/**
 * Refinement campaigns on the server (issue #15): the campaign row first, then every iteration
 * (with its worklog entry) as it finishes — append-only — and at the halt the best accepted
 * iteration's actions as ONE proposal, with the final status, in one transaction. A campaign
 * runs in the calling process (server or CLI) on its own sandbox (lib/campaign SandboxGraph over
 * the base version): the live graph changes only when people approve the proposal. After a
 * restart, campaigns whose process is gone are marked interrupted with their iterations intact.
 * Over REFINERY_SQL_RETRIEVAL_EDGES on PostgreSQL the base version is never loaded: sandboxes are
 * read over partial graphs fetched with SQL (sql-campaign.ts).
 */
import type { Actor } from "../../auth/permissions";
import { accountIdOf, actorLabel } from "../../auth/permissions";
import { createCampaignRunner } from "../../campaign/create-campaign-runner";
import { runCampaign } from "../../campaign/run-campaign";
import type { CampaignIteration, CampaignQuestion, CampaignResult, CampaignThresholds, WorklogEntry } from "../../campaign/types";
import { DEFAULT_ITERATION_CAP, DEFAULT_THRESHOLDS } from "../../campaign/types";
import { AppError } from "../../errors";
import type { CorpusDocument } from "../../import/corpus";
import { formatAction } from "../../loop/parse-output";
import type { LlmProvider, RefinementAction } from "../../loop/types";
import { DEFAULT_LOOP_CONFIG } from "../../loop/types";
import { submitCampaignProposal } from "./campaign-proposal";
import { getDb } from "../db/db";
import type { SqlRunGraph } from "../graphs";
import { findSqlRunGraph, getGraphRecord, loadGraph } from "../graphs";
import { createSqlCampaignRunner, createSqlSandboxes } from "./sql-campaign";
import { whenGraphRulesReady } from "../proposals";
import type { ProviderName } from "../providers";
import { getProvider } from "../providers";
import { findQuestions } from "../runs";
import { findLabelThresholds } from "../proposals";
import { HEARTBEAT_MS, PROCESS_OWNER, isAbandoned } from "../runs";

export { PROCESS_OWNER };

export type CampaignStatus = "running" | "finished" | "stopped" | "failed" | "interrupted";

export interface CampaignConfig {
  iterationCap: number;
  thresholds: CampaignThresholds;
  maxActionsPerIteration: number;
}

export interface CampaignSummary {
  id: string;
  graph: string;
  baseVersion: number;
  provider: string;
  model: string;
  isLlm: boolean;
  status: CampaignStatus;
  haltedBecause: string | null;
  bestIter: number | null;
  error: string | null;
  proposalId: string | null;
  questions: number;
  iterations: number;
  /** Overall score of the latest iteration. */
  overall: number | null;
  createdAt: string;
  finishedAt: string | null;
}

export interface CampaignDetails extends CampaignSummary {
  config: CampaignConfig;
  questionList: CampaignQuestion[];
  iterationList: CampaignIteration[];
  worklog: WorklogEntry[];
}

const INTERRUPTED_ERROR = "the process running it stopped before it finished (restart or crash); its iterations are kept";

// Campaigns this process runs, with their stop switches. On globalThis: Next.js may load this module twice.
const globalForCampaigns = globalThis as unknown as { refineryLiveCampaigns?: Map<string, AbortController> };
const live = (globalForCampaigns.refineryLiveCampaigns ??= new Map<string, AbortController>());

export interface StartCampaignOptions {
  graph: string;
  questions: CampaignQuestion[];
  provider?: ProviderName | LlmProvider;
  iterationCap?: number;
  thresholds?: Partial<CampaignThresholds>;
  maxActionsPerIteration?: number;
  actor?: Actor;
  /** Called after each iteration is stored (progress for the CLI). */
  onIteration?: (iteration: CampaignIteration, entry: WorklogEntry) => void;
}

export interface StartedCampaign {
  campaignId: string;
  /** Resolves when the campaign halts (never rejects: a failure is a status). */
  done: Promise<CampaignDetails>;
}

function checkQuestions(questions: CampaignQuestion[]): void {
  if (questions.length === 0) throw new AppError("INVALID_INPUT", "a campaign needs at least one question");
  const seen = new Set<string>();
  for (const q of questions) {
    if (!q.question.trim()) throw new AppError("INVALID_INPUT", `question ${JSON.stringify(q.id)} is empty`);
    if (seen.has(q.id)) throw new AppError("INVALID_INPUT", `question id ${JSON.stringify(q.id)} appears twice`);
    seen.add(q.id);
  }
}

async function loadAllDocuments(graphId: string): Promise<CorpusDocument[]> {
  const rows = await getDb().document.findMany({ where: { graphId }, select: { docId: true, kind: true, title: true, path: true, text: true }, orderBy: { pk: "asc" } });
  return rows.map((r) => ({ ...r, kind: r.kind === "file" ? "file" : "passage" }));
}

/** Action texts people rejected or reverted on this graph: never proposed again by a campaign. */
async function findRejectedActions(graphId: string): Promise<string[]> {
  const rows = await getDb().proposalAction.findMany({ where: { proposal: { graphId }, status: { in: ["rejected", "reverted"] } }, select: { action: true } });
  const out = new Set<string>();
  for (const r of rows) {
    try {
      out.add(formatAction(JSON.parse(r.action) as RefinementAction));
    } catch {
      // A stored action that does not parse cannot be proposed again either.
    }
  }
  return [...out];
}

/** The graph's queued questions as a campaign's question set (their gold answers when they have them). */
export async function findQueueQuestions({ graph, status }: { graph: string; status: "pending" | "all" }): Promise<CampaignQuestion[]> {
  const items = await findQuestions({ graph, status });
  if (items.length === 0) throw new AppError("INVALID_INPUT", `graph ${graph} has no ${status === "pending" ? "pending " : ""}questions in its queue`);
  return items.map((q) => ({ id: q.queryId, question: q.text, ...(q.answers && q.answers.length > 0 ? { answers: q.answers } : {}) }));
}

export async function startCampaign(options: StartCampaignOptions): Promise<StartedCampaign> {
  checkQuestions(options.questions);
  const cap = options.iterationCap ?? DEFAULT_ITERATION_CAP;
  if (!Number.isInteger(cap) || cap < 1 || cap > 20) throw new AppError("INVALID_INPUT", "the iteration cap must be an integer from 1 to 20");
  const config: CampaignConfig = { iterationCap: cap, thresholds: { ...DEFAULT_THRESHOLDS, ...options.thresholds }, maxActionsPerIteration: options.maxActionsPerIteration ?? 20 };
  const db = getDb();
  const graphRow = await getGraphRecord(options.graph);
  const provider = typeof options.provider === "object" ? options.provider : await getProvider(options.provider);
  const loaded = await pickBase(options.graph);
  const row = await db.campaign.create({
    data: {
      graphId: graphRow.id,
      baseVersion: loaded.version,
      provider: provider.name,
      model: provider.model,
      isLlm: provider.isLlm,
      questions: JSON.stringify(options.questions),
      config: JSON.stringify(config),
      status: "running",
      owner: PROCESS_OWNER,
      startedById: options.actor ? accountIdOf(options.actor) : null,
      startedByName: options.actor ? actorLabel(options.actor) : null,
    },
  });
  return launch({ id: row.id, graphId: graphRow.id, loaded, provider, questions: options.questions, config, actor: options.actor ?? null, onIteration: options.onIteration });
}

/**
 * Go on with an interrupted campaign in this process: its stored iterations rebuild the state
 * (lib/campaign runCampaign `resume`) on its base version, and it continues from the next one.
 */
export async function resumeCampaign(options: { id: string; provider?: ProviderName | LlmProvider; actor?: Actor; onIteration?: StartCampaignOptions["onIteration"] }): Promise<StartedCampaign> {
  const row = await findRow(options.id);
  if (!row) throw new AppError("NOT_FOUND", `no campaign ${options.id}`);
  if (row.status !== "interrupted") throw new AppError("CONFLICT", `campaign ${options.id} is ${row.status}; only an interrupted campaign can be resumed`);
  const provider = typeof options.provider === "object" ? options.provider : await getProvider(options.provider ?? (row.provider as ProviderName));
  const loaded = await pickBase(row.graph.name, row.baseVersion);
  const claimed = await getDb().campaign.updateMany({ where: { id: row.id, status: "interrupted" }, data: { status: "running", error: null, finishedAt: null, owner: PROCESS_OWNER, heartbeatAt: new Date() } });
  if (claimed.count !== 1) throw new AppError("CONFLICT", `campaign ${options.id} was resumed by someone else`);
  return launch({
    id: row.id,
    graphId: row.graphId,
    loaded,
    provider,
    questions: JSON.parse(row.questions) as CampaignQuestion[],
    config: JSON.parse(row.config) as CampaignConfig,
    actor: options.actor ?? null,
    onIteration: options.onIteration,
    resume: row.iterations.map((i) => JSON.parse(i.data) as CampaignIteration),
  });
}

/** The base version: loaded whole, or (over REFINERY_SQL_RETRIEVAL_EDGES on PostgreSQL) read through SQL. */
type CampaignBaseVersion = { name: string; version: number } & ({ graph: Awaited<ReturnType<typeof loadGraph>>["graph"]; sql: null } | { graph: null; sql: SqlRunGraph });

async function pickBase(name: string, version?: number): Promise<CampaignBaseVersion> {
  const sql = await findSqlRunGraph(name, version);
  if (sql) return { name: sql.name, version: sql.source.version, graph: null, sql };
  const loaded = await loadGraph(name, version);
  return { name: loaded.name, version: loaded.version, graph: loaded.graph, sql: null };
}

interface LaunchOptions {
  id: string;
  graphId: string;
  loaded: CampaignBaseVersion;
  provider: LlmProvider;
  questions: CampaignQuestion[];
  config: CampaignConfig;
  actor: Actor | null;
  onIteration?: StartCampaignOptions["onIteration"];
  resume?: CampaignIteration[];
}

/** Run a campaign in the background of this process: heartbeat, stop switch, iterations stored as they finish. */
function launch({ id, graphId, loaded, provider, questions, config, actor, onIteration, resume }: LaunchOptions): StartedCampaign {
  const db = getDb();
  const controller = new AbortController();
  live.set(id, controller);
  const heartbeat = setInterval(() => {
    void db.campaign.update({ where: { id }, data: { heartbeatAt: new Date() } }).catch(() => undefined);
  }, HEARTBEAT_MS);
  heartbeat.unref?.();

  const done = (async (): Promise<CampaignDetails> => {
    let result: CampaignResult | null = null;
    let failure: string | null = null;
    try {
      const [documents, labelThresholds, rejectedByPeople] = await Promise.all([loadAllDocuments(graphId), findLabelThresholds(graphId), findRejectedActions(graphId)]);
      const thresholds = labelThresholds ? { labelThresholds } : {};
      const settings = {
        questions,
        iterationCap: config.iterationCap,
        thresholds: config.thresholds,
        maxActionsPerIteration: config.maxActionsPerIteration,
        rejectedByPeople,
        signal: controller.signal,
        ...(resume ? { resume } : {}),
        onIteration: async (iteration: CampaignIteration, entry: WorklogEntry) => {
          await db.campaignIteration.create({ data: { campaignId: id, iter: iteration.iter, decision: iteration.decision, overall: iteration.score.overall, data: JSON.stringify(iteration), worklog: JSON.stringify(entry) } });
          onIteration?.(iteration, entry);
        },
      };
      if (loaded.graph) {
        const graph = loaded.graph;
        // Rules are mined in the background while the baseline is scored: only reviews need them.
        const rules = whenGraphRulesReady({ graphId, version: loaded.version, graph }).catch(() => null);
        result = await runCampaign({ live: graph, runner: createCampaignRunner({ provider, documents, rules, loopConfig: DEFAULT_LOOP_CONFIG, ...thresholds }), ...settings });
      } else {
        // Nothing is mined: that needs the whole version (the review says RULES_NOT_MINED).
        const runner = createSqlCampaignRunner({ sql: loaded.sql, provider, documents, loopConfig: DEFAULT_LOOP_CONFIG, ...thresholds });
        result = await runCampaign({ sandboxes: createSqlSandboxes(loaded.sql), runner, ...settings });
      }
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    } finally {
      clearInterval(heartbeat);
    }
    try {
      await finishCampaign({ id, graph: loaded.name, baseVersion: loaded.version, result, failure, actor });
    } finally {
      live.delete(id);
    }
    return getCampaign(id);
  })();
  return { campaignId: id, done };
}

async function finishCampaign({ id, graph, baseVersion, result, failure, actor }: { id: string; graph: string; baseVersion: number; result: CampaignResult | null; failure: string | null; actor: Actor | null }): Promise<void> {
  const halted = result?.haltedBecause ?? null;
  const status: CampaignStatus = !result ? "failed" : halted === "stopped" ? "stopped" : halted === "error" ? "failed" : "finished";
  const error = failure ?? (halted === "error" ? (result?.iterations.at(-1)?.error ?? "an iteration failed") : null);
  let proposalId: string | null = null;
  let proposalError: string | null = null;
  if (result && result.bestActions.length > 0) {
    try {
      proposalId = await submitCampaignProposal({ campaignId: id, graph, baseVersion, result, actor });
    } catch (e) {
      proposalError = `the best iteration's actions could not be submitted: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
  await getDb().campaign.update({
    where: { id },
    data: { status: proposalError ? "failed" : status, haltedBecause: halted, bestIter: result?.bestIter ?? null, error: proposalError ?? error, proposalId, finishedAt: new Date() },
  });
}

/** Stop a campaign this process runs: it halts after the current question, keeping its iterations. */
export async function stopCampaign(id: string): Promise<CampaignDetails> {
  const current = await getCampaign(id);
  if (current.status !== "running") throw new AppError("CONFLICT", `campaign ${id} is not running (${current.status})`);
  const controller = live.get(id);
  if (!controller) throw new AppError("CONFLICT", `campaign ${id} runs in another process; stop it there`);
  controller.abort();
  return current;
}

export function isCampaignLiveHere(id: string): boolean {
  return live.has(id);
}

type CampaignRow = NonNullable<Awaited<ReturnType<typeof findRow>>>;

function findRow(id: string) {
  return getDb().campaign.findUnique({ where: { id }, include: { graph: { select: { name: true } }, iterations: { orderBy: { iter: "asc" } } } });
}

function summaryOf(row: Omit<CampaignRow, "iterations">, iterations: { overall: number }[]): CampaignSummary {
  return {
    id: row.id,
    graph: row.graph.name,
    baseVersion: row.baseVersion,
    provider: row.provider,
    model: row.model,
    isLlm: row.isLlm,
    status: row.status as CampaignStatus,
    haltedBecause: row.haltedBecause,
    bestIter: row.bestIter,
    error: row.error,
    proposalId: row.proposalId,
    questions: (JSON.parse(row.questions) as unknown[]).length,
    iterations: iterations.length,
    overall: iterations.at(-1)?.overall ?? null,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

export async function getCampaign(id: string): Promise<CampaignDetails> {
  const row = await findRow(id);
  if (!row) throw new AppError("NOT_FOUND", `no campaign ${id}`);
  return {
    ...summaryOf(row, row.iterations),
    config: JSON.parse(row.config) as CampaignConfig,
    questionList: JSON.parse(row.questions) as CampaignQuestion[],
    iterationList: row.iterations.map((i) => JSON.parse(i.data) as CampaignIteration),
    worklog: row.iterations.map((i) => JSON.parse(i.worklog) as WorklogEntry),
  };
}

export async function findCampaigns(options: { graph?: string; limit?: number } = {}): Promise<CampaignSummary[]> {
  const rows = await getDb().campaign.findMany({
    where: options.graph ? { graph: { name: options.graph } } : {},
    orderBy: { createdAt: "desc" },
    take: Math.min(Math.max(options.limit ?? 100, 1), 500),
    include: { graph: { select: { name: true } }, iterations: { select: { overall: true }, orderBy: { iter: "asc" } } },
  });
  return rows.map((r) => summaryOf(r, r.iterations));
}

/**
 * After a restart: campaigns left "running" by a process that is gone become "interrupted",
 * their iterations and worklog kept (the same liveness rules as runs: silent past the lease,
 * or quiet and owned by a dead pid of this host / this pid@host but not live here).
 */
export async function markInterruptedCampaigns(now = Date.now()): Promise<number> {
  const db = getDb();
  const running = await db.campaign.findMany({ where: { status: "running" }, select: { id: true, owner: true, heartbeatAt: true } });
  const dead = running.filter((r) => isAbandoned(r, now, live.has(r.id)));
  if (dead.length === 0) return 0;
  await db.campaign.updateMany({ where: { id: { in: dead.map((r) => r.id) }, status: "running" }, data: { status: "interrupted", error: INTERRUPTED_ERROR, finishedAt: new Date(now) } });
  return dead.length;
}
