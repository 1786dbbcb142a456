import { queryOptions, useQuery } from "@tanstack/react-query";
import type { VersionInfo } from "./diff-types";
import { fetchJson } from "./fetch-json";
import { graphKeys } from "./graph-keys";

export function findVersions(name: string): Promise<VersionInfo[]> {
  return fetchJson<VersionInfo[]>(`/api/graphs/${encodeURIComponent(name)}/versions`);
}

/** Newest first. The page renders the server's list at once; this keeps it fresh after an undo. */
export function versionsQueryOptions(name: string) {
  return queryOptions({
    queryKey: graphKeys.versions(name),
    queryFn: () => findVersions(name),
    staleTime: 10_000,
  });
}

export function useVersions(name: string, initialData?: VersionInfo[]) {
  return useQuery({ ...versionsQueryOptions(name), initialData });
}
