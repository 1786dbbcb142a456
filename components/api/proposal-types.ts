/**
 * The JSON of the proposal endpoints, as the browser sees it (copied from lib/server/proposals.ts
 * and lib/server/changesets.ts: components may not import lib/server). The review itself and the
 * diff are pure lib/ types, imported as types only. The proposal page assigns a server
 * ProposalDetails to this one, so the compiler notices when the two drift apart.
 */
import type { GraphDiff } from "@/lib/changes/diff";
import type { DiffGraph } from "@/lib/changes/diff-graph";
import type { ActionReview, Confidence, EvidenceItem, ReviewWarning, Suggestion } from "@/lib/review/types";
import type { RefinementAction } from "./run-types";

export type { ActionReview, Confidence, DiffGraph, EvidenceItem, GraphDiff, ReviewWarning, Suggestion };

export type ProposalStatus = "pending" | "applied" | "partially_applied" | "rejected";
export type ActionStatus = "pending" | "applied" | "rejected" | "skipped" | "reverted";

export interface ProposalActionItem {
  index: number;
  action: RefinementAction;
  review: ActionReview;
  confidence: Confidence;
  status: ActionStatus;
  appliedIn: number | null;
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
}

export interface PlannedActionSummary {
  index: number;
  action: RefinementAction;
  summary: string;
  skipped: boolean;
}

/** GET /api/proposals/{id}/preview: what applying would do, without doing it. */
export interface PreviewResult {
  baseVersion: number;
  actions: PlannedActionSummary[];
  diff: GraphDiff;
  graph: DiffGraph;
}

/** POST /api/proposals/{id}/apply. */
export interface ApplyResult {
  version: number;
  applied: PlannedActionSummary[];
  diff: GraphDiff;
}

export const CONFIDENCES: readonly Confidence[] = ["HIGH", "MEDIUM", "LOW"];

/** POST /api/graphs/{name}/versions/{version}/revert. */
export interface RevertResult {
  version: number;
  changesetId: number;
  diff: GraphDiff;
  reverted: number;
}
