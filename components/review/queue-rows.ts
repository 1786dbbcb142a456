/**
 * The review queue's data: one row per action, with its proposal's context, and the pure
 * filtering and sorting behind the filter bar. The rows keep only what the queue renders
 * (no evidence or suggestions), so 500 pending actions stay a small payload.
 *
 * Copies: the same action pending in several proposals of one graph (several runs proposed it)
 * is one row listing its sources. The row decides on one copy — the one the viewer approved
 * already, else the one the viewer may approve with the most approvals, else the newest — so
 * approvals gather on one copy; once it applies, the others become obsolete on the server.
 */
import type { ApprovalMode, ApprovalPolicy } from "@/lib/auth/approval-policy";
import type { Actor } from "@/lib/auth/permissions";
import { actionKey } from "@/lib/changes/action-key";
import type { QueueProposal, QueueSignalSummary } from "@/lib/server/proposals/queue-proposals";
import type { ActionStatus, Confidence, ProposalOrigin } from "../api/proposal-types";
import type { RefinementAction } from "../api/run-types";
import type { ApprovalTarget } from "../proposals/approval-types";
import { CONFIDENCE_RANK } from "../proposals/confidence";
import { decisionFor } from "../proposals/decision-rules";

/** One proposal a queue row's action came from. */
export interface QueueSource {
  proposalId: string;
  index: number;
  runId: string | null;
  question: string | null;
  createdAt: string;
  approvals: number;
}

export interface QueueRow {
  key: string;
  proposalId: string;
  graph: string;
  question: string | null;
  createdAt: string;
  index: number;
  action: RefinementAction;
  text: string;
  confidence: Confidence;
  /** The review's plausibility score (0–1); null for reviews made before scores existed. */
  score: number | null;
  /** The strongest signals behind the score (summaries only: the proposal page has their evidence). */
  signals: QueueSignal[];
  status: ActionStatus;
  appliedIn: number | null;
  /** The review's last reason: the rule that set the label. */
  verdict: string;
  warnings: { code: string; message: string }[];
  /** Where it stands under the graph's policy. */
  approvals: number;
  required: number;
  approverIds: string[];
  editedByIds: string[];
  vetoedBy: string[];
  /** Why an approval was dismissed ("changed since approved: …"), while it waits again. */
  changedSinceApproved: string | null;
  startedById: string | null;
  submittedById: string | null;
  /** Where its proposal came from (person, agent, command line, campaign), and who. */
  origin: ProposalOrigin;
  agentName: string | null;
  agentModel: string | null;
  submittedByName: string | null;
  /** The rules that apply now (solo or team form of the graph's policy). */
  policy: ApprovalPolicy;
  mode: ApprovalMode;
  /** obsolete: the version that made it moot, and why. */
  obsoleteIn: number | null;
  obsoleteReason: string | null;
  /** Every pending copy of this action, this row's own first; one entry when it has no copies. */
  sources: QueueSource[];
}

export interface QueueSignal {
  kind: string;
  contribution: number;
  summary: string;
}

/** Signals a queue row shows: enough to see what moved the score most, in both directions. */
const QUEUE_SIGNALS = 3;

function topSignals(signals: readonly QueueSignalSummary[] | undefined): QueueSignal[] {
  return [...(signals ?? [])]
    .sort((a, b) => Math.abs(b.contribution) - Math.abs(a.contribution))
    .slice(0, QUEUE_SIGNALS)
    .map((s) => ({ kind: s.kind, contribution: s.contribution, summary: s.summary }));
}

/**
 * One row per action, copies of a pending action merged into one row (see the module header).
 * `viewer` picks which copy a merged row decides on; without one, the most approved, newest.
 * Takes full proposals or the compact ones of GET /api/proposals/rows (the same rows from either).
 */
export function toQueueRows(proposals: readonly QueueProposal[], viewer: Actor | null = null): QueueRow[] {
  return mergeCopies(toActionRows(proposals), viewer);
}

function toActionRows(proposals: readonly QueueProposal[]): QueueRow[] {
  return proposals.flatMap((p) =>
    p.actions.map((a) => ({
      key: `${p.id}:${a.index}`,
      proposalId: p.id,
      graph: p.graph,
      question: p.question,
      createdAt: p.createdAt,
      index: a.index,
      action: a.action,
      text: a.review.text,
      confidence: a.confidence,
      score: typeof a.review.score === "number" ? a.review.score : null,
      signals: topSignals(a.review.signals),
      status: a.status,
      appliedIn: a.appliedIn,
      verdict: a.review.reasons.at(-1) ?? "",
      warnings: a.review.warnings.map((w) => ({ code: w.code, message: w.message })),
      approvals: a.evaluation.approvals,
      required: a.evaluation.required,
      approverIds: a.evaluation.approverIds,
      editedByIds: a.editedByIds,
      vetoedBy: a.evaluation.vetoers.map((v) => v.userName),
      changedSinceApproved: a.changedSinceApproved,
      startedById: p.startedById,
      submittedById: p.submittedById,
      origin: p.origin,
      agentName: p.agentName,
      agentModel: p.agentModel,
      submittedByName: p.submittedByName,
      policy: p.policy,
      mode: p.approvalMode,
      obsoleteIn: a.obsoleteIn,
      obsoleteReason: a.obsoleteReason,
      sources: [{ proposalId: p.id, index: a.index, runId: p.runId, question: p.question, createdAt: p.createdAt, approvals: a.evaluation.approvals }],
    })),
  );
}

function copyRank(row: QueueRow, viewer: Actor | null): number {
  if (!viewer) return 0;
  const me = viewer.kind === "user" ? viewer.userId : null;
  if (me !== null && row.approverIds.includes(me)) return 2;
  const decision = decisionFor(viewer, decisionSubjectOf(row), row.policy);
  return decision.canDecide && decision.refusal === null ? 1 : 0;
}

function mergeCopies(rows: QueueRow[], viewer: Actor | null): QueueRow[] {
  const groups = new Map<string, QueueRow[]>();
  const out: (QueueRow | string)[] = [];
  for (const row of rows) {
    // Unparseable entries share one placeholder action: they are never copies of each other.
    if (row.status !== "pending" || row.warnings.some((w) => w.code === "UNPARSEABLE")) {
      out.push(row);
      continue;
    }
    const key = `${row.graph}\u0000${actionKey(row.action)}`;
    const group = groups.get(key);
    if (group) group.push(row);
    else {
      groups.set(key, [row]);
      out.push(key);
    }
  }
  return out.map((entry) => {
    if (typeof entry !== "string") return entry;
    const copies = groups.get(entry) ?? [];
    if (copies.length === 1) return copies[0] as QueueRow;
    const ranked = [...copies].sort((a, b) => copyRank(b, viewer) - copyRank(a, viewer) || b.approvals - a.approvals || b.createdAt.localeCompare(a.createdAt));
    const chosen = ranked[0] as QueueRow;
    return { ...chosen, sources: ranked.flatMap((r) => r.sources) };
  });
}

export type QueueSort = "newest" | "oldest" | "low-first" | "high-first" | "graph";
export type StatusFilter = ActionStatus | "all";
export const NO_QUESTION = "__none__";

export interface QueueFilters {
  labels: Confidence[];
  status: StatusFilter;
  graph: string;
  question: string;
  type: RefinementAction["type"] | "";
  /** Only actions whose proposal came from this origin ("": any). */
  origin: ProposalOrigin | "";
  q: string;
  sort: QueueSort;
}

export const DEFAULT_FILTERS: QueueFilters = { labels: [], status: "pending", graph: "", question: "", type: "", origin: "", q: "", sort: "newest" };

function matches(row: QueueRow, f: QueueFilters, ignoreLabel: boolean): boolean {
  if (!ignoreLabel && f.labels.length > 0 && !f.labels.includes(row.confidence)) return false;
  if (f.status !== "all" && row.status !== f.status) return false;
  if (f.graph && row.graph !== f.graph) return false;
  if (f.question && (row.question ?? NO_QUESTION) !== f.question) return false;
  if (f.type && row.action.type !== f.type) return false;
  if (f.origin && row.origin !== f.origin) return false;
  if (f.q && !`${row.text} ${row.question ?? ""}`.toLowerCase().includes(f.q.toLowerCase())) return false;
  return true;
}

const byNewest = (a: QueueRow, b: QueueRow) => (a.createdAt === b.createdAt ? a.index - b.index : a.createdAt < b.createdAt ? 1 : -1);

const SORTS: Record<QueueSort, (a: QueueRow, b: QueueRow) => number> = {
  newest: byNewest,
  oldest: (a, b) => (a.createdAt === b.createdAt ? a.index - b.index : a.createdAt < b.createdAt ? -1 : 1),
  // Within a label, the score orders (unscored old reviews last within their label).
  "low-first": (a, b) => CONFIDENCE_RANK[a.confidence] - CONFIDENCE_RANK[b.confidence] || (a.score ?? 2) - (b.score ?? 2) || byNewest(a, b),
  "high-first": (a, b) => CONFIDENCE_RANK[b.confidence] - CONFIDENCE_RANK[a.confidence] || (b.score ?? -1) - (a.score ?? -1) || byNewest(a, b),
  graph: (a, b) => a.graph.localeCompare(b.graph) || byNewest(a, b),
};

/** The visible rows, and the label counts over every other filter (so the chips say what a click would show). */
export function applyQueueFilters(rows: QueueRow[], filters: QueueFilters): { visible: QueueRow[]; counts: Record<Confidence, number> } {
  const counts: Record<Confidence, number> = { HIGH: 0, MEDIUM: 0, LOW: 0 };
  const visible: QueueRow[] = [];
  for (const row of rows) {
    if (!matches(row, filters, true)) continue;
    counts[row.confidence]++;
    if (filters.labels.length === 0 || filters.labels.includes(row.confidence)) visible.push(row);
  }
  return { visible: visible.sort(SORTS[filters.sort]), counts };
}

/** Rows per origin over every filter but the origin (what choosing each origin would show). */
export function countQueueOrigins(rows: QueueRow[], filters: QueueFilters): Record<ProposalOrigin, number> {
  const counts: Record<ProposalOrigin, number> = { person: 0, agent: 0, cli: 0, campaign: 0 };
  const others = { ...filters, origin: "" as const };
  for (const row of rows) if (matches(row, others, false)) counts[row.origin]++;
  return counts;
}

export function toApprovalTarget(row: QueueRow, history?: string | null): ApprovalTarget {
  return {
    proposalId: row.proposalId,
    graph: row.graph,
    question: row.question,
    items: [{ index: row.index, action: row.action, confidence: row.confidence, reasons: [row.verdict], warnings: row.warnings, score: row.score, history: history ?? null }],
    label: row.approvals + 1 >= row.required ? "Approve and apply" : `Approve (${row.approvals + 1} of ${row.required})`,
  };
}

/** The row as the policy predicates see it. */
export function decisionSubjectOf(row: QueueRow) {
  return {
    confidence: row.confidence,
    status: row.status,
    startedById: row.startedById,
    submittedById: row.submittedById,
    approvals: row.approvals,
    required: row.required,
    vetoed: row.vetoedBy.length > 0,
    approverIds: row.approverIds,
    editedByIds: row.editedByIds,
  };
}

const SORT_VALUES: readonly QueueSort[] = ["newest", "oldest", "low-first", "high-first", "graph"];
const STATUS_VALUES: readonly StatusFilter[] = ["pending", "applied", "rejected", "skipped", "reverted", "obsolete", "all"];
const TYPE_VALUES: readonly QueueFilters["type"][] = ["", "insert_edge", "delete_edge", "replace_node"];
const LABEL_VALUES: readonly Confidence[] = ["HIGH", "MEDIUM", "LOW"];
const ORIGIN_VALUES: readonly QueueFilters["origin"][] = ["", "person", "agent", "cli", "campaign"];

function pick<T extends string>(values: readonly T[], value: string | null, fallback: T): T {
  return values.find((v) => v === value) ?? fallback;
}

/** Filters live in the URL, so a reviewer coming back from a proposal finds the queue as they left it. */
export function parseQueueFilters(params: URLSearchParams): QueueFilters {
  return {
    labels: (params.get("label") ?? "").split(",").filter((l): l is Confidence => (LABEL_VALUES as readonly string[]).includes(l)),
    status: pick(STATUS_VALUES, params.get("status"), DEFAULT_FILTERS.status),
    graph: params.get("graph") ?? "",
    question: params.get("question") ?? "",
    type: pick(TYPE_VALUES, params.get("type"), ""),
    origin: pick(ORIGIN_VALUES, params.get("origin"), ""),
    q: params.get("q") ?? "",
    sort: pick(SORT_VALUES, params.get("sort"), DEFAULT_FILTERS.sort),
  };
}

export function queueFiltersToParams(f: QueueFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (f.labels.length > 0) params.set("label", f.labels.join(","));
  if (f.status !== DEFAULT_FILTERS.status) params.set("status", f.status);
  for (const key of ["graph", "question", "type", "origin", "q"] as const) if (f[key]) params.set(key, f[key]);
  if (f.sort !== DEFAULT_FILTERS.sort) params.set("sort", f.sort);
  return params;
}

/** What a decision's answer says about one action of a proposal (the approve and reject routes' `actions`). */
export interface DecidedAction {
  index: number;
  status: string;
  approvals?: number;
  required?: number;
  appliedIn?: number | null;
}

/**
 * The queue's rows with one decision's outcome written in at once (status, approvals, the
 * version that applied it), from the decision's own answer: the full re-read of a long queue
 * (5,000 actions: several seconds) then runs in the background and brings the rest (copies
 * made obsolete, other people's decisions). Rows of other proposals are returned as they were.
 */
export function patchQueueRows(rows: QueueRow[], proposalId: string, actions: readonly DecidedAction[]): QueueRow[] {
  const byKey = new Map(actions.map((a) => [`${proposalId}:${a.index}`, a]));
  if (!rows.some((r) => byKey.has(r.key))) return rows;
  return rows.map((row) => {
    const decided = byKey.get(row.key);
    if (!decided) return row;
    const status = decided.status !== "all" && (STATUS_VALUES as readonly string[]).includes(decided.status) ? (decided.status as ActionStatus) : row.status;
    return {
      ...row,
      status,
      approvals: decided.approvals ?? row.approvals,
      required: decided.required ?? row.required,
      appliedIn: decided.appliedIn === undefined ? row.appliedIn : decided.appliedIn,
    };
  });
}
