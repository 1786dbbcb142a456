/**
 * Who is signed in, for the browser: decides which controls to show and how to label them.
 * Showing is never the check — every route authorizes on the server.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Actor } from "@/lib/auth/permissions";
import type { SessionInfo } from "@/lib/server/auth/get-session-info";
import { fetchJson } from "./fetch-json";

export type { SessionInfo };

export const sessionKeys = { current: ["session"] as const };

export function sessionInfoQueryOptions() {
  return queryOptions({ queryKey: sessionKeys.current, queryFn: () => fetchJson<SessionInfo>("/api/auth/session"), staleTime: 60_000 });
}

export const useSessionInfo = () => useQuery(sessionInfoQueryOptions());

/** The signed-in person as an Actor for the pure permission and policy predicates; null otherwise. */
export function sessionActor(info: SessionInfo | undefined): Actor | null {
  if (!info?.user || info.tokenScope !== null) return null;
  return { kind: "user", userId: info.user.id, username: info.user.username, displayName: info.user.displayName, role: info.user.role, sessionId: "" };
}
