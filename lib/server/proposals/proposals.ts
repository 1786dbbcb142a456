/**
 * Proposals: actions waiting for a person's decision, each with its review. Applying is the
 * only way they reach the graph, and LOW-confidence actions need an explicit acceptance of the
 * risk. Concurrent applies of one proposal: the commit transaction re-checks the actions are
 * still pending, so exactly one wins and the other gets a conflict.
 *
 * `applyProposal` is the internal commit path. In the browser and the HTTP API it is reached
 * only through `approveActions` (lib/server/approvals/approvals.ts), once the graph's approval policy is
 * satisfied; the CLI calls it directly only while no account exists (single-user local mode).
 */
import { AppError } from "../../errors";
import type { KnowledgeGraph, Triple } from "../../graph/model";
import type { RefinementAction } from "../../loop/types";
import type { PlannedAction } from "../../changes/plan-actions";
import { planActions } from "../../changes/plan-actions";
import type { ActionChange } from "../../changes/describe-change";
import { describePlannedActions } from "./version-actions";
import type { GraphDiff } from "../../changes/diff";
import { diffChangesets } from "../../changes/diff";
import type { DiffGraph } from "../../changes/diff-graph";
import { buildDiffGraph } from "../../changes/diff-graph";
import { createNameResolver } from "../../review/resolve-action";
import type { ReviewInput } from "../../review/review-actions";
import { MAX_NAMED_DOCUMENTS, documentIdsForReview, madeWithoutRules, reviewActions, textSearchesForReview } from "../../review/review-actions";
import { verifyReviews } from "./verify-reviews";
import type { ActionReview, Confidence } from "../../review/types";
import type { MinedGraphRules } from "../../review/mine-graph-rules";
import { getGraphRulesForReview, getGraphRulesStatus, whenGraphRulesReady, whenGraphRulesSettled } from "./graph-rules-cache";
import { findLabelThresholds } from "./review-calibration";
import type { Prisma } from "../db/generated/prisma/client";
import type { ActionEvaluation, ApprovalMode, ApprovalPolicy } from "../../auth/approval-policy";
import { canDecide } from "../../auth/approval-policy";
import type { Actor } from "../../auth/permissions";
import { CLI_ACTOR, accountIdOf, actorLabel, can } from "../../auth/permissions";
import { formatAction } from "../../loop/parse-output";
import { getDb } from "../db/db";
import { commitChangeset } from "./changesets";
import type { DecisionView } from "../policies";
import { decisionInclude, evaluateActionRow } from "../policies";
import { recordAudit } from "../audit";
import type { PolicyInEffect } from "../policies";
import { getPolicyInEffect } from "../policies";
import type { SqlExecutor } from "../db/sql";
import { findDocuments, findDocumentsNaming, findSqlRunGraph, getGraphRecord, loadGraph, runOnVersion } from "../graphs";
import { reviewOverSql } from "./sql-review";
import { reReviewFailure, reviewedWithoutRules, scheduleReReview } from "./re-review-after-mining";
import { plural } from "../../text/plural";

export type ProposalStatus = "pending" | "applied" | "partially_applied" | "rejected";
/** Where a proposal came from: a person (the web), an agent (an API token, MCP), the command line, or a campaign. */
export type ProposalOrigin = "person" | "agent" | "cli" | "campaign";
export const PROPOSAL_ORIGINS: readonly ProposalOrigin[] = ["person", "agent", "cli", "campaign"];

/**
 * The origin of a proposal made by `actor` (its submitter, or the one who started its run): an
 * API token is an agent (a script or a coding agent acting for its owner; the owner stays the
 * submitter for separation of duties), a signed-in person is a person, no account is the CLI.
 */
export function proposalOrigin(source: CreateProposalOptions["source"], actor: Actor | null | undefined): ProposalOrigin {
  if (source === "campaign") return "campaign";
  if (source === "agent" || actor?.kind === "token") return "agent";
  if (actor?.kind === "user") return "person";
  return "cli";
}
/** obsolete: a later version made it moot (lib/server/proposals/obsolete-actions.ts); `obsoleteIn` names it. */
export type ActionStatus = "pending" | "applied" | "rejected" | "skipped" | "reverted" | "obsolete";

export interface ProposalActionItem {
  index: number;
  action: RefinementAction;
  review: ActionReview;
  confidence: Confidence;
  status: ActionStatus;
  appliedIn: number | null;
  /** Every approval and veto, including withdrawn and dismissed ones (the page shows them). */
  decisions: DecisionView[];
  /** Where the action stands under the graph's policy now. */
  evaluation: ActionEvaluation;
  /** Why an approval was dismissed when what the action touches changed (pending actions only). */
  changedSinceApproved: string | null;
  /** Accounts that edited it under review: separation of duties treats them like its submitter. */
  editedByIds: string[];
  /** obsolete: the version that made it moot, and why ("the edge … exists since version 7"). */
  obsoleteIn: number | null;
  obsoleteReason: string | null;
}

export interface ProposalDetails {
  id: string;
  graph: string;
  runId: string | null;
  baseVersion: number;
  source: string;
  question: string | null;
  status: ProposalStatus;
  createdAt: string;
  updatedAt: string;
  counts: Record<Confidence, number>;
  actions: ProposalActionItem[];
  /** Who submitted it and who started its run: neither may approve it (separation of duties). */
  submittedById: string | null;
  submittedByName: string | null;
  origin: ProposalOrigin;
  /** An agent's proposal: the agent and model it said it was (free text, null when it did not say). */
  agentName: string | null;
  agentModel: string | null;
  startedById: string | null;
  startedByName: string | null;
  /** The rules that apply now: the graph's policy, or its solo form while fewer than two people may approve. */
  policy: ApprovalPolicy;
  /** solo: fewer than two people may approve on this graph (lib/auth/approval-policy.ts). */
  approvalMode: ApprovalMode;
  /**
   * Set while a pending action's review was made before the base version's graph rules were
   * mined: how far mining is, until the reviews are made again (re-review-after-mining.ts).
   */
  rulesMining: RulesMining | null;
}

export interface RulesMining {
  /** mining: the rules are being mined; reviewing: mined, the reviews are being made again; failed: mining failed, the reviews stay. */
  state: "mining" | "reviewing" | "failed";
  /** 0–1. */
  progress: number;
  /** failed: why mining failed; reviewing: why the last attempt to make the reviews again failed, and when the next is. */
  error?: string;
}

function rulesMiningOf(graphId: string, version: number): RulesMining {
  const status = getGraphRulesStatus({ graphId, version });
  // Nothing asked for this version in this process (a restart): the read's job is starting it.
  if (!status) return { state: "mining", progress: 0 };
  if (status.state === "failed") return { state: "failed", progress: 0, ...(status.error ? { error: status.error } : {}) };
  if (status.state !== "ready") return { state: "mining", progress: status.progress };
  // Mined, but making the reviews again failed: say why and when it is tried again.
  const failed = reReviewFailure({ graphId, version });
  if (!failed) return { state: "reviewing", progress: 1 };
  const wait = Math.max(0, Math.ceil((failed.retryAt - Date.now()) / 1000));
  return { state: "reviewing", progress: 1, error: `reviewing them again failed ${failed.failures === 1 ? "once" : `${failed.failures} times in a row`} (${failed.error}); ${wait > 0 ? `trying again in ${wait} s` : "trying again now"}` };
}

/** Review actions against a version of a graph, with the corpus text behind their endpoints. */
export async function reviewForGraph(options: {
  graph: string;
  version?: number;
  /** Actions, and entries that did not parse (reviewed LOW / UNPARSEABLE). */
  actions: readonly ReviewInput[];
  retrieved?: Triple[];
  /**
   * How long to wait for this version's graph rules when they are not mined yet (default 2 s,
   * for requests). Batch callers (the CLI, a run's final review) pass more.
   */
  rulesWaitMs?: number;
  /**
   * Review against this graph instead of loading the version (a neighbourhood fetched through
   * SQL for graphs over REFINERY_SQL_RETRIEVAL_EDGES, sql-review.ts): no mined rules.
   */
  neighbourhood?: { graphId: string; version: number; graph: KnowledgeGraph };
}): Promise<ActionReview[]> {
  if (!options.neighbourhood) {
    // Over REFINERY_SQL_RETRIEVAL_EDGES on PostgreSQL: the review of a neighbourhood fetched with
    // SQL (sql-review.ts, which comes back here with it), never the whole version.
    const sql = await findSqlRunGraph(options.graph, options.version);
    if (sql) return reviewOverSql(sql, options, reviewForGraph);
  }
  const loaded = options.neighbourhood ?? (await loadGraph(options.graph, options.version));
  // One resolver for both passes: a name that resolves to nothing costs a fuzzy scan.
  const resolve = createNameResolver({ graph: loaded.graph });
  const ids = documentIdsForReview({ graph: loaded.graph, actions: options.actions, resolve });
  // An insert with an endpoint the graph lacks: the passages naming both sides are read too.
  const searches = textSearchesForReview({ graph: loaded.graph, actions: options.actions, resolve });
  const [docs, named, rules, thresholds] = await Promise.all([
    findDocuments(loaded.graphId, ids),
    findDocumentsNaming(loaded.graphId, searches, MAX_NAMED_DOCUMENTS),
    // A neighbourhood has no rules, ever (sql-review.ts warns RULES_NOT_MINED): undefined, not "not mined yet".
    options.neighbourhood ? undefined : rulesForReview(loaded.graphId, loaded.version, loaded.graph, options.rulesWaitMs ?? RULES_WAIT_MS),
    findLabelThresholds(loaded.graphId),
  ]);
  const documents = new Map([...docs, ...named].map((d) => [d.docId, d]));
  const reviews = reviewActions({
    graph: loaded.graph,
    actions: options.actions,
    documents,
    retrieved: options.retrieved,
    resolve,
    rules,
    thresholds: thresholds ?? undefined,
  });
  return verifyReviews({ reviews, graph: loaded.graph, documents, thresholds: thresholds ?? undefined });
}

/**
 * The mined graph rules of this version. Mining runs in the background in slices (never
 * blocking other requests); a review waits for it at most RULES_WAIT_MS — small graphs are mined
 * by then — and otherwise goes ahead without rules, which its reasons then say. Once mining
 * ends, the pending actions reviewed without them are reviewed again (re-review-after-mining.ts:
 * started by `createProposal` and by reads).
 */
async function rulesForReview(graphId: string, version: number, graph: KnowledgeGraph, waitMs: number): Promise<MinedGraphRules | null> {
  const ready = getGraphRulesForReview({ graphId, version, graph });
  if (ready) return ready;
  const mined = whenGraphRulesReady({ graphId, version, graph }).catch(() => null);
  if (!Number.isFinite(waitMs)) return mined;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), waitMs);
  });
  try {
    return await Promise.race([mined, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const RULES_WAIT_MS = 2000;
/** A run's final review is not a request: it may wait this long for the rules. */
export const RUN_RULES_WAIT_MS = 30_000;

export interface CreateProposalOptions {
  graph: string;
  baseVersion: number;
  source: "run" | "file" | "api" | "campaign" | "agent";
  runId?: string | null;
  question?: string | null;
  actions: RefinementAction[];
  reviews: ActionReview[];
  /** Who submits it (a person or an API token's owner): they may not approve it. Audited. */
  submittedBy?: Actor | null;
  /** Who started the run it comes from (not its submitter): decides the origin when no submitter is given. */
  startedBy?: Actor | null;
  /** The agent and model an agent says it is (kept as given, trimmed; shown in the queue). */
  agent?: { name?: string | null; model?: string | null };
}

function agentField(value: string | null | undefined): string | null {
  const text = value?.trim().slice(0, 100);
  return text ? text : null;
}

/** Create a proposal; pass `tx` to make it part of a bigger transaction (a run's final write). */
export async function createProposal(options: CreateProposalOptions, tx: Prisma.TransactionClient = getDb()): Promise<string> {
  const graph = await getGraphRecord(options.graph);
  if (options.actions.length === 0) throw new AppError("INVALID_INPUT", "a proposal needs at least one action");
  const by = options.submittedBy ?? null;
  const row = await tx.proposal.create({
    data: {
      graphId: graph.id,
      runId: options.runId ?? null,
      baseVersion: options.baseVersion,
      source: options.source,
      question: options.question ?? null,
      status: "pending",
      submittedById: by ? accountIdOf(by) : null,
      submittedByName: by ? actorLabel(by) : null,
      origin: proposalOrigin(options.source, by ?? options.startedBy),
      agentName: agentField(options.agent?.name),
      agentModel: agentField(options.agent?.model),
      actions: {
        create: options.actions.map((action, index) => {
          const review = options.reviews[index];
          if (!review) throw new AppError("INTERNAL", `no review for action ${index + 1}`);
          return { index, action: JSON.stringify(action), review: JSON.stringify(review), confidence: review.confidence, status: "pending" };
        }),
      },
    },
  });
  // Reviewed while the rules were being mined: reviewed again once they are. Only when the row is
  // committed here (a caller's transaction may still roll back; reads of it start the job then).
  if (tx === getDb() && options.reviews.some(madeWithoutRules)) {
    const at = { graphId: graph.id, version: options.baseVersion };
    void whenGraphRulesSettled(at).then((mined) => {
      if (mined) void scheduleReReview({ ...at, review: reviewForGraph });
    });
  }
  if (by) {
    await recordAudit(
      by,
      {
        action: "proposal.create",
        summary: `submitted a proposal of ${plural(options.actions.length, "action")} on ${graph.name}: ${options.actions.slice(0, 3).map(formatAction).join(", ")}${options.actions.length > 3 ? ", …" : ""}`,
        graphName: graph.name,
        targetType: "proposal",
        targetId: row.id,
      },
      tx,
    );
  }
  return row.id;
}

const proposalInclude = {
  actions: { include: decisionInclude },
  graph: { select: { id: true, name: true, currentVersion: true } },
  run: { select: { startedById: true, startedByName: true } },
} as const satisfies Prisma.ProposalInclude;

type ProposalRow = Prisma.ProposalGetPayload<{ include: typeof proposalInclude }>;

type ActionEdit = { targetId: string | null; actorId: string | null };

/** Who edited these proposals' actions under review: one query per 500 actions (SQLite binds at most 999 values), not one per proposal. */
async function findActionEdits(rows: readonly { id: string; actions: readonly { index: number }[] }[]): Promise<ActionEdit[]> {
  const targets = rows.flatMap((r) => r.actions.map((a) => `${r.id}#${a.index}`));
  const edits: ActionEdit[] = [];
  for (let i = 0; i < targets.length; i += 500) {
    edits.push(
      ...(await getDb().auditEvent.findMany({
        where: { action: "action.edit", targetType: "action", targetId: { in: targets.slice(i, i + 500) }, actorId: { not: null } },
        select: { targetId: true, actorId: true },
      })),
    );
  }
  return edits;
}

async function toDetails(row: ProposalRow, rules?: PolicyInEffect, pageEdits?: ActionEdit[]): Promise<ProposalDetails> {
  const inEffect = rules ?? (await getPolicyInEffect(row.graphId));
  const graphPolicy = inEffect.policy;
  const sorted = [...row.actions].sort((a, b) => a.index - b.index);
  const edits = pageEdits ?? (await findActionEdits([row]));
  const editorsOf = (index: number) => [...new Set(edits.filter((e) => e.targetId === `${row.id}#${index}`).map((e) => e.actorId as string))];
  const actions: ProposalActionItem[] = [];
  for (const a of sorted) {
    const evaluated = await evaluateActionRow({
      policy: graphPolicy,
      graph: row.graph,
      baseVersion: row.baseVersion,
      row: a,
      conflicts: { startedById: row.run?.startedById ?? null, submittedById: row.submittedById, editedByIds: editorsOf(a.index) },
    });
    actions.push({
      index: a.index,
      action: JSON.parse(a.action) as RefinementAction,
      review: JSON.parse(a.review) as ActionReview,
      confidence: a.confidence as Confidence,
      status: a.status as ActionStatus,
      appliedIn: a.appliedIn,
      ...evaluated,
      editedByIds: editorsOf(a.index),
      obsoleteIn: a.obsoleteIn,
      obsoleteReason: a.obsoleteReason,
    });
  }
  // Reviewed before the rules were mined and still pending: reviewed again in the background
  // (this read shows the stored review; the next one the new). Covers a restart, and mining that
  // ended before the proposal was stored.
  const withoutRules = sorted.some((a) => a.status === "pending" && reviewedWithoutRules(a.review));
  if (withoutRules) void scheduleReReview({ graphId: row.graphId, version: row.baseVersion, review: reviewForGraph });
  const counts: Record<Confidence, number> = { HIGH: 0, MEDIUM: 0, LOW: 0 };
  for (const a of actions) counts[a.confidence]++;
  return {
    id: row.id,
    graph: row.graph.name,
    runId: row.runId,
    baseVersion: row.baseVersion,
    source: row.source,
    question: row.question,
    status: row.status as ProposalStatus,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    counts,
    actions,
    submittedById: row.submittedById,
    submittedByName: row.submittedByName,
    origin: (PROPOSAL_ORIGINS as readonly string[]).includes(row.origin) ? (row.origin as ProposalOrigin) : "person",
    agentName: row.agentName,
    agentModel: row.agentModel,
    startedById: row.run?.startedById ?? null,
    startedByName: row.run?.startedByName ?? null,
    policy: graphPolicy,
    approvalMode: inEffect.mode,
    rulesMining: withoutRules ? rulesMiningOf(row.graphId, row.baseVersion) : null,
  };
}

/** Remove a proposal nobody decided on yet (e.g. one a refused CLI apply made for itself). */
export async function discardProposal(id: string): Promise<void> {
  await getDb().proposal.deleteMany({ where: { id, actions: { every: { status: "pending" } } } });
}

export async function getProposal(id: string): Promise<ProposalDetails> {
  const row = await getDb().proposal.findUnique({ where: { id }, include: proposalInclude });
  if (!row) throw new AppError("NOT_FOUND", `no proposal ${id}`);
  return toDetails(row);
}

/**
 * Newest first (id breaks ties, so pages are stable). `after` and `take` page through them
 * (lib/server/proposals/find-proposal-page.ts): proposals strictly after that one in this order.
 */
export async function findProposals(options: { graph?: string; status?: ProposalStatus; runId?: string; origin?: ProposalOrigin; after?: { createdAt: Date; id: string }; take?: number }): Promise<ProposalDetails[]> {
  const graphId = options.graph ? (await getGraphRecord(options.graph)).id : undefined;
  const after = options.after;
  const rows = await getDb().proposal.findMany({
    where: {
      ...(graphId ? { graphId } : {}),
      ...(options.status ? { status: options.status } : {}),
      ...(options.runId ? { runId: options.runId } : {}),
      ...(options.origin ? { origin: options.origin } : {}),
      ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    ...(options.take === undefined ? {} : { take: options.take }),
    include: proposalInclude,
  });
  const policies = new Map<string, PolicyInEffect>();
  const out: ProposalDetails[] = [];
  const edits = await findActionEdits(rows);
  for (const row of rows) {
    let policy = policies.get(row.graphId);
    if (!policy) {
      policy = await getPolicyInEffect(row.graphId);
      policies.set(row.graphId, policy);
    }
    out.push(await toDetails(row, policy, edits));
  }
  return out;
}

function selectActions(proposal: ProposalDetails, indexes?: number[]): ProposalActionItem[] {
  const wanted = indexes ?? proposal.actions.filter((a) => a.status === "pending").map((a) => a.index);
  const chosen: ProposalActionItem[] = [];
  for (const i of wanted) {
    const item = proposal.actions.find((a) => a.index === i);
    if (!item) throw new AppError("INVALID_INPUT", `proposal ${proposal.id} has no action ${i + 1}`);
    if (item.status !== "pending") throw new AppError("CONFLICT", `action ${i + 1} of proposal ${proposal.id} is already ${item.status}`);
    chosen.push(item);
  }
  if (chosen.length === 0) throw new AppError("CONFLICT", `proposal ${proposal.id} has no pending actions`);
  return chosen;
}

export interface PreviewResult {
  baseVersion: number;
  /** The version the preview is planned on: the current one (what approving would change now). */
  plannedOn: number;
  actions: PlannedAction[];
  diff: GraphDiff;
  /** The diff drawn over its neighbourhood, for the visual diff. */
  graph: DiffGraph;
}

/** What applying would do, without doing it: the planned operations and the diff. */
export async function previewProposal(options: { proposalId: string; actionIndexes?: number[] }): Promise<PreviewResult> {
  const proposal = await getProposal(options.proposalId);
  const chosen = selectActions(proposal, options.actionIndexes);
  // On the current version, not the proposal's base: what approving would change now (an edge
  // another proposal added meanwhile shows as "no change", not as a second copy).
  // Over SQL, on a partial graph of what the plan, the diff and its drawing read (graphs/on-version.ts).
  const { result, version: plannedOn } = await runOnVersion(proposal.graph, undefined, (graph) => {
    const plan = planActions({ graph, actions: chosen.map((c) => c.action), edgeKeyPrefix: "preview." });
    const labelOf = (id: string) => graph.getNode(id)?.label ?? id;
    const diff = diffChangesets({ changesets: [plan.changeset], merges: plan.merges, labelOf });
    return { plan, diff, drawn: buildDiffGraph({ base: graph, diff }) };
  });
  const { plan, diff, drawn } = result;
  return {
    baseVersion: proposal.baseVersion,
    plannedOn,
    actions: await describePlannedActions(
      proposal.graph,
      plan.actions.map((a) => ({ ...a, index: chosen[a.index]?.index ?? a.index })),
    ),
    diff,
    graph: drawn,
  };
}

export interface ApplyProposalOptions {
  proposalId: string;
  /** 0-based action indexes; default every pending action. */
  actionIndexes?: number[];
  /** The explicit acceptance of LOW-confidence risk. Without it any LOW action refuses the whole apply. */
  allowLowConfidence?: boolean;
  /** Why the risk was accepted; recorded with the version. */
  lowConfidenceReason?: string;
  /** Recorded with the version: who applied it ("alice, bob" for the approvers). */
  actor?: string | null;
  /** Who is audited for the apply (the person whose approval completed the policy, or the CLI). */
  auditActor?: Actor;
  /** The approvers, named in the version's message. */
  approvedBy?: string[];
  /**
   * The actions (in `actionIndexes` order) as they were when their approvals were counted: if
   * any was edited since, nothing is applied (CONFLICT), and the commit re-checks the text too.
   */
  expectedActions?: RefinementAction[];
  /** The approvals that were counted: if one was withdrawn or dismissed since, the commit refuses (CONFLICT). */
  expectedApprovals?: number[];
}

export interface ApplyProposalResult {
  version: number;
  applied: { index: number; action: RefinementAction; summary: string; change: ActionChange; skipped: boolean }[];
  diff: GraphDiff;
}

/** The version's message, one sentence a person reads in the history: which actions, why LOW was accepted, who approved. */
function versionMessage(o: { done: number[]; question: string | null; low: number[]; lowReason?: string; approvedBy?: string[] }): string {
  const numbers = (indexes: number[]) => `${indexes.length === 1 ? "action" : "actions"} ${indexes.map((i) => i + 1).join(", ")}`;
  const question = o.question ? ` for “${o.question.length > 80 ? `${o.question.slice(0, 79)}…` : o.question}”` : "";
  const parts = [`${o.done.length === 0 ? "Applied no change" : `Applied ${numbers(o.done)}`} of the proposal${question}`];
  if (o.low.length > 0) parts.push(`LOW confidence accepted for ${numbers(o.low)}${o.lowReason ? `: ${o.lowReason.slice(0, 500)}` : ""}`);
  if (o.approvedBy && o.approvedBy.length > 0) parts.push(`approved by ${o.approvedBy.join(", ")}`);
  const text = parts.join("; ");
  return /[.!?…”]$/.test(text) ? text : `${text}.`;
}

export async function applyProposal(options: ApplyProposalOptions): Promise<ApplyProposalResult> {
  const proposal = await getProposal(options.proposalId);
  const chosen = selectActions(proposal, options.actionIndexes);
  const unparsed = chosen.find((c) => c.review.warnings.some((w) => w.code === "UNPARSEABLE"));
  if (unparsed) throw new AppError("CONFLICT", `action ${unparsed.index + 1} did not parse (${unparsed.review.text}): edit it into an action or reject it`);
  if (options.expectedActions) {
    const edited = chosen.filter((c, i) => JSON.stringify(c.action) !== JSON.stringify(options.expectedActions?.[i]));
    if (edited.length > 0 || options.expectedActions.length !== chosen.length) {
      throw new AppError("CONFLICT", `action ${edited.map((e) => e.index + 1).join(", ")} of proposal ${proposal.id} was edited after it was approved; nothing was changed`);
    }
  }
  const low = chosen.filter((c) => c.confidence === "LOW");
  if (low.length > 0 && !options.allowLowConfidence) {
    throw new AppError(
      "CONFIRMATION_REQUIRED",
      `action${low.length > 1 ? "s" : ""} ${low.map((l) => l.index + 1).join(", ")} ${low.length > 1 ? "are" : "is"} LOW confidence: applying needs an explicit acceptance of the risk (--allow-low-confidence). Nothing was changed.`,
      { low: low.map((l) => l.index) },
    );
  }
  const record = await getGraphRecord(proposal.graph);
  const edgeKeyPrefix = `v${record.currentVersion + 1}.`;
  // On the base version: whole, or over SQL a partial graph of what the plan reads (graphs/on-version.ts).
  const { result: plan } = await runOnVersion(proposal.graph, proposal.baseVersion, (graph) => planActions({ graph, actions: chosen.map((c) => c.action), edgeKeyPrefix }));
  // Numbered as the proposal numbers them (the plan numbers them among the chosen ones).
  const planned = await describePlannedActions(
    proposal.graph,
    plan.actions.map((a) => ({ ...a, index: chosen[a.index]?.index ?? a.index })),
  );
  const applied = planned.map((a) => ({ index: a.index, action: a.action, summary: a.summary, change: a.change, skipped: a.skipped }));
  const done = applied.filter((a) => !a.skipped);
  const markApplied = async (db: SqlExecutor, version: number) => {
    // The text is part of the check: an edit committed after the plan was made refuses the apply.
    const update = `UPDATE "ProposalAction" SET "status" = ?, "appliedIn" = ?, "updatedAt" = ? WHERE "proposalId" = ? AND "index" = ? AND "status" = 'pending' AND "action" = ?`;
    const now = new Date();
    for (const a of applied) {
      const planned = chosen.find((c) => c.index === a.index);
      // Exactly one concurrent apply wins: the loser finds the action no longer pending.
      const changed = await db.execute(update, [a.skipped ? "skipped" : "applied", version, now, proposal.id, a.index, JSON.stringify(planned?.action)]);
      if (changed !== 1) throw new AppError("CONFLICT", `action ${a.index + 1} of proposal ${proposal.id} was decided or edited by someone else meanwhile; nothing was changed`);
    }
    // After the updates above (they lock the action rows): a withdrawal or dismissal committed
    // before them is seen here, one after them waits for this commit and finds the action applied.
    const expected = options.expectedApprovals ?? [];
    if (expected.length > 0) {
      const live = await db.get<{ n: number }>(
        `SELECT COUNT(*) AS "n" FROM "Approval" WHERE "id" IN (${expected.map(() => "?").join(", ")}) AND "withdrawnAt" IS NULL AND "dismissedAt" IS NULL`,
        expected,
      );
      if (Number(live?.n) !== expected.length) throw new AppError("CONFLICT", `an approval of proposal ${proposal.id} was withdrawn or dismissed meanwhile; nothing was changed`);
    }
    const remaining = await db.get<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "ProposalAction" WHERE "proposalId" = ? AND "status" = 'pending'`, [proposal.id]);
    await db.execute(`UPDATE "Proposal" SET "status" = ?, "updatedAt" = ? WHERE "id" = ?`, [remaining?.n === 0 ? "applied" : "partially_applied", now, proposal.id]);
  };
  const result = await commitChangeset({
    graph: proposal.graph,
    baseVersion: proposal.baseVersion,
    changeset: plan.changeset,
    merges: plan.merges,
    actions: planned,
    kind: "apply",
    message: versionMessage({
      done: applied.filter((a) => !a.skipped).map((a) => a.index),
      question: proposal.question,
      low: low.map((l) => l.index),
      lowReason: options.lowConfidenceReason,
      approvedBy: options.approvedBy,
    }),
    proposalId: proposal.id,
    actor: options.actor,
    inTransaction: markApplied,
    edgeKeyPrefix,
    // In the commit's own transaction: the version and its event exist together or not at all.
    audit: (version) => ({
      actor: options.auditActor ?? CLI_ACTOR,
      input: {
        action: "changeset.apply",
        summary: `applied version ${version} of ${proposal.graph}: ${done.map((a) => formatAction(a.action)).join(", ") || "no change"}${options.approvedBy && options.approvedBy.length > 0 ? ` (approved by ${options.approvedBy.join(", ")})` : ""}`,
        graphName: proposal.graph,
        targetType: "version",
        targetId: version,
        details: { proposalId: proposal.id, actions: applied.map((a) => a.index), approvedBy: options.approvedBy ?? [], lowConfidenceReason: options.lowConfidenceReason ?? null },
      },
    }),
  });
  return { version: result.version, applied, diff: result.diff };
}

/**
 * Replace a pending action (a reviewer's edit) and review it again at once. Approvals given to
 * the old text no longer count: they are dismissed in the same transaction.
 */
export async function editAction(options: { proposalId: string; index: number; action: RefinementAction; actor: Actor }): Promise<ProposalActionItem> {
  if (options.actor.kind === "token" || !can(options.actor, "decide")) throw new AppError("FORBIDDEN", "editing an action under review needs a reviewer or admin signed in");
  const proposal = await getProposal(options.proposalId);
  // Editing rewrites what would be approved: only those who may decide on this graph may do it.
  const role = canDecide(options.actor, proposal.policy);
  if (!role.allowed) throw new AppError("FORBIDDEN", role.reason, { refusal: role.code });
  const item = selectActions(proposal, [options.index])[0] as ProposalActionItem;
  const [review] = await reviewForGraph({ graph: proposal.graph, version: proposal.baseVersion, actions: [options.action] });
  if (!review) throw new AppError("INTERNAL", "the review returned nothing");
  const reviewed = { ...review, index: item.index };
  const before = formatAction(item.action);
  const after = formatAction(options.action);
  await getDb().$transaction(async (tx) => {
    const { count } = await tx.proposalAction.updateMany({
      where: { proposalId: proposal.id, index: item.index, status: "pending" },
      data: { action: JSON.stringify(options.action), review: JSON.stringify(reviewed), confidence: reviewed.confidence },
    });
    if (count !== 1) throw new AppError("CONFLICT", `action ${item.index + 1} was decided by someone else meanwhile`);
    const dismissed = await tx.approval.updateMany({
      where: { proposalId: proposal.id, action: { index: item.index }, kind: "approve", withdrawnAt: null, dismissedAt: null },
      data: { dismissedAt: new Date(), dismissedReason: `the action was edited by ${actorLabel(options.actor)}` },
    });
    await recordAudit(
      options.actor,
      {
        action: "action.edit",
        summary: `edited action ${item.index + 1} of a proposal on ${proposal.graph}: ${before} → ${after} (now ${reviewed.confidence}${dismissed.count > 0 ? `; ${plural(dismissed.count, "approval")} dismissed` : ""})`,
        graphName: proposal.graph,
        targetType: "action",
        targetId: `${proposal.id}#${item.index}`,
        details: { before: item.action, after: options.action, confidence: reviewed.confidence, dismissedApprovals: dismissed.count },
      },
      tx,
    );
  });
  const updated = (await getProposal(proposal.id)).actions.find((a) => a.index === item.index);
  if (!updated) throw new AppError("INTERNAL", "the edited action disappeared");
  return updated;
}
