import type { QueryClient } from "@tanstack/react-query";
import type { DecidedAction, QueueRow } from "../review/queue-rows";
import { patchQueueRows } from "../review/queue-rows";
import { proposalKeys } from "./graph-keys";

const isPreview = (key: readonly unknown[]) => key[3] === "preview";
const isQueue = (key: readonly unknown[]) => key[1] === "list" && key[2] === "queue";

/** Write a decision's outcome into the review queue's rows at once (see patchQueueRows). */
export function patchQueueInCache(queryClient: QueryClient, proposalId: string, actions: readonly DecidedAction[]): void {
  queryClient.setQueryData<QueueRow[]>(proposalKeys.queue(), (rows) => (rows ? patchQueueRows(rows, proposalId, actions) : rows));
}

/**
 * After a decision (apply, reject, undo) every proposal view is out of date. Previews are only
 * marked stale: the one on screen names actions that are no longer pending, and refetching it
 * before the proposal itself has refreshed the selection would only earn a 409.
 */
export function invalidateAfterDecision(queryClient: QueryClient): Promise<unknown> {
  // The queue re-reads every page (5,000 actions: seconds): refreshed in the background, not
  // awaited, so the decision's result shows at once; patchQueueInCache has already moved its row.
  void queryClient.invalidateQueries({ queryKey: proposalKeys.queue() });
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: proposalKeys.all, predicate: (q) => !isPreview(q.queryKey) && !isQueue(q.queryKey) }),
    queryClient.invalidateQueries({ queryKey: proposalKeys.all, predicate: (q) => isPreview(q.queryKey), refetchType: "none" }),
  ]);
}
