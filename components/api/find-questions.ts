import { queryOptions, useQuery } from "@tanstack/react-query";
import { fetchJson } from "./fetch-json";
import { graphKeys } from "./graph-keys";
import type { QuestionItem } from "./run-types";

export type QuestionFilter = "pending" | "all";

export function findQuestions(name: string, status: QuestionFilter): Promise<QuestionItem[]> {
  return fetchJson<QuestionItem[]>(`/api/graphs/${encodeURIComponent(name)}/questions?status=${status}`);
}

export function questionsQueryOptions(name: string, status: QuestionFilter) {
  return queryOptions({
    queryKey: graphKeys.questions(name, { status }),
    queryFn: () => findQuestions(name, status),
  });
}

export function useQuestions(name: string, status: QuestionFilter) {
  return useQuery(questionsQueryOptions(name, status));
}
