/**
 * The JSON of the proposal endpoints, as the browser sees it: the server's own types, imported
 * as types only, plus the few response shapes no server module names.
 */
import type { GraphDiff } from "@/lib/changes/diff";
import type { DiffGraph } from "@/lib/changes/diff-graph";
import type { ActionReview, Confidence, EvidenceItem, ReviewWarning, Suggestion } from "@/lib/review/types";
import type { RefinementAction } from "./run-types";

export type { ActionReview, Confidence, DiffGraph, EvidenceItem, GraphDiff, ReviewWarning, Suggestion };

export type { ActionStatus, ProposalActionItem, ProposalDetails, ProposalOrigin, ProposalStatus } from "@/lib/server/proposals/proposals";

export interface PlannedActionSummary {
  index: number;
  action: RefinementAction;
  summary: string;
  skipped: boolean;
}

/** GET /api/proposals/{id}/preview: what applying would do, without doing it. */
export interface PreviewResult {
  baseVersion: number;
  /** The version it is planned on: the current one. */
  plannedOn: number;
  actions: PlannedActionSummary[];
  diff: GraphDiff;
  graph: DiffGraph;
}

/** The changeset an approval made (the `applied` of POST /api/proposals/{id}/approve). */
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
