import { useMutation, useQueryClient } from "@tanstack/react-query";
import { fetchJson } from "./fetch-json";
import { proposalKeys } from "./graph-keys";
import type { ProposalActionItem, ProposalDetails } from "./proposal-types";
import type { BodyOf } from "@/lib/api/contract";
import type { approvalsContract } from "@/lib/server/approvals/contract";

export type EditActionInput = BodyOf<typeof approvalsContract.editAction> & { proposalId: string; index: number };

/** Replace a pending action; the server reviews the new one at once and answers with it. */
export function editAction(input: EditActionInput): Promise<ProposalActionItem> {
  return fetchJson<ProposalActionItem>(`/api/proposals/${encodeURIComponent(input.proposalId)}/actions/${input.index}`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ action: input.action }),
  });
}

export function useEditAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: editAction,
    onSuccess: (item, input) => {
      // The new review shows without waiting for a refetch of the whole proposal.
      queryClient.setQueryData<ProposalDetails>(proposalKeys.proposal(input.proposalId), (old) => {
        if (!old) return old;
        const actions = old.actions.map((a) => (a.index === item.index ? item : a));
        const counts = { HIGH: 0, MEDIUM: 0, LOW: 0 };
        for (const a of actions) counts[a.confidence]++;
        return { ...old, actions, counts };
      });
    },
    onSettled: (_item, _error, input) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: proposalKeys.proposal(input.proposalId) }),
        queryClient.invalidateQueries({ queryKey: proposalKeys.lists() }),
      ]),
  });
}
