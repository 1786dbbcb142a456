import { queryOptions, useQuery } from "@tanstack/react-query";
import { fetchJson } from "./fetch-json";
import { providerKeys } from "./graph-keys";
import type { ProviderInfo } from "./run-types";

export function getProvider(): Promise<ProviderInfo> {
  return fetchJson<ProviderInfo>("/api/provider");
}

export function providerQueryOptions() {
  return queryOptions({
    queryKey: providerKeys.current,
    queryFn: getProvider,
    // Settings come from the server's environment: they only change with a restart.
    staleTime: Infinity,
  });
}

export function useProvider() {
  return useQuery(providerQueryOptions());
}
