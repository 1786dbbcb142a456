import { queryOptions, useQuery } from "@tanstack/react-query";
import { findProposals } from "../api/find-proposals";
import { proposalKeys } from "../api/graph-keys";
import type { QueueRow } from "./queue-rows";
import { toQueueRows } from "./queue-rows";

/** Every proposal (any status, so the status filter can show decided actions), as queue rows. */
export function queueRowsQueryOptions() {
  return queryOptions({
    queryKey: proposalKeys.queue(),
    queryFn: async () => toQueueRows(await findProposals()),
    staleTime: 30_000,
  });
}

/** Seeded with the server-rendered rows: the queue is interactive without a first request. */
export function useQueueRows(initialRows: QueueRow[]) {
  return useQuery({ ...queueRowsQueryOptions(), initialData: initialRows });
}
