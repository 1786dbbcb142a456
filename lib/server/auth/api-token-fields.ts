import { z } from "zod";
import { TOKEN_SCOPES } from "../../auth/permissions";
import type { TokenScope } from "../../auth/permissions";

export const TOKEN_PREFIX = "rfy_";
export const tokenScopeSchema = z.enum(TOKEN_SCOPES);

/** What the API shows of a token: its prefix to recognise it, never the secret or its hash. */
export interface ApiTokenView {
  id: string;
  name: string;
  prefix: string;
  scope: TokenScope;
  owner: { id: string; username: string };
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
}

export const tokenSelect = {
  id: true,
  name: true,
  prefix: true,
  scope: true,
  createdAt: true,
  lastUsedAt: true,
  expiresAt: true,
  revokedAt: true,
  user: { select: { id: true, username: true } },
} as const;

export function toApiTokenView(row: {
  id: string;
  name: string;
  prefix: string;
  scope: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  user: { id: string; username: string };
}): ApiTokenView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scope: tokenScopeSchema.parse(row.scope),
    owner: row.user,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}
