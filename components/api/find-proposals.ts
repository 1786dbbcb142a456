import { queryOptions, useQuery } from "@tanstack/react-query";
import { fetchJson } from "./fetch-json";
import { proposalKeys } from "./graph-keys";
import type { ProposalListFilter } from "./graph-keys";
import type { ProposalDetails } from "./proposal-types";

export function findProposals(filter: ProposalListFilter = {}): Promise<ProposalDetails[]> {
  const params = new URLSearchParams();
  if (filter.graph) params.set("graph", filter.graph);
  if (filter.status) params.set("status", filter.status);
  const query = params.toString();
  return fetchJson<ProposalDetails[]>(`/api/proposals${query ? `?${query}` : ""}`);
}

/** Newest first, every action with its label and review. */
export function proposalsQueryOptions(filter: ProposalListFilter) {
  return queryOptions({ queryKey: proposalKeys.list(filter), queryFn: () => findProposals(filter) });
}

export function useProposals(filter: ProposalListFilter = {}) {
  return useQuery(proposalsQueryOptions(filter));
}
