import { useMutation, useQueryClient } from "@tanstack/react-query";
import { fetchJson } from "./fetch-json";
import { graphKeys } from "./graph-keys";
import type { AddQuestionsResult, SyncMemoryResult } from "./run-types";

export function addQuestions(name: string, questions: string[]): Promise<AddQuestionsResult> {
  return fetchJson<AddQuestionsResult>(`/api/graphs/${encodeURIComponent(name)}/questions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ questions }),
  });
}

/** Import graphify memory files (`query_*.md`); without a folder the server uses the graph's import path. */
export function syncMemoryFiles(name: string, dir: string | undefined): Promise<SyncMemoryResult> {
  return fetchJson<SyncMemoryResult>(`/api/graphs/${encodeURIComponent(name)}/questions/sync-memory`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(dir ? { dir } : {}),
  });
}

export function useAddQuestions(name: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (questions: string[]) => addQuestions(name, questions),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: graphKeys.questionsAll(name) }),
  });
}

export function useSyncMemoryFiles(name: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (dir: string | undefined) => syncMemoryFiles(name, dir),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: graphKeys.questionsAll(name) }),
  });
}
