import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { DecisionResult } from "@/lib/server/approvals/approvals-veto";
import { fetchJson } from "./fetch-json";
import { invalidateAfterDecision, patchQueueInCache } from "./invalidate-proposals";
import { proposalKeys } from "./graph-keys";
import type { BodyOf } from "@/lib/api/contract";
import type { approvalsContract } from "@/lib/server/approvals/contract";

export type RejectActionsInput = BodyOf<typeof approvalsContract.rejectActions> & { proposalId: string };

/** A veto: nobody can approve or apply the actions until it is withdrawn. */
export function rejectActions(input: RejectActionsInput): Promise<DecisionResult> {
  return fetchJson<DecisionResult>(`/api/proposals/${encodeURIComponent(input.proposalId)}/reject`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ actions: input.actions, ...(input.reason ? { reason: input.reason } : {}) }),
  });
}

export function useRejectActions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rejectActions,
    onSuccess: (result) => {
      queryClient.setQueryData(proposalKeys.proposal(result.proposal.id), result.proposal);
      patchQueueInCache(queryClient, result.proposal.id, result.actions);
    },
    onSettled: () => invalidateAfterDecision(queryClient),
  });
}
