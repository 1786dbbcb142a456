import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { DecisionResult } from "@/lib/server/approvals/approvals-veto";
import { fetchJson } from "./fetch-json";
import { invalidateAfterDecision } from "./invalidate-proposals";
import { proposalKeys } from "./graph-keys";
import type { BodyOf } from "@/lib/api/contract";
import type { approvalsContract } from "@/lib/server/approvals/contract";

/** `action`: 0-based index; `decision`: someone else's veto (admins), default your own latest decision. */
export type WithdrawDecisionInput = BodyOf<typeof approvalsContract.withdrawDecision> & { proposalId: string };

export function withdrawDecision(input: WithdrawDecisionInput): Promise<DecisionResult> {
  return fetchJson<DecisionResult>(`/api/proposals/${encodeURIComponent(input.proposalId)}/withdraw`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ action: input.action, ...(input.decision !== undefined ? { decision: input.decision } : {}) }),
  });
}

export function useWithdrawDecision() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: withdrawDecision,
    onSuccess: (result) => queryClient.setQueryData(proposalKeys.proposal(result.proposal.id), result.proposal),
    onSettled: () => invalidateAfterDecision(queryClient),
  });
}
