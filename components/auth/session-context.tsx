"use client";

/**
 * Who is signed in, for client components that hide controls a person cannot use
 * (`useCan("decide")`). Hiding is a courtesy: the server checks every request itself.
 */
import { createContext, useContext } from "react";
import type { ReactNode } from "react";
import type { Actor, Permission } from "@/lib/auth/permissions";
import { can } from "@/lib/auth/permissions";

/** What the page may know of the signed-in person (not the session id). */
export type SessionUser = Omit<Extract<Actor, { kind: "user" }>, "sessionId">;

const SessionContext = createContext<SessionUser | null>(null);

export function SessionProvider({ actor, children }: { actor: SessionUser | null; children: ReactNode }) {
  return <SessionContext.Provider value={actor}>{children}</SessionContext.Provider>;
}

export function useSessionUser(): SessionUser | null {
  return useContext(SessionContext);
}

export function useCan(permission: Permission): boolean {
  const actor = useSessionUser();
  return actor !== null && can({ ...actor, sessionId: "" }, permission);
}
