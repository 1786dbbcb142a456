import { useMutation, useQueryClient } from "@tanstack/react-query";
import { fetchJson } from "./fetch-json";
import { invalidateAfterDecision } from "./invalidate-proposals";
import { proposalKeys } from "./graph-keys";
import type { ProposalDetails } from "./proposal-types";

export interface RejectActionsInput {
  proposalId: string;
  actions: number[];
  reason?: string;
}

export function rejectActions(input: RejectActionsInput): Promise<ProposalDetails> {
  return fetchJson<ProposalDetails>(`/api/proposals/${encodeURIComponent(input.proposalId)}/reject`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ actions: input.actions, ...(input.reason ? { reason: input.reason } : {}) }),
  });
}

export function useRejectActions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rejectActions,
    onSuccess: (proposal) => queryClient.setQueryData(proposalKeys.proposal(proposal.id), proposal),
    onSettled: () => invalidateAfterDecision(queryClient),
  });
}
