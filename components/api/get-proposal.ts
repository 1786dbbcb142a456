import { queryOptions, useQuery } from "@tanstack/react-query";
import { fetchJson } from "./fetch-json";
import { proposalKeys } from "./graph-keys";
import type { ProposalDetails } from "./proposal-types";

export function getProposal(id: string): Promise<ProposalDetails> {
  return fetchJson<ProposalDetails>(`/api/proposals/${encodeURIComponent(id)}`);
}

export function proposalQueryOptions(id: string) {
  // Decisions invalidate it explicitly; no need to refetch a page that was just rendered.
  return queryOptions({ queryKey: proposalKeys.proposal(id), queryFn: () => getProposal(id), staleTime: 30_000 });
}

/** While reviews made without the graph rules wait to be made again: how often the page asks. */
export const RULES_MINING_POLL_MS = 2_000;

/**
 * One proposal; the page passes the server-rendered copy so the first paint needs no request.
 * Polled while its graph rules are being mined for reviews made without them (`rulesMining`).
 */
export function useProposal(initial: ProposalDetails) {
  return useQuery({
    ...proposalQueryOptions(initial.id),
    initialData: initial,
    refetchInterval: (query) => (query.state.data?.rulesMining && query.state.data.rulesMining.state !== "failed" ? RULES_MINING_POLL_MS : false),
  });
}
