import type { QueryClient } from "@tanstack/react-query";
import { proposalKeys } from "./graph-keys";

const isPreview = (key: readonly unknown[]) => key[3] === "preview";

/**
 * After a decision (apply, reject, undo) every proposal view is out of date. Previews are only
 * marked stale: the one on screen names actions that are no longer pending, and refetching it
 * before the proposal itself has refreshed the selection would only earn a 409.
 */
export function invalidateAfterDecision(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: proposalKeys.all, predicate: (q) => !isPreview(q.queryKey) }),
    queryClient.invalidateQueries({ queryKey: proposalKeys.all, predicate: (q) => isPreview(q.queryKey), refetchType: "none" }),
  ]);
}
