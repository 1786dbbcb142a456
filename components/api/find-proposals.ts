import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ProposalPage } from "@/lib/server/proposals/find-proposal-page";
import { fetchJson } from "./fetch-json";
import { proposalKeys } from "./graph-keys";
import type { ProposalListFilter } from "./graph-keys";
import type { ProposalDetails } from "./proposal-types";

export type { ProposalPage };

/** One page of GET /api/proposals (newest first) with the summary of everything that matches. */
export function findProposalPage(filter: ProposalListFilter = {}, page: { cursor?: string; limit?: number } = {}): Promise<ProposalPage> {
  const params = new URLSearchParams();
  if (filter.graph) params.set("graph", filter.graph);
  if (filter.status) params.set("status", filter.status);
  if (page.cursor) params.set("cursor", page.cursor);
  if (page.limit) params.set("limit", String(page.limit));
  const query = params.toString();
  return fetchJson<ProposalPage>(`/api/proposals${query ? `?${query}` : ""}`);
}

/** Every matching proposal, following the pages (200 at a time): for views that need them all. */
export async function findProposals(filter: ProposalListFilter = {}): Promise<ProposalDetails[]> {
  const all: ProposalDetails[] = [];
  let cursor: string | undefined;
  do {
    const page = await findProposalPage(filter, { cursor, limit: 200 });
    all.push(...page.proposals);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return all;
}

/** Newest first, every action with its label and review. */
export function proposalsQueryOptions(filter: ProposalListFilter) {
  return queryOptions({ queryKey: proposalKeys.list(filter), queryFn: () => findProposals(filter) });
}

export function useProposals(filter: ProposalListFilter = {}) {
  return useQuery(proposalsQueryOptions(filter));
}
