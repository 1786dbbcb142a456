import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { VersionDiff } from "./diff-types";
import { fetchJson } from "./fetch-json";
import { graphKeys } from "./graph-keys";

export function diffVersions(name: string, range: { from: number; to: number }): Promise<VersionDiff> {
  return fetchJson<VersionDiff>(`/api/graphs/${encodeURIComponent(name)}/diff?from=${range.from}&to=${range.to}`);
}

/** A diff between two existing versions never changes: versions are immutable. */
export function versionDiffQueryOptions(name: string, range: { from: number; to: number }) {
  return queryOptions({
    queryKey: graphKeys.diff(name, range),
    queryFn: () => diffVersions(name, range),
    staleTime: Infinity,
  });
}

export function useVersionDiff(name: string, range: { from: number; to: number }) {
  return useQuery({ ...versionDiffQueryOptions(name, range), placeholderData: keepPreviousData });
}
