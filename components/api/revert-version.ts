import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RevertResult } from "./proposal-types";
import { fetchJson } from "./fetch-json";
import { invalidateAfterDecision } from "./invalidate-proposals";
import { graphKeys } from "./graph-keys";

/** Undo the change that created `version`, as a new version (the history keeps both). */
export function revertVersion(name: string, version: number): Promise<RevertResult> {
  return fetchJson<RevertResult>(`/api/graphs/${encodeURIComponent(name)}/versions/${version}/revert`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({}),
  });
}

/** Used by the version history and the review's result panel: a new version changes both. */
export function useRevertVersion(name: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (version: number) => revertVersion(name, version),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: graphKeys.graph(name) }),
        invalidateAfterDecision(queryClient),
      ]),
  });
}
