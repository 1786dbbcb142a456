/** A graph's approval policy: fetcher, query-option factory and hooks. */
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ApprovalPolicy } from "@/lib/auth/approval-policy";
import type { GraphPolicy } from "@/lib/server/policies/policies";
import { fetchJson } from "./fetch-json";
import { graphKeys, proposalKeys } from "./graph-keys";

export type { ApprovalPolicy, GraphPolicy };

export const policyKeys = {
  policy: (graph: string) => [...graphKeys.graph(graph), "policy"] as const,
};

export function policyQueryOptions(graph: string) {
  return queryOptions({ queryKey: policyKeys.policy(graph), queryFn: () => fetchJson<GraphPolicy>(`/api/graphs/${encodeURIComponent(graph)}/policy`) });
}

/** Seeded with the server-rendered copy, so the page needs no first request. */
export function usePolicy(graph: string, initial: GraphPolicy) {
  return useQuery({ ...policyQueryOptions(graph), initialData: initial });
}

export function useUpdatePolicy(graph: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (policy: ApprovalPolicy) =>
      fetchJson<GraphPolicy>(`/api/graphs/${encodeURIComponent(graph)}/policy`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(policy) }),
    onSuccess: (saved) => queryClient.setQueryData(policyKeys.policy(graph), saved),
    // Required counts and labels in the queue follow the policy.
    onSettled: () => queryClient.invalidateQueries({ queryKey: proposalKeys.all }),
  });
}
