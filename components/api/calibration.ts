/**
 * A graph's decision statistics, thresholds and re-fit (GET/POST /api/graphs/{name}/calibration):
 * fetcher, query-option factory and hooks. Keyed under the proposals, since every decision on
 * a proposal changes them: the invalidation after a decision refreshes them too.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { LabelThresholds } from "@/lib/review/types";
import type { GraphCalibration } from "@/lib/server/proposals/review-calibration";
import { fetchJson } from "./fetch-json";
import { proposalKeys } from "./graph-keys";
import type { BodyOf } from "@/lib/api/contract";
import type { proposalsContract } from "@/lib/server/proposals/contract";

export type { GraphCalibration };

export const calibrationKeys = {
  graph: (name: string) => [...proposalKeys.all, "calibration", name] as const,
};

const calibrationUrl = (graph: string) => `/api/graphs/${encodeURIComponent(graph)}/calibration`;

export function calibrationQueryOptions(graph: string) {
  return queryOptions({ queryKey: calibrationKeys.graph(graph), queryFn: () => fetchJson<GraphCalibration>(calibrationUrl(graph)), staleTime: 30_000 });
}

/** Seeded with the server-rendered copy when there is one; otherwise fetched when `enabled`. */
export function useCalibration(graph: string, options: { initial?: GraphCalibration; enabled?: boolean } = {}) {
  return useQuery({ ...calibrationQueryOptions(graph), initialData: options.initial, enabled: options.enabled ?? true });
}

/** The route's body; the page always sends the thresholds it showed with a re-fit. */
export type CalibrationChange = BodyOf<typeof proposalsContract.updateCalibration> & ({ action: "refit"; expected: LabelThresholds } | { action: "reset" });

export function useUpdateCalibration(graph: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: CalibrationChange) =>
      fetchJson<GraphCalibration>(calibrationUrl(graph), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(change) }),
    onSuccess: (saved) => queryClient.setQueryData(calibrationKeys.graph(graph), saved),
  });
}
