import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ApproveActionsResult } from "@/lib/server/approvals/approvals";
import { fetchJson } from "./fetch-json";
import type { RefinementAction } from "./run-types";
import { invalidateAfterDecision } from "./invalidate-proposals";
import { graphKeys } from "./graph-keys";

export type { ApproveActionsResult };

export interface ApproveActionsInput {
  proposalId: string;
  graph: string;
  /** 0-based action indexes (several only for HIGH actions when the policy allows it). */
  actions: number[];
  /** The person's written reason; with `lowConfidence` it accepts a LOW action's risk. */
  reason?: string;
  lowConfidence?: boolean;
  /** The actions as shown to the person: the server refuses if one was edited since. */
  seen?: RefinementAction[];
}

/** Approve under the graph's policy; the server applies when this approval completes it. */
export function approveActions(input: ApproveActionsInput): Promise<ApproveActionsResult> {
  return fetchJson<ApproveActionsResult>(`/api/proposals/${encodeURIComponent(input.proposalId)}/approve`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ actions: input.actions, ...(input.reason ? { reason: input.reason } : {}), ...(input.lowConfidence ? { lowConfidence: true } : {}), ...(input.seen ? { seen: input.seen } : {}) }),
  });
}

/** An approval may create a version: every proposal view and the graph's own queries are out of date. */
export function useApproveActions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: approveActions,
    onSettled: (_data, _error, input) =>
      Promise.all([invalidateAfterDecision(queryClient), queryClient.invalidateQueries({ queryKey: graphKeys.graph(input.graph) })]),
  });
}
