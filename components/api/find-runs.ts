import { queryOptions, useQuery } from "@tanstack/react-query";
import { fetchJson } from "./fetch-json";
import { graphKeys } from "./graph-keys";
import { isRunning } from "./run-types";
import type { RunSummary } from "./run-types";

const REFRESH_WHILE_RUNNING_MS = 1_500;

export function findRuns(name: string): Promise<RunSummary[]> {
  return fetchJson<RunSummary[]>(`/api/graphs/${encodeURIComponent(name)}/runs`);
}

/** Newest first; polled while any run is still going (queue runs start one after another). */
export function runsQueryOptions(name: string) {
  return queryOptions({
    queryKey: graphKeys.runs(name),
    queryFn: () => findRuns(name),
    refetchInterval: (query) => (query.state.data?.some(isRunning) ? REFRESH_WHILE_RUNNING_MS : false),
  });
}

export function useRuns(name: string) {
  return useQuery(runsQueryOptions(name));
}
