import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ApproveActionsResult } from "@/lib/server/approvals/approvals";
import { fetchJson } from "./fetch-json";
import { invalidateAfterDecision } from "./invalidate-proposals";
import { graphKeys } from "./graph-keys";
import { patchQueueInCache } from "./invalidate-proposals";
import type { BodyOf } from "@/lib/api/contract";
import type { approvalsContract } from "@/lib/server/approvals/contract";

export type { ApproveActionsResult };

/** The body as the route's contract defines it (actions, reason, lowConfidence, seen), plus where it goes. */
export type ApproveActionsInput = BodyOf<typeof approvalsContract.approveActions> & { proposalId: string; graph: string };

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
    onSuccess: (result) => patchQueueInCache(queryClient, result.proposalId, result.actions),
    onSettled: (_data, _error, input) =>
      Promise.all([invalidateAfterDecision(queryClient), queryClient.invalidateQueries({ queryKey: graphKeys.graph(input.graph) })]),
  });
}
