import { queryOptions } from "@tanstack/react-query";
import { fetchJson } from "./fetch-json";
import { runKeys } from "./graph-keys";
import type { RunDetails } from "./run-types";

export function getRun(id: string): Promise<RunDetails> {
  return fetchJson<RunDetails>(`/api/runs/${encodeURIComponent(id)}`);
}

export function runQueryOptions(id: string) {
  return queryOptions({ queryKey: runKeys.run(id), queryFn: () => getRun(id) });
}
