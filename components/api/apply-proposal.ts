import { useMutation, useQueryClient } from "@tanstack/react-query";
import { fetchJson } from "./fetch-json";
import { invalidateAfterDecision } from "./invalidate-proposals";
import { graphKeys } from "./graph-keys";
import type { ApplyResult } from "./proposal-types";

export interface ApplyProposalInput {
  proposalId: string;
  graph: string;
  /** 0-based action indexes. */
  actions: number[];
  /** The person's written acceptance of LOW-confidence risk; the server refuses LOW without it (428). */
  lowConfidenceReason?: string;
}

export function applyProposal(input: ApplyProposalInput): Promise<ApplyResult> {
  return fetchJson<ApplyResult>(`/api/proposals/${encodeURIComponent(input.proposalId)}/apply`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      actions: input.actions,
      ...(input.lowConfidenceReason !== undefined ? { lowConfidence: { accepted: true, reason: input.lowConfidenceReason } } : {}),
    }),
  });
}

/** A new graph version: every proposal view and the graph's own queries are out of date. */
export function useApplyProposal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: applyProposal,
    onSettled: (_data, _error, input) =>
      Promise.all([
        invalidateAfterDecision(queryClient),
        queryClient.invalidateQueries({ queryKey: graphKeys.graph(input.graph) }),
      ]),
  });
}
