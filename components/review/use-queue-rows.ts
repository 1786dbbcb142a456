import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Actor } from "@/lib/auth/permissions";
import { findProposals } from "../api/find-proposals";
import { proposalKeys } from "../api/graph-keys";
import type { QueueRow } from "./queue-rows";
import { toQueueRows } from "./queue-rows";

/** Every proposal (any status, so the status filter can show decided actions), as queue rows; `viewer` picks which copy of a duplicated action a row decides on. */
export function queueRowsQueryOptions(viewer: Actor | null = null) {
  return queryOptions({
    queryKey: proposalKeys.queue(),
    queryFn: async () => toQueueRows(await findProposals(), viewer),
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
