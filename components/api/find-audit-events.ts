import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import type { InfiniteData } from "@tanstack/react-query";
import { AUDIT_PAGE_SIZE } from "@/lib/audit/audit-query";
import type { AuditEventPage } from "@/lib/audit/types";
import { fetchJson } from "./fetch-json";

/** `query`: the API filter as a query string (auditApiSearch), the list's identity. */
export const auditKeys = {
  all: ["audit"] as const,
  list: (query: string) => ["audit", "list", { query }] as const,
};

export function findAuditEvents(query: string, cursor: number | null): Promise<AuditEventPage> {
  const params = new URLSearchParams(query);
  params.set("limit", String(AUDIT_PAGE_SIZE));
  if (cursor !== null) params.set("cursor", String(cursor));
  return fetchJson<AuditEventPage>(`/api/audit?${params.toString()}`);
}

/** Newest first; each further page is older (follow nextCursor). */
export function auditEventsQueryOptions(query: string, initialPage?: AuditEventPage) {
  return infiniteQueryOptions({
    queryKey: auditKeys.list(query),
    queryFn: ({ pageParam }) => findAuditEvents(query, pageParam),
    initialPageParam: null as number | null,
    getNextPageParam: (last: AuditEventPage) => last.nextCursor,
    initialData: initialPage ? ({ pages: [initialPage], pageParams: [null] } satisfies InfiniteData<AuditEventPage, number | null>) : undefined,
  });
}

export function useAuditEvents(query: string, initialPage?: AuditEventPage) {
  return useInfiniteQuery(auditEventsQueryOptions(query, initialPage));
}
