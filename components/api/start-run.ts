import { useMutation, useQueryClient } from "@tanstack/react-query";
import { fetchJson } from "./fetch-json";
import { graphKeys } from "./graph-keys";
import type { LaunchedRuns } from "./run-types";
import type { BodyOf } from "@/lib/api/contract";
import type { runsContract } from "@/lib/server/runs/contract";

/** One question (typed, or queued by id), or the whole pending queue (`question` runs if the queue is empty). */
/** One of the three ways to start, narrowed from the route's contract. */
export type StartRunInput = BodyOf<typeof runsContract.startRuns> & ({ question: string } | { queryId: string } | { pending: true; question?: string });

export function startRun(name: string, input: StartRunInput): Promise<LaunchedRuns> {
  return fetchJson<LaunchedRuns>(`/api/graphs/${encodeURIComponent(name)}/runs`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(input),
  });
}

export function useStartRun(name: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: StartRunInput) => startRun(name, input),
    // A typed question joins the queue; either way the runs list has a new row.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: graphKeys.runs(name) }),
        queryClient.invalidateQueries({ queryKey: graphKeys.questionsAll(name) }),
      ]),
  });
}
