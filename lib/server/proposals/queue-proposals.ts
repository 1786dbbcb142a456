/**
 * The review queue's compact read (GET /api/proposals/rows): the same pages, filters, cursor and
 * summary as GET /api/proposals (find-proposal-page.ts), but each proposal reduced to what a
 * queue row draws and decides on — ids, action, label, score and its strongest signals'
 * summaries, the rule that set the label, warnings, status, where it stands under the policy,
 * origin, graph, created. Evidence, every reason, suggestions, resolved names and the decision
 * history stay on the server: the proposal page reads them (GET /api/proposals/{id}). At 5,000
 * actions the full pages were 14.7 MB of JSON, most of it evidence the queue never showed.
 *
 * `QueueProposal` is a structural subset of `ProposalDetails`: code that turns proposals into
 * queue rows (components/review/queue-rows.ts) accepts either.
 */
import type { RefinementAction } from "../../loop/types";
import type { Confidence } from "../../review/types";
import type { ProposalPage, FindProposalPageOptions } from "./find-proposal-page";
import { findProposalPage } from "./find-proposal-page";
import type { ActionStatus, ProposalDetails } from "./proposals";

/** The compact rows read allows longer pages than full proposals: a page of 500 is ~1.5 MB, not 14. */
export const MAX_QUEUE_PAGE = 500;
export const DEFAULT_QUEUE_PAGE = 200;
/** Signals a queue row shows: enough to see what moved the score most, in both directions. */
export const QUEUE_SIGNALS = 3;

export interface QueueSignalSummary {
  kind: string;
  contribution: number;
  summary: string;
}

export interface QueueActionReview {
  text: string;
  score?: number;
  /** The strongest signals by |contribution| (at most QUEUE_SIGNALS), without their evidence. */
  signals?: QueueSignalSummary[];
  /** Only the last reason (the rule that set the label); the proposal page lists every one. */
  reasons: string[];
  warnings: { code: string; message: string }[];
}

export interface QueueAction {
  index: number;
  action: RefinementAction;
  review: QueueActionReview;
  confidence: Confidence;
  status: ActionStatus;
  appliedIn: number | null;
  evaluation: { approvals: number; required: number; approverIds: string[]; vetoers: { userName: string }[] };
  changedSinceApproved: string | null;
  editedByIds: string[];
  obsoleteIn: number | null;
  obsoleteReason: string | null;
}

export type QueueProposal = Pick<
  ProposalDetails,
  "id" | "graph" | "runId" | "question" | "createdAt" | "submittedById" | "submittedByName" | "origin" | "agentName" | "agentModel" | "startedById" | "policy" | "approvalMode"
> & { actions: QueueAction[] };

export type QueueProposalPage = Omit<ProposalPage, "proposals"> & { proposals: QueueProposal[] };

function topSignals(signals: readonly QueueSignalSummary[] | undefined): QueueSignalSummary[] {
  return [...(signals ?? [])]
    .sort((a, b) => Math.abs(b.contribution) - Math.abs(a.contribution))
    .slice(0, QUEUE_SIGNALS)
    .map((s) => ({ kind: s.kind, contribution: s.contribution, summary: s.summary }));
}

/** A full proposal reduced to its queue fields (a fresh object: nothing of the input is shared). */
export function toQueueProposal(p: ProposalDetails): QueueProposal {
  return {
    id: p.id,
    graph: p.graph,
    runId: p.runId,
    question: p.question,
    createdAt: p.createdAt,
    submittedById: p.submittedById,
    submittedByName: p.submittedByName,
    origin: p.origin,
    agentName: p.agentName,
    agentModel: p.agentModel,
    startedById: p.startedById,
    policy: p.policy,
    approvalMode: p.approvalMode,
    actions: p.actions.map((a) => {
      const last = a.review.reasons.at(-1);
      return {
        index: a.index,
        action: a.action,
        review: {
          text: a.review.text,
          ...(typeof a.review.score === "number" ? { score: a.review.score } : {}),
          signals: topSignals(a.review.signals),
          reasons: last === undefined ? [] : [last],
          warnings: a.review.warnings.map((w) => ({ code: w.code, message: w.message })),
        },
        confidence: a.confidence,
        status: a.status,
        appliedIn: a.appliedIn,
        evaluation: {
          approvals: a.evaluation.approvals,
          required: a.evaluation.required,
          approverIds: a.evaluation.approverIds,
          vetoers: a.evaluation.vetoers.map((v) => ({ userName: v.userName })),
        },
        changedSinceApproved: a.changedSinceApproved,
        editedByIds: a.editedByIds,
        obsoleteIn: a.obsoleteIn,
        obsoleteReason: a.obsoleteReason,
      };
    }),
  };
}

/** One page of the queue in compact form: findProposalPage's filters, cursor and summary; pages up to MAX_QUEUE_PAGE. */
export async function findQueueProposalPage(options: FindProposalPageOptions): Promise<QueueProposalPage> {
  const page = await findProposalPage({ ...options, limit: options.limit ?? DEFAULT_QUEUE_PAGE }, MAX_QUEUE_PAGE);
  return { ...page, proposals: page.proposals.map(toQueueProposal) };
}
