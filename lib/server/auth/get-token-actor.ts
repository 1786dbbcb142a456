/** The owner behind a bearer token, capped by its scope, or null when it does not work (any more). */
import type { Actor } from "../../auth/permissions";
import { getDb } from "../db/db";
import { roleSchema } from "./account-fields";
import { TOKEN_PREFIX, tokenScopeSchema } from "./api-token-fields";
import { sha256Hex } from "./secrets";
import { touchLater } from "./touch-later";

const TOUCH_AFTER_MS = 60_000;

export async function getTokenActor(options: { secret: string; now?: Date }): Promise<Extract<Actor, { kind: "token" }> | null> {
  if (!options.secret.startsWith(TOKEN_PREFIX) || options.secret.length > 200) return null;
  const now = options.now ?? new Date();
  const db = getDb();
  const token = await db.apiToken.findUnique({
    where: { tokenHash: sha256Hex(options.secret) },
    select: { id: true, scope: true, expiresAt: true, revokedAt: true, lastUsedAt: true, user: { select: { id: true, username: true, displayName: true, role: true, disabledAt: true } } },
  });
  if (!token || token.revokedAt || token.user.disabledAt) return null;
  if (token.expiresAt && token.expiresAt.getTime() <= now.getTime()) return null;
  // Not awaited (touch-later.ts): an import holding SQLite's write lock must not hold the request.
  if (!token.lastUsedAt || now.getTime() - token.lastUsedAt.getTime() > TOUCH_AFTER_MS)
    touchLater(`token ${token.id}`, () => db.apiToken.updateMany({ where: { id: token.id }, data: { lastUsedAt: now } }));
  return {
    kind: "token",
    userId: token.user.id,
    username: token.user.username,
    displayName: token.user.displayName,
    role: roleSchema.parse(token.user.role),
    tokenId: token.id,
    scope: tokenScopeSchema.parse(token.scope),
  };
}
