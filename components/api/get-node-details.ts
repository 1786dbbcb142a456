import { queryOptions, useQuery } from "@tanstack/react-query";
import type { NodeDetails } from "./types";
import { fetchJson } from "./fetch-json";
import { graphKeys } from "./graph-keys";
import { encodeNodeSegment } from "./node-segment";

export function getNodeDetails(name: string, nodeId: string): Promise<NodeDetails> {
  return fetchJson<NodeDetails>(`/api/graphs/${encodeURIComponent(name)}/nodes/${encodeNodeSegment(nodeId)}`);
}

export function nodeDetailsQueryOptions(name: string, nodeId: string) {
  return queryOptions({
    queryKey: graphKeys.node(name, nodeId),
    queryFn: () => getNodeDetails(name, nodeId),
    staleTime: 60_000,
  });
}

export function useNodeDetails(name: string, nodeId: string) {
  return useQuery(nodeDetailsQueryOptions(name, nodeId));
}
