/** Fetchers, query options and hooks of the Ask endpoints (one module: they share their keys). */
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AskAgainResult, AskDetails, AskSummary, LoopSettings, RunStepAnswer, Step1Retrieval } from "./ask-types";
import { fetchJson } from "./fetch-json";
import { askKeys, graphKeys } from "./graph-keys";
import type { BodyOf } from "@/lib/api/contract";
import type { asksContract } from "@/lib/server/asks/contract";
import { OWN_PROGRESS } from "./own-progress";

/** How often a running ask is checked. */
export const ASK_POLL_MS = 700;

const graphUrl = (name: string) => `/api/graphs/${encodeURIComponent(name)}`;

export function findAsks(name: string): Promise<AskSummary[]> {
  return fetchJson<AskSummary[]>(`${graphUrl(name)}/asks`);
}

export function asksQueryOptions(name: string) {
  return queryOptions({
    queryKey: graphKeys.asks(name),
    queryFn: () => findAsks(name),
    refetchInterval: (query) => (query.state.data?.some((a) => a.status === "running") ? ASK_POLL_MS * 2 : false),
  });
}

export function useAsks(name: string) {
  return useQuery(asksQueryOptions(name));
}

export function getAsk(id: string): Promise<AskDetails> {
  return fetchJson<AskDetails>(`/api/asks/${encodeURIComponent(id)}`);
}

export function askQueryOptions(id: string) {
  return queryOptions({
    queryKey: askKeys.ask(id),
    queryFn: () => getAsk(id),
    refetchInterval: (query) => (query.state.data?.status === "running" ? ASK_POLL_MS : false),
  });
}

export function useAsk(id: string | null) {
  return useQuery({ ...askQueryOptions(id ?? ""), enabled: id !== null });
}

export type StartAskInput = BodyOf<typeof asksContract.askGraph>;

export function startAsk(name: string, input: StartAskInput): Promise<AskDetails> {
  return fetchJson<AskDetails>(`${graphUrl(name)}/asks`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(input),
  });
}

export function useStartAsk(name: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: StartAskInput) => startAsk(name, input),
    meta: OWN_PROGRESS,
    onSuccess: (ask) => queryClient.setQueryData(askKeys.ask(ask.id), ask),
    onSettled: () => queryClient.invalidateQueries({ queryKey: graphKeys.asks(name) }),
  });
}

export function askAgain(proposalId: string): Promise<AskAgainResult> {
  return fetchJson<AskAgainResult>(`/api/proposals/${encodeURIComponent(proposalId)}/ask-again`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
}

export function useAskAgain(proposalId: string) {
  return useMutation({ mutationKey: askKeys.askAgain(proposalId), mutationFn: () => askAgain(proposalId), meta: OWN_PROGRESS });
}

export function getRunAnswer(runId: string): Promise<{ answer: RunStepAnswer | null }> {
  return fetchJson<{ answer: RunStepAnswer | null }>(`/api/runs/${encodeURIComponent(runId)}/answer`);
}

export function useRunAnswer(runId: string, status: string, isEnabled: boolean) {
  return useQuery({ queryKey: askKeys.runAnswer(runId, status), queryFn: () => getRunAnswer(runId), enabled: isEnabled });
}

export function getLoopSettings(name: string): Promise<LoopSettings> {
  return fetchJson<LoopSettings>(`${graphUrl(name)}/loop-settings`);
}

export function useLoopSettings(name: string) {
  return useQuery({ queryKey: graphKeys.loopSettings(name), queryFn: () => getLoopSettings(name) });
}

export function useUpdateLoopSettings(name: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (step1Retrieval: Step1Retrieval) =>
      fetchJson<LoopSettings>(`${graphUrl(name)}/loop-settings`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ step1Retrieval }),
      }),
    onSuccess: (settings) => queryClient.setQueryData(graphKeys.loopSettings(name), settings),
  });
}
