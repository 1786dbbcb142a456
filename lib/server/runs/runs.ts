/**
 * Runs of the hop loop, persisted as they happen: the run row first, each step and model call
 * as it finishes, then the abduction, proposed actions and final status together in one
 * transaction — so a crash or restart mid-run leaves the steps done so far and no
 * half-written proposal. Runs execute in the calling process (server or CLI).
 */
import type { Actor } from "../../auth/permissions";
import { SYSTEM_ACTOR, accountIdOf, actorLabel } from "../../auth/permissions";
import { AppError } from "../../errors";
import type { Triple } from "../../graph/model";
import { documentIdsOf } from "../../import/corpus";
import { runHopLoop } from "../../loop/run-hop-loop";
import type { LlmCallRecord, LlmProvider, LoopConfig, LoopEvent, RefinementAction, RunStatus, RunTrace, StepRecord } from "../../loop/types";
import { DEFAULT_LOOP_CONFIG } from "../../loop/types";
import { recordAudit } from "../audit";
import { getDb } from "../db/db";
import { findDocuments, getGraphRecord } from "../graphs";
import { pickRunGraph } from "./sql-run-graph";
import type { ProviderName } from "../providers";
import { getProvider } from "../providers";
import { createPlanRetrieval } from "./plan-retrieval";
import { RUN_RULES_WAIT_MS, createProposal, reviewForGraph } from "../proposals";
import { addQuestions, findQuestions, getQuestion } from "./questions";
import { publishRunEvent } from "./run-events";
import type { ActionReview } from "../../review/types";
import { plural } from "../../text/plural";
import { HEARTBEAT_MS, PROCESS_OWNER, STALE_AFTER_MS, isAbandoned } from "./leases";

interface ProposalContext {
  graph: string;
  version: number;
  /** Who started the run (the finish is logged in their name; null: the system). */
  actor: Actor | null;
  question: string;
}

/** This process as the owner of the runs it starts (leases.ts). */
export { PROCESS_OWNER };

// Runs this process started and has not finished. On globalThis: Next.js may load this module
// more than once per process.
const globalForRuns = globalThis as unknown as { refineryLiveRuns?: Set<string> };
const liveRuns = (globalForRuns.refineryLiveRuns ??= new Set<string>());

/** Whether this process is running `runId` (so its progress is pushed, lib/server/runs/run-events.ts). */
export function isRunLiveHere(runId: string): boolean {
  return liveRuns.has(runId);
}

export interface RunSummary {
  id: string;
  graph: string;
  queryId: string;
  question: string;
  graphVersion: number;
  provider: string;
  model: string;
  isLlm: boolean;
  status: RunStatus;
  error: string | null;
  earlyExit: boolean;
  steps: number;
  actions: number;
  /** The first step judged answerable (null: none was). */
  answeredAt: number | null;
  /** How many of its proposed actions were approved and are applied now (not reverted). */
  applied: number;
  createdAt: string;
  finishedAt: string | null;
}

export interface RunDetails extends RunSummary {
  /** The proposal this run's actions are waiting in, if it proposed any. */
  proposalId: string | null;
  config: LoopConfig;
  stepRecords: StepRecord[];
  abductionRaw: string | null;
  abduction: string | null;
  refinementRaw: string | null;
  actionList: RefinementAction[];
  actionWarnings: string[];
  calls: LlmCallRecord[];
}

export interface StartRunOptions {
  graph: string;
  /** The question text (added to the queue if new) or the id of a queued question. */
  question?: string;
  queryId?: string;
  provider?: ProviderName | LlmProvider;
  config?: Partial<LoopConfig>;
  signal?: AbortSignal;
  onEvent?: (runId: string, event: LoopEvent) => void;
  /** Who starts it: recorded on the run (separation of duties) and in the audit log. */
  actor?: Actor;
}

export interface StartedRun {
  runId: string;
  /** Resolves with the final trace when the run ends (never rejects: failures are a status). */
  done: Promise<RunDetails>;
}

const INTERRUPTED_ERROR = "the process running it stopped before it finished (restart or crash)";

export async function startRun(options: StartRunOptions): Promise<StartedRun> {
  const db = getDb();
  const graphRow = await getGraphRecord(options.graph);
  let question: { pk: number; text: string; queryId: string };
  if (options.queryId) {
    question = await getQuestion({ graph: options.graph, queryId: options.queryId });
  } else if (options.question?.trim()) {
    const added = await addQuestions({ graph: options.graph, texts: [options.question], source: "user" });
    const item = added.added[0] ?? added.existing[0];
    if (!item) throw new AppError("INTERNAL", "the question could not be queued");
    question = item;
  } else {
    throw new AppError("INVALID_INPUT", "give a question or the id of a queued question");
  }
  const provider = typeof options.provider === "object" ? options.provider : await getProvider(options.provider);
  const config: LoopConfig = { ...DEFAULT_LOOP_CONFIG, ...options.config };
  // Over REFINERY_SQL_RETRIEVAL_EDGES on PostgreSQL the graph is never loaded: the loop retrieves through SQL (sql-run-graph.ts).
  const picked = await pickRunGraph(options.graph);
  const loaded = { name: picked.name, version: picked.version };

  // One run of a question at a time: the check and the insert share a write transaction, and
  // the partial unique index Run_one_running_per_question settles a race between instances.
  const run = await db.$transaction(async (tx) => {
    const busy = await tx.run.findFirst({ where: { graphId: graphRow.id, queryId: question.queryId, status: "running" }, select: { id: true, heartbeatAt: true } });
    // A run whose process went silent (an instance died) holds the question only until its lease runs out.
    if (busy && Date.now() - busy.heartbeatAt.getTime() > STALE_AFTER_MS) {
      await tx.run.updateMany({ where: { id: busy.id, status: "running" }, data: { status: "interrupted", error: INTERRUPTED_ERROR, finishedAt: new Date() } });
    } else if (busy) throw new AppError("CONFLICT", `question ${question.queryId} is already being run (run ${busy.id})`, { runId: busy.id });
    const created = await tx.run.create({
      data: {
        graphId: graphRow.id,
        questionPk: question.pk,
        queryId: question.queryId,
        question: question.text,
        graphVersion: loaded.version,
        provider: provider.name,
        model: provider.model,
        isLlm: provider.isLlm,
        config: JSON.stringify(config),
        status: "running",
        owner: PROCESS_OWNER,
        startedById: options.actor ? accountIdOf(options.actor) : null,
        startedByName: options.actor ? actorLabel(options.actor) : null,
      },
    });
    if (options.actor) {
      await recordAudit(
        options.actor,
        { action: "run.start", summary: `started a run of ${JSON.stringify(question.text)}`, graphName: options.graph, targetType: "run", targetId: created.id, details: { queryId: question.queryId, provider: provider.name } },
        tx,
      );
    }
    return created;
  }).catch(refuseRace(question.queryId));
  liveRuns.add(run.id);

  const heartbeat = setInterval(() => {
    void db.run.update({ where: { id: run.id }, data: { heartbeatAt: new Date() } }).catch(() => undefined);
  }, HEARTBEAT_MS);
  heartbeat.unref?.();

  const loadDocuments = async (triples: Triple[]) => {
    const ids = new Set<string>();
    for (const t of triples) {
      for (const nodeId of [t.subject_id, t.object_id]) {
        const node = picked.graph().getNode(nodeId);
        if (node) for (const id of documentIdsOf(node)) ids.add(id);
      }
      for (const e of picked.graph().outEdges(t.subject_id)) {
        if (e.target === t.object_id && e.relation === t.relation) for (const id of documentIdsOf(e)) ids.add(id);
      }
    }
    return findDocuments(graphRow.id, [...ids]);
  };

  // Writes happen in event order: each awaits the previous, so steps land before the final status.
  const onEvent = async (event: LoopEvent) => {
    if (event.type === "step_finished") {
      await db.runStep.create({
        data: { runId: run.id, step: event.step.step, data: JSON.stringify(event.step), answerable: event.step.answerable },
      });
      publishRunEvent(run.id, { type: "step", step: event.step });
    } else if (event.type === "llm_call") {
      const c = event.call;
      await db.llmCall.create({
        data: {
          runId: run.id,
          task: c.task,
          step: c.step,
          attempt: c.attempt,
          raw: c.raw,
          latencyMs: Math.round(c.latencyMs),
          promptTokens: c.usage?.promptTokens ?? null,
          completionTokens: c.usage?.completionTokens ?? null,
          totalTokens: c.usage?.totalTokens ?? null,
          error: c.error ?? null,
        },
      });
    }
    options.onEvent?.(run.id, event);
  };

  const done = (async (): Promise<RunDetails> => {
    let trace: RunTrace | null = null;
    let failure: string | null = null;
    try {
      const start = await picked.start(question.text, graphRow.loopRetrieval === "graph_rft_plan");
      trace = await runHopLoop({
        ...start,
        question: question.text,
        queryId: question.queryId,
        provider,
        config,
        loadDocuments,
        onEvent,
        signal: options.signal,
        // The graph's setting (Questions tab): step 1 by keyword query or by the Ask plan.
        ...(graphRow.loopRetrieval === "graph_rft_plan"
          ? { step1: "graph_rft_plan" as const, planRetrieval: createPlanRetrieval({ graphName: loaded.name, graphVersion: loaded.version }) }
          : {}),
      });
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    } finally {
      clearInterval(heartbeat);
    }
    try {
      await finishRun(run.id, question.pk, trace, failure, { graph: loaded.name, version: loaded.version, actor: options.actor ?? null, question: question.text });
    } finally {
      liveRuns.delete(run.id);
      publishRunEvent(run.id, { type: "finished" });
    }
    return getRun(run.id);
  })();
  return { runId: run.id, done };
}

/** The unique index caught two starts racing (Prisma P2002): a CONFLICT, as the check would have said. */
function refuseRace(queryId: string) {
  return (error: unknown): never => {
    if ((error as { code?: string }).code === "P2002") {
      throw new AppError("CONFLICT", `question ${queryId} is already being run (by another request or instance)`);
    }
    throw error;
  };
}

async function finishRun(runId: string, questionPk: number, trace: RunTrace | null, failure: string | null, proposalFor: ProposalContext): Promise<void> {
  let status: RunStatus = trace ? trace.status : "failed";
  // Reviews are computed before the final transaction (they read documents); the proposal is
  // then written in that transaction, with the status: never a run without its proposal.
  let reviews: ActionReview[] | null = null;
  if (trace && status === "awaiting_review" && trace.actions.length > 0) {
    try {
      reviews = await reviewForGraph({ graph: proposalFor.graph, version: proposalFor.version, actions: trace.actions, retrieved: trace.steps.at(-1)?.triples, rulesWaitMs: RUN_RULES_WAIT_MS });
    } catch (error) {
      status = "failed";
      failure = `the proposed actions could not be reviewed: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  const completed = status === "early_exit" || status === "awaiting_review" || status === "finished";
  const steps = trace?.steps.length ?? 0;
  const outcome =
    status === "awaiting_review"
      ? `proposed ${plural(trace?.actions.length ?? 0, "action")} after ${plural(steps, "step")}; waiting for review`
      : status === "early_exit"
        ? "answerable at step 1; nothing to change"
        : status === "finished"
          ? `finished after ${plural(steps, "step")} with no change proposed`
          : `failed: ${(failure ?? trace?.error ?? "unknown error").slice(0, 300)}`;
  await getDb().$transaction(async (tx) => {
    await recordAudit(
      proposalFor.actor ?? SYSTEM_ACTOR,
      {
        action: "run.finish",
        summary: `run of ${JSON.stringify(proposalFor.question)}: ${outcome}`,
        graphName: proposalFor.graph,
        targetType: "run",
        targetId: runId,
        details: { status, steps, actions: trace?.actions.length ?? 0 },
      },
      tx,
    );
    if (trace && reviews) {
      await createProposal(
        { graph: proposalFor.graph, baseVersion: proposalFor.version, source: "run", runId, question: trace.question, actions: trace.actions, reviews, startedBy: proposalFor.actor },
        tx,
      );
    }
    await tx.run.update({
      where: { id: runId },
      data: {
        status,
        error: failure ?? trace?.error ?? null,
        earlyExit: trace?.earlyExit ?? false,
        abductionRaw: trace?.abductionRaw ?? null,
        abduction: trace?.abduction ?? null,
        refinementRaw: trace?.refinementRaw ?? null,
        actions: trace ? JSON.stringify(trace.actions) : null,
        actionWarnings: trace ? JSON.stringify(trace.actionWarnings) : null,
        finishedAt: new Date(),
      },
    });
    if (completed) await tx.question.update({ where: { pk: questionPk }, data: { refined: true } });
  });
}

/** Run every pending question of a graph, one after another; an empty queue runs `fallback`. */
export async function runPending(options: Omit<StartRunOptions, "question" | "queryId"> & { fallback?: string }): Promise<RunDetails[]> {
  const pending = await findQuestions({ graph: options.graph, status: "pending" });
  const results: RunDetails[] = [];
  if (pending.length === 0) {
    if (!options.fallback?.trim()) return results;
    const started = await startRun({ ...options, question: options.fallback });
    results.push(await started.done);
    return results;
  }
  for (const q of pending) {
    if (options.signal?.aborted) break;
    let started: StartedRun;
    try {
      started = await startRun({ ...options, queryId: q.queryId });
    } catch (error) {
      // Another instance (or request) is running this question: it is theirs to finish.
      if (error instanceof AppError && error.code === "CONFLICT") continue;
      throw error;
    }
    results.push(await started.done);
  }
  return results;
}

type RunRow = NonNullable<Awaited<ReturnType<ReturnType<typeof getDb>["run"]["findUnique"]>>>;

function summaryOf(row: RunRow, graphName: string, steps: number, outcome: { answeredAt: number | null; applied: number }): RunSummary {
  const actions = row.actions ? (JSON.parse(row.actions) as unknown[]).length : 0;
  return {
    id: row.id,
    graph: graphName,
    queryId: row.queryId,
    question: row.question,
    graphVersion: row.graphVersion,
    provider: row.provider,
    model: row.model,
    isLlm: row.isLlm,
    status: row.status as RunStatus,
    error: row.error,
    earlyExit: row.earlyExit,
    steps,
    actions,
    answeredAt: outcome.answeredAt,
    applied: outcome.applied,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

export async function getRun(runId: string): Promise<RunDetails> {
  const row = await getDb().run.findUnique({
    where: { id: runId },
    include: {
      graph: { select: { name: true } },
      steps: { orderBy: { step: "asc" } },
      calls: { orderBy: { id: "asc" } },
      proposals: { select: { id: true, actions: { where: { status: "applied" }, select: { id: true } } }, orderBy: { createdAt: "asc" } },
    },
  });
  if (!row) throw new AppError("NOT_FOUND", `no run ${runId}`);
  const outcome = { answeredAt: row.steps.find((s) => s.answerable)?.step ?? null, applied: row.proposals.reduce((n, p) => n + p.actions.length, 0) };
  return {
    ...summaryOf(row, row.graph.name, row.steps.length, outcome),
    proposalId: row.proposals[0]?.id ?? null,
    config: JSON.parse(row.config) as LoopConfig,
    stepRecords: row.steps.map((s) => JSON.parse(s.data) as StepRecord),
    abductionRaw: row.abductionRaw,
    abduction: row.abduction,
    refinementRaw: row.refinementRaw,
    actionList: row.actions ? (JSON.parse(row.actions) as RefinementAction[]) : [],
    actionWarnings: row.actionWarnings ? (JSON.parse(row.actionWarnings) as string[]) : [],
    calls: row.calls.map((c) => ({
      task: c.task as LlmCallRecord["task"],
      step: c.step,
      attempt: c.attempt,
      raw: c.raw,
      latencyMs: c.latencyMs,
      usage: c.totalTokens === null ? undefined : { promptTokens: c.promptTokens ?? 0, completionTokens: c.completionTokens ?? 0, totalTokens: c.totalTokens },
      error: c.error ?? undefined,
    })),
  };
}

export async function findRuns(options: { graph?: string; limit?: number }): Promise<RunSummary[]> {
  const graphId = options.graph ? (await getGraphRecord(options.graph)).id : undefined;
  const rows = await getDb().run.findMany({
    where: graphId ? { graphId } : {},
    orderBy: { createdAt: "desc" },
    take: options.limit ?? 100,
    include: {
      graph: { select: { name: true } },
      _count: { select: { steps: true } },
      steps: { where: { answerable: true }, select: { step: true }, orderBy: { step: "asc" }, take: 1 },
      proposals: { select: { actions: { where: { status: "applied" }, select: { id: true } } } },
    },
  });
  return rows.map((r) => summaryOf(r, r.graph.name, r._count.steps, { answeredAt: r.steps[0]?.step ?? null, applied: r.proposals.reduce((n, p) => n + p.actions.length, 0) }));
}

/**
 * After a restart: runs left "running" by a process that is gone become "interrupted". Their
 * steps stay; they never got a proposal, because actions are only written with the final
 * status. Gone means: silent (no heartbeat) for STALE_AFTER_MS, whoever owned it; or quiet for
 * a few heartbeats and either owned by this pid@host but not started by this process (a
 * previous process with the same pid, as after a container restart) or owned by a pid of this
 * host that no longer exists (the quiet period keeps another pid namespace under the same
 * hostname from fooling the pid check). Runs of live instances keep beating: never touched.
 * Called at server start and then every minute (instrumentation.ts).
 */
export async function markInterruptedRuns(now = Date.now()): Promise<number> {
  const db = getDb();
  const running = await db.run.findMany({ where: { status: "running" }, select: { id: true, owner: true, heartbeatAt: true } });
  const dead = running.filter((r) => isAbandoned(r, now, liveRuns.has(r.id)));
  if (dead.length === 0) return 0;
  await db.run.updateMany({
    where: { id: { in: dead.map((r) => r.id) }, status: "running" },
    data: { status: "interrupted", error: INTERRUPTED_ERROR, finishedAt: new Date(now) },
  });
  return dead.length;
}

/** A stored run as the loop's RunTrace (for deeprefine file export and validation). */
export function traceOfRun(run: RunDetails): RunTrace {
  return {
    question: run.question,
    queryId: run.queryId,
    provider: { name: run.provider as RunTrace["provider"]["name"], model: run.model, isLlm: run.isLlm },
    config: run.config,
    steps: run.stepRecords,
    earlyExit: run.earlyExit,
    abductionRaw: run.abductionRaw,
    abduction: run.abduction,
    refinementRaw: run.refinementRaw,
    actions: run.actionList,
    actionWarnings: run.actionWarnings,
    status: run.status,
    error: run.error,
    calls: run.calls,
  };
}

/**
 * Store a trace made elsewhere (the `deeprefine` skill's loop_trace + refinement files) as a
 * run of this graph, so it can be reviewed here. Validation happens before; this only records.
 */
export async function importTraceRun(options: {
  graph: string;
  trace: RunTrace;
}): Promise<RunDetails> {
  const db = getDb();
  const graphRow = await getGraphRecord(options.graph);
  const { trace } = options;
  const added = await addQuestions({ graph: options.graph, texts: [trace.question], source: "deeprefine" });
  const question = added.added[0] ?? added.existing[0];
  const status: RunStatus = trace.earlyExit ? "early_exit" : trace.actions.length > 0 ? "awaiting_review" : "finished";
  const reviews =
    status === "awaiting_review"
      ? await reviewForGraph({ graph: options.graph, version: graphRow.currentVersion, actions: trace.actions, retrieved: trace.steps.at(-1)?.triples, rulesWaitMs: RUN_RULES_WAIT_MS })
      : null;
  const run = await db.$transaction(async (tx) => {
    const row = await tx.run.create({
      data: {
        graphId: graphRow.id,
        questionPk: question?.pk ?? null,
        queryId: trace.queryId,
        question: trace.question,
        graphVersion: graphRow.currentVersion,
        provider: trace.provider.name,
        model: trace.provider.model,
        isLlm: trace.provider.isLlm,
        config: JSON.stringify(trace.config),
        status,
        earlyExit: trace.earlyExit,
        abductionRaw: trace.abductionRaw,
        abduction: trace.abduction,
        refinementRaw: trace.refinementRaw,
        actions: JSON.stringify(trace.actions),
        actionWarnings: JSON.stringify(trace.actionWarnings),
        finishedAt: new Date(),
        owner: PROCESS_OWNER,
      },
    });
    for (const step of trace.steps) {
      await tx.runStep.create({ data: { runId: row.id, step: step.step, data: JSON.stringify(step), answerable: step.answerable } });
    }
    if (question) await tx.question.update({ where: { pk: question.pk }, data: { refined: true } });
    if (reviews) {
      await createProposal(
        { graph: options.graph, baseVersion: graphRow.currentVersion, source: "run", runId: row.id, question: trace.question, actions: trace.actions, reviews },
        tx,
      );
    }
    return row;
  });
  return getRun(run.id);
}
