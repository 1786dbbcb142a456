/**
 * The account endpoints as the browser uses them: fetchers, query-option factories and hooks.
 * Keys are built only here, so mutations invalidate exactly what they change.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Role, TokenScope } from "@/lib/auth/permissions";
import type { UserView } from "@/lib/server/auth/account-fields";
import type { ApiTokenView } from "@/lib/server/auth/api-token-fields";
import { fetchJson } from "@/components/api/fetch-json";

export type { ApiTokenView, UserView };

export const accountKeys = {
  tokens: () => ["account", "tokens"] as const,
  users: () => ["account", "users"] as const,
};

const jsonInit = (method: string, body: unknown): RequestInit => ({ method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

export interface SignedInBody {
  user: { id: string; username: string; displayName: string; role: Role };
  csrfToken: string;
}

export const signIn = (body: { username: string; password: string }) => fetchJson<SignedInBody>("/api/auth/login", jsonInit("POST", body));
export const setUp = (body: { username: string; displayName?: string; password: string }) => fetchJson<SignedInBody>("/api/auth/setup", jsonInit("POST", body));
export const changePassword = (body: { currentPassword: string; newPassword: string }) => fetchJson<{ changed: boolean }>("/api/auth/password", jsonInit("POST", body));

export const tokensQueryOptions = () => queryOptions({ queryKey: accountKeys.tokens(), queryFn: () => fetchJson<ApiTokenView[]>("/api/tokens") });
export const useTokens = () => useQuery(tokensQueryOptions());

export function useCreateToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; scope: TokenScope; expiresInDays?: number }) => fetchJson<{ token: ApiTokenView; secret: string }>("/api/tokens", jsonInit("POST", body)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.tokens() }),
  });
}

export function useRevokeToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => fetchJson<ApiTokenView>(`/api/tokens/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.tokens() }),
  });
}

export const usersQueryOptions = () => queryOptions({ queryKey: accountKeys.users(), queryFn: () => fetchJson<UserView[]>("/api/users") });
export const useUsers = () => useQuery(usersQueryOptions());

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { username: string; displayName?: string; password: string; role: Role }) => fetchJson<UserView>("/api/users", jsonInit("POST", body)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.users() }),
  });
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: string; role?: Role; displayName?: string; disabled?: boolean; password?: string }) =>
      fetchJson<UserView>(`/api/users/${encodeURIComponent(id)}`, jsonInit("PATCH", body)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.users() }),
  });
}
