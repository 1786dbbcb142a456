import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { fetchJson } from "./fetch-json";
import { proposalKeys } from "./graph-keys";
import type { PreviewResult } from "./proposal-types";

export function previewProposal(id: string, actions: number[]): Promise<PreviewResult> {
  return fetchJson<PreviewResult>(`/api/proposals/${encodeURIComponent(id)}/preview?actions=${actions.join(",")}`);
}

/** What approving these actions would change; disabled for an empty selection. */
export function previewQueryOptions(id: string, actions: number[]) {
  return queryOptions({
    queryKey: proposalKeys.preview(id, actions),
    queryFn: () => previewProposal(id, actions),
    enabled: actions.length > 0,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function usePreview(id: string, actions: number[]) {
  return useQuery(previewQueryOptions(id, actions));
}
