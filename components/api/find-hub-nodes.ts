import { queryOptions, useQuery } from "@tanstack/react-query";
import { fetchJson } from "./fetch-json";
import { graphKeys } from "./graph-keys";
import type { NodeSummary } from "./types";

export function findHubNodes(name: string, limit: number): Promise<NodeSummary[]> {
  return fetchJson<NodeSummary[]>(`/api/graphs/${encodeURIComponent(name)}/hubs?limit=${limit}`);
}

export function hubNodesQueryOptions(name: string, limit = 12) {
  return queryOptions({
    queryKey: graphKeys.hubs(name, { limit }),
    queryFn: () => findHubNodes(name, limit),
    staleTime: 5 * 60_000,
  });
}

export function useHubNodes(name: string, limit = 12) {
  return useQuery(hubNodesQueryOptions(name, limit));
}
