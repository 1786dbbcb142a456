import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Actor } from "@/lib/auth/permissions";
import type { QueueProposal, QueueProposalPage } from "@/lib/server/proposals/queue-proposals";
import { fetchJson } from "../api/fetch-json";
import { proposalKeys } from "../api/graph-keys";
import type { QueueRow } from "./queue-rows";
import { toQueueRows } from "./queue-rows";

/** Proposals per page of the background read: the compact rows allow 500 (one request for a 5,000-action queue). */
const QUEUE_PAGE = 500;

/** Every proposal (any status), compact (GET /api/proposals/rows: no evidence), following the pages. */
export async function findQueueProposals(): Promise<QueueProposal[]> {
  const all: QueueProposal[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams({ limit: String(QUEUE_PAGE) });
    if (cursor) params.set("cursor", cursor);
    const page: QueueProposalPage = await fetchJson<QueueProposalPage>(`/api/proposals/rows?${params.toString()}`);
    all.push(...page.proposals);
    cursor = page.nextCursor;
  } while (cursor);
  return all;
}

/** Every proposal (any status, so the status filter can show decided actions), as queue rows; `viewer` picks which copy of a duplicated action a row decides on. */
export function queueRowsQueryOptions(viewer: Actor | null = null) {
  return queryOptions({
    queryKey: proposalKeys.queue(),
    queryFn: async () => toQueueRows(await findQueueProposals(), viewer),
    staleTime: 30_000,
  });
}

/**
 * Seeded with the server-rendered rows: the queue is interactive without a first request. When
 * those are only the first page (`complete` false), they count as stale at once, so every page
 * is read in the background while the first one is already in use.
 */
export function useQueueRows(initialRows: QueueRow[], viewer: Actor | null, complete = true) {
  return useQuery({ ...queueRowsQueryOptions(viewer), initialData: initialRows, ...(complete ? {} : { initialDataUpdatedAt: 0 }) });
}
