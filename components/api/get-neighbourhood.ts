import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Neighbourhood } from "./types";
import { fetchJson } from "./fetch-json";
import { graphKeys } from "./graph-keys";
import { encodeNodeSegment } from "./node-segment";

export function getNeighbourhood(name: string, nodeId: string, depth: number): Promise<Neighbourhood> {
  return fetchJson<Neighbourhood>(
    `/api/graphs/${encodeURIComponent(name)}/nodes/${encodeNodeSegment(nodeId)}/neighbourhood?depth=${depth}`,
  );
}

export function neighbourhoodQueryOptions(name: string, nodeId: string, depth: number) {
  return queryOptions({
    queryKey: graphKeys.neighbourhood(name, nodeId, { depth }),
    queryFn: () => getNeighbourhood(name, nodeId, depth),
    staleTime: 60_000,
  });
}

export function useNeighbourhood(name: string, nodeId: string, depth: number) {
  return useQuery(neighbourhoodQueryOptions(name, nodeId, depth));
}
