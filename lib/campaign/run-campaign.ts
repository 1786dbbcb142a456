/**
 * Run a refinement campaign (issue #15): score the question set on a sandbox of the live graph
 * (iteration 0), then per iteration
 *   1. critique memory (focus_on, do_not_repropose) from the iterations so far;
 *   2. the actions the loop proposed for the failing questions (focus_on first), minus
 *      do_not_repropose, at most `maxActionsPerIteration`;
 *   3. the claim-evidence gate on their reviews: only supported / attributed ones go on;
 *   4. the devil's advocate challenges each; its guard may block the iteration;
 *   5. the survivors are planned onto the sandbox (a new overlay), the questions re-scored;
 *   6. decide (decide-iteration.ts); an accepted iteration's sandbox becomes the current one.
 * Halts at the cap, on HALT_TARGET_MET / HALT_PLATEAU, when nothing is left to try, on an error
 * (its own decision, ERROR, never a REVERT) or when stopped. Unlike the seed, a REVERT does not
 * halt: its actions join do_not_repropose, so the next iteration tries something else, and the
 * campaign halts when nothing is left.
 *
 * The loop, Ask and the review come in through `runner` (create-campaign-runner.ts), so the
 * server, the CLI and tests drive the same code. The live graph is never modified. Sandboxes are
 * made and read through `sandboxes` (campaign-sandboxes.ts): SandboxGraphs over `live` in memory,
 * or, on the server for graphs retrieved through SQL, changesets read over partial graphs.
 */
import type { Changeset } from "../changes/changeset";
import { planActions } from "../changes/plan-actions";
import { AppError, isAppError } from "../errors";
import type { KnowledgeGraph, Triple } from "../graph/model";
import type { AskTrace } from "../ask/types";
import { formatAction } from "../loop/parse-output";
import type { RefinementAction, RunTrace } from "../loop/types";
import type { ActionReview } from "../review/types";
import { updateCritiqueMemory, type CritiqueHistoryEntry } from "./critique-memory";
import { decideIteration, findBestIteration, formatTrajectory } from "./decide-iteration";
import { challengeAction, guardDevilsAdvocate } from "./devils-advocate";
import { classifyEvidence } from "./gate-claim-evidence";
import type { CampaignSandbox, CampaignSandboxes } from "./campaign-sandboxes";
import { memorySandboxes } from "./campaign-sandboxes";
import type { SandboxGraph } from "./sandbox-graph";
import { scoreCampaign } from "./score-campaign";
import type { CampaignIteration, CampaignQuestion, CampaignResult, CampaignScore, CampaignThresholds, DaFinding, GatedAction, HaltReason, WorklogEntry } from "./types";
import { DEFAULT_ITERATION_CAP, DEFAULT_THRESHOLDS } from "./types";

/** The loop, Ask and review on a sandbox: a graph in memory (a SandboxGraph), or what `sandboxes` makes. */
export interface CampaignRunner<G = KnowledgeGraph> {
  /** Loop steps at most (for the efficiency sub-score). */
  readonly maxHops: number;
  runLoop(args: { graph: G; question: CampaignQuestion; signal?: AbortSignal }): Promise<RunTrace>;
  /** Ask one gold question; absent: accuracy is not scored. */
  ask?(args: { graph: G; question: CampaignQuestion; signal?: AbortSignal }): Promise<AskTrace>;
  review(args: { graph: G; actions: RefinementAction[]; retrieved: Triple[] }): Promise<ActionReview[]>;
}

/** The base version: the live graph in memory, or sandboxes that read it elsewhere (with a runner for them). */
export type CampaignBase<S extends CampaignSandbox> = { live: KnowledgeGraph; sandboxes?: undefined; runner: CampaignRunner } | { live?: undefined; sandboxes: CampaignSandboxes<S>; runner: CampaignRunner<S> };

export type RunCampaignOptions<S extends CampaignSandbox = SandboxGraph> = CampaignBase<S> & CampaignSettings;

interface CampaignSettings {
  questions: readonly CampaignQuestion[];
  iterationCap?: number;
  thresholds?: CampaignThresholds;
  /** Action texts people rejected or reverted on this graph before. */
  rejectedByPeople?: readonly string[];
  maxActionsPerIteration?: number;
  /** Awaited after each iteration (the baseline included): the server persists it. */
  onIteration?: (iteration: CampaignIteration, entry: WorklogEntry) => void | Promise<void>;
  signal?: AbortSignal;
  now?: () => Date;
  /**
   * The iterations a campaign stored before it was interrupted (baseline first): the state is
   * rebuilt from them (sandbox, critique memory, devil's-advocate log, small-gain streak) and
   * the campaign goes on from the next iteration. They are not passed to onIteration again.
   */
  resume?: readonly CampaignIteration[];
}

const DEFAULT_MAX_ACTIONS = 20;

interface State<S> {
  sandbox: S;
  score: CampaignScore;
  traces: RunTrace[];
  actions: RefinementAction[];
}

function isFailing(r: CampaignScore["questions"][number]): boolean {
  return !r.answerable || r.correct === false;
}

function worklogEntry(it: CampaignIteration): WorklogEntry {
  const standing = new Set(it.da.guard.standing.map((f) => `${f.id}\u0000${f.round}`));
  return {
    iter: it.iter,
    at: it.finishedAt,
    decision: it.decision,
    overall: it.score.overall,
    band: it.score.band,
    sub: it.score.sub,
    actions: it.actions.map((a) => a.text),
    heldBack: it.heldBack.map((a) => `${a.text}: ${a.reason}`),
    daFindings: it.da.findings.filter((f) => !f.withdrawn).map((f) => ({ id: f.id, severity: f.severity, rebuttalScore: f.rebuttalScore, standing: standing.has(`${f.id}\u0000${f.round}`) })),
    reasons: it.reasons,
  };
}

/** How long a campaign computes before it lets the event loop run (a server answers requests, a Stop arrives). */
const YIELD_EVERY_MS = 25;

/**
 * With a synchronous provider (heuristic) a whole evaluation is one long microtask chain: in the
 * server it would hold every request, Stop included, until the campaign ends. Between questions
 * it therefore yields to the macrotask queue once it has computed for YIELD_EVERY_MS.
 */
function createYielder(): () => Promise<void> {
  let since = Date.now();
  return async () => {
    if (Date.now() - since < YIELD_EVERY_MS) return;
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    since = Date.now();
  };
}

export async function runCampaign<S extends CampaignSandbox = SandboxGraph>(options: RunCampaignOptions<S>): Promise<CampaignResult> {
  const { questions, signal } = options;
  // In memory, S is SandboxGraph and the runner takes any graph (a SandboxGraph is one).
  const sandboxes = (options.sandboxes ?? memorySandboxes(options.live)) as unknown as CampaignSandboxes<S>;
  const runner = options.runner as CampaignRunner<S>;
  const cap = options.iterationCap ?? DEFAULT_ITERATION_CAP;
  const thresholds = options.thresholds ?? DEFAULT_THRESHOLDS;
  const maxActions = options.maxActionsPerIteration ?? DEFAULT_MAX_ACTIONS;
  const now = options.now ?? (() => new Date());
  const yieldNow = createYielder();
  if (questions.length === 0) throw new AppError("INVALID_INPUT", "a campaign needs at least one question");
  if (!Number.isInteger(cap) || cap < 1) throw new AppError("INVALID_INPUT", "the iteration cap must be a positive integer");
  const ids = new Set<string>();
  for (const q of questions) {
    if (ids.has(q.id)) throw new AppError("INVALID_INPUT", `question id ${JSON.stringify(q.id)} appears twice`);
    ids.add(q.id);
  }

  const iterations: CampaignIteration[] = [];
  const worklog: WorklogEntry[] = [];
  const history: CritiqueHistoryEntry[] = [];
  const daLog: DaFinding[] = [];
  const record = async (it: CampaignIteration) => {
    iterations.push(it);
    const entry = worklogEntry(it);
    worklog.push(entry);
    if (options.onIteration) await options.onIteration(it, entry);
  };

  const evaluate = async (sandbox: S): Promise<{ score: CampaignScore; traces: RunTrace[] }> => {
    const traces: RunTrace[] = [];
    const asks = new Map<string, AskTrace>();
    for (const question of questions) {
      await yieldNow();
      if (signal?.aborted) throw new AppError("CONFLICT", "stopped");
      traces.push(await runner.runLoop({ graph: sandbox, question, signal }));
      if (runner.ask && question.answers && question.answers.length > 0) asks.set(question.id, await runner.ask({ graph: sandbox, question, signal }));
    }
    const score = await sandboxes.read(sandbox, (graph, live) => scoreCampaign({ sandbox: graph, live, changeset: sandbox.changeset, questions, traces, asks: runner.ask ? asks : undefined, maxHops: runner.maxHops }));
    return { score, traces };
  };

  const blank = (iter: number, startedAt: string, state: State<S>): Omit<CampaignIteration, "decision" | "reasons"> => ({
    iter,
    score: state.score,
    delta: 0,
    accepted: false,
    actions: [],
    heldBack: [],
    da: { findings: [], guard: { standing: [], refused: [], blocked: false } },
    memory: { focusOn: [], doNotRepropose: [] },
    changeset: { ops: [] },
    cumulativeActions: state.actions,
    consecutiveSmall: 0,
    startedAt,
    finishedAt: now().toISOString(),
  });

  const finish = (haltedBecause: HaltReason): CampaignResult => {
    const bestIter = findBestIteration(iterations);
    const best = iterations.find((it) => it.iter === bestIter);
    return { iterations, worklog, bestIter, haltedBecause, bestActions: best?.cumulativeActions ?? [], trajectory: formatTrajectory(iterations, haltedBecause) };
  };

  let current: State<S>;
  let consecutiveSmall = 0;
  let firstIter = 1;
  if (options.resume && options.resume.length > 0) {
    // Resume: rebuild the state from the stored iterations (never recorded again), then go on.
    const stored = [...options.resume].sort((a, b) => a.iter - b.iter);
    if (stored[0]?.decision !== "BASELINE" || stored.some((it, i) => it.iter !== i)) throw new AppError("INVALID_INPUT", "stored iterations must start with the baseline and have no gaps");
    let kept = stored[0];
    for (const it of stored) {
      iterations.push(it);
      worklog.push(worklogEntry(it));
      daLog.push(...it.da.findings);
      if (it.iter > 0 && it.accepted) {
        kept = it;
        consecutiveSmall = it.consecutiveSmall;
      }
      history.push({ iter: it.iter, failing: kept.score.questions.filter(isFailing).map((q) => q.id), tried: [...it.actions, ...it.heldBack].map((a) => a.text) });
    }
    const last = stored[stored.length - 1] as CampaignIteration;
    const halted: Partial<Record<CampaignIteration["decision"], HaltReason>> = { HALT_TARGET_MET: "target_met", HALT_PLATEAU: "plateau", NOTHING_TO_FIX: "nothing_left", ERROR: "error" };
    const reason = halted[last.decision] ?? (last.iter === 0 && kept.score.overall >= thresholds.target ? "target_met" : last.iter >= cap ? "cap" : undefined);
    if (reason) return finish(reason);
    // The kept actions are planned again on the live graph rather than replaying stored
    // operations: stored JSON may have lost the exact form of attribute numbers.
    // The loop runs again on the kept sandbox for its proposals; the decisions compare with the stored score.
    try {
      const base = await sandboxes.create({ ops: [] });
      const replanned = await sandboxes.read(base, (_, live) => planActions({ graph: live, actions: kept.cumulativeActions, edgeKeyPrefix: "campaign-resumed." }).changeset);
      const sandbox = await sandboxes.create(replanned);
      const { traces } = await evaluate(sandbox);
      current = { sandbox, score: kept.score, traces, actions: kept.cumulativeActions };
    } catch (e) {
      if (signal?.aborted) return finish("stopped");
      throw e;
    }
    firstIter = last.iter + 1;
  } else {
    // Iteration 0: the baseline.
    const started0 = now().toISOString();
    try {
      const sandbox = await sandboxes.create({ ops: [] });
      const { score, traces } = await evaluate(sandbox);
      current = { sandbox, score, traces, actions: [] };
    } catch (e) {
      if (signal?.aborted) return finish("stopped");
      throw e;
    }
    await record({ ...blank(0, started0, current), decision: "BASELINE", accepted: true, reasons: [`baseline ${current.score.overall.toFixed(1)} ${current.score.band}`] });
    history.push({ iter: 0, failing: current.score.questions.filter(isFailing).map((q) => q.id), tried: [] });
    if (current.score.overall >= thresholds.target) return finish("target_met");
  }

  for (let iter = firstIter; iter <= cap; iter++) {
    if (signal?.aborted) return finish("stopped");
    const startedAt = now().toISOString();
    const standingCritical = daLog.length ? guardDevilsAdvocate(daLog).standing.filter((f) => f.severity === "CRITICAL").map((f) => f.id) : [];
    const memory = updateCritiqueMemory({ history, rejectedByPeople: options.rejectedByPeople, standingCritical });
    try {
      // 2. Candidates from the failing questions, persistent ones first.
      const focus = new Set(memory.focusOn);
      const avoid = new Set(memory.doNotRepropose);
      const failing = questions
        .map((q, i) => ({ q, i, r: current.score.questions[i] }))
        .filter((x) => x.r && isFailing(x.r))
        .sort((a, b) => Number(focus.has(b.q.id)) - Number(focus.has(a.q.id)) || a.i - b.i);
      const candidates = new Map<string, { action: RefinementAction; questions: string[]; retrieved: Triple[] }>();
      for (const { q, i } of failing) {
        const trace = current.traces[i];
        if (!trace) continue;
        const retrieved = trace.steps[trace.steps.length - 1]?.triples ?? [];
        for (const action of trace.actions) {
          const text = formatAction(action);
          if (avoid.has(text)) continue;
          const seen = candidates.get(text);
          if (seen) seen.questions.push(q.id);
          else if (candidates.size < maxActions) candidates.set(text, { action, questions: [q.id], retrieved });
        }
      }
      if (candidates.size === 0) {
        await record({ ...blank(iter, startedAt, current), memory, decision: "NOTHING_TO_FIX", reasons: [failing.length ? `the loop proposed nothing new for the ${failing.length} failing question${failing.length === 1 ? "" : "s"}` : "no question is failing"] });
        return finish("nothing_left");
      }

      // 3. The claim-evidence gate, on reviews against the current sandbox.
      const list = [...candidates.entries()];
      const retrieved = [...new Map(list.flatMap(([, c]) => c.retrieved).map((t) => [`${t.subject_id}\u0000${t.relation}\u0000${t.object_id}`, t])).values()];
      const reviews = await runner.review({ graph: current.sandbox, actions: list.map(([, c]) => c.action), retrieved });
      const gated: GatedAction[] = [];
      const heldBack: CampaignIteration["heldBack"] = [];
      list.forEach(([text, c], k) => {
        const review = reviews[k];
        if (!review) throw new AppError("INTERNAL", `no review for action ${k + 1}`);
        const { evidence, why } = classifyEvidence(review);
        const item: GatedAction = { action: c.action, text, questions: c.questions, evidence, confidence: review.confidence, score: review.score ?? 0, why };
        if (evidence === "needs_evidence") heldBack.push({ ...item, reason: `needs evidence: ${why}` });
        else gated.push(item);
      });

      // 4. The devil's advocate: this round's challenges; earlier standing findings not raised again are withdrawn.
      const findings = gated.map((g) => challengeAction({ review: reviews[list.findIndex(([t]) => t === g.text)] as ActionReview, evidence: g.evidence, round: iter }));
      const raised = new Set(findings.map((f) => f.id));
      if (daLog.length > 0) {
        for (const f of guardDevilsAdvocate(daLog).standing) if (!raised.has(f.id)) findings.push({ ...f, round: iter, withdrawn: true, conceded: false });
      }
      daLog.push(...findings);
      const guard = guardDevilsAdvocate(daLog);

      // 5. Plan the survivors onto the sandbox; an action that no longer plans is held back.
      let surviving = gated;
      let changeset: Changeset = { ops: [] };
      for (;;) {
        try {
          const actions = surviving.map((g) => g.action);
          const plan = await sandboxes.read(current.sandbox, (graph) => planActions({ graph, actions, edgeKeyPrefix: `campaign${iter}.` }));
          changeset = plan.changeset;
          const skipped = new Set(plan.actions.filter((a) => a.skipped).map((a) => a.index));
          for (const a of plan.actions) if (a.skipped) heldBack.push({ ...(surviving[a.index] as GatedAction), reason: a.summary });
          surviving = surviving.filter((_, k) => !skipped.has(k));
          break;
        } catch (e) {
          const index = isAppError(e) && typeof e.details.action === "number" ? e.details.action : -1;
          const bad = surviving[index];
          if (!bad) throw e;
          heldBack.push({ ...bad, reason: `does not apply to the sandbox: ${(e as Error).message}` });
          surviving = surviving.filter((_, k) => k !== index);
        }
      }
      const tried = list.map(([t]) => t);
      if (surviving.length === 0 || changeset.ops.length === 0) {
        history.push({ iter, failing: current.score.questions.filter(isFailing).map((q) => q.id), tried });
        await record({ ...blank(iter, startedAt, current), memory, heldBack, da: { findings, guard }, decision: "NOTHING_TO_FIX", reasons: [`all ${list.length} proposed action${list.length === 1 ? "" : "s"} held back (${heldBack.length} without evidence or without effect)`] });
        return finish("nothing_left");
      }

      const sandbox = await sandboxes.create(changeset, current.sandbox);
      const { score, traces } = await evaluate(sandbox);
      const decided = decideIteration({ prev: current.score, curr: score, consecutiveSmall, daBlocked: guard.blocked, thresholds });
      const cumulativeActions = decided.accepted ? [...current.actions, ...surviving.map((g) => g.action)] : current.actions;
      const reasons = [decided.reason];
      if (guard.blocked) reasons.push(...guard.standing.filter((f) => f.severity === "CRITICAL" && f.round === iter).map((f) => `CRITICAL: ${f.id}: ${f.challenge}`));
      for (const r of guard.refused.filter((x) => x.round === iter)) reasons.push(`concession refused for ${r.id}: ${r.reason}`);
      const it: CampaignIteration = {
        iter,
        decision: decided.decision,
        score,
        delta: decided.delta,
        accepted: decided.accepted,
        actions: surviving,
        heldBack,
        da: { findings, guard },
        memory,
        changeset,
        cumulativeActions,
        reasons,
        consecutiveSmall: decided.consecutiveSmall,
        startedAt,
        finishedAt: now().toISOString(),
      };
      if (decided.accepted) {
        current = { sandbox, score, traces, actions: cumulativeActions };
        consecutiveSmall = decided.consecutiveSmall;
      }
      history.push({ iter, failing: current.score.questions.filter(isFailing).map((q) => q.id), tried });
      await record(it);
      if (decided.decision === "HALT_TARGET_MET") return finish("target_met");
      if (decided.decision === "HALT_PLATEAU") return finish("plateau");
    } catch (e) {
      if (signal?.aborted) return finish("stopped");
      const message = e instanceof Error ? e.message : String(e);
      await record({ ...blank(iter, startedAt, current), memory, decision: "ERROR", error: message, reasons: [`error: ${message}`] });
      return finish("error");
    }
  }
  return finish("cap");
}
