/** A proposal's discussion and timeline: fetchers, query-option factories and hooks. */
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TimelineEvent } from "@/lib/server/approvals/approvals-timeline";
import type { CommentView } from "@/lib/server/approvals/comments";
import { fetchJson } from "./fetch-json";
import { proposalKeys } from "./graph-keys";
import type { BodyOf } from "@/lib/api/contract";
import type { approvalsContract } from "@/lib/server/approvals/contract";

export type { CommentView, TimelineEvent };

/** Under the proposal's own key, so every decision's invalidation refreshes the timeline too. */
export const discussionKeys = {
  timeline: (id: string) => [...proposalKeys.proposal(id), "timeline"] as const,
};

export function timelineQueryOptions(proposalId: string) {
  return queryOptions({
    queryKey: discussionKeys.timeline(proposalId),
    queryFn: () => fetchJson<TimelineEvent[]>(`/api/proposals/${encodeURIComponent(proposalId)}/timeline`),
  });
}

export const useTimeline = (proposalId: string) => useQuery(timelineQueryOptions(proposalId));

export function useCreateComment(proposalId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: BodyOf<typeof approvalsContract.createComment>) =>
      fetchJson<CommentView>(`/api/proposals/${encodeURIComponent(proposalId)}/comments`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(input),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: discussionKeys.timeline(proposalId) }),
  });
}
