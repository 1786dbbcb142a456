import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { SearchResult } from "./types";
import { fetchJson } from "./fetch-json";
import { graphKeys } from "./graph-keys";

export function searchNodes(name: string, q: string): Promise<SearchResult> {
  return fetchJson<SearchResult>(`/api/graphs/${encodeURIComponent(name)}/search?q=${encodeURIComponent(q)}`);
}

export function searchNodesQueryOptions(name: string, q: string) {
  return queryOptions({
    queryKey: graphKeys.search(name, q),
    queryFn: () => searchNodes(name, q),
    enabled: q.trim() !== "",
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

export function useSearchNodes(name: string, q: string) {
  return useQuery(searchNodesQueryOptions(name, q));
}
