/**
 * A token for scripts and agents. The secret (`rfy_…`) is returned once, here; only its SHA-256
 * is kept. A token can never do more than its scope, nor more than its owner's role.
 */
import type { Actor, TokenScope } from "../../auth/permissions";
import { can } from "../../auth/permissions";
import { AppError } from "../../errors";
import { recordAudit } from "../audit";
import { getDb } from "../db/db";
import { TOKEN_PREFIX, toApiTokenView, tokenSelect } from "./api-token-fields";
import type { ApiTokenView } from "./api-token-fields";
import { randomSecret, sha256Hex } from "./secrets";

export interface CreateApiTokenOptions {
  actor: Extract<Actor, { kind: "user" }>;
  name: string;
  scope: TokenScope;
  /** Days until it stops working; none: until revoked. */
  expiresInDays?: number;
  ip?: string | null;
}

export async function createApiToken(options: CreateApiTokenOptions): Promise<{ token: ApiTokenView; secret: string }> {
  if (options.scope === "propose" && !can(options.actor, "propose")) {
    throw new AppError("FORBIDDEN", `a ${options.actor.role} cannot propose, so cannot create a token with the propose scope`);
  }
  const secret = `${TOKEN_PREFIX}${randomSecret(32)}`;
  const expiresAt = options.expiresInDays ? new Date(Date.now() + options.expiresInDays * 24 * 60 * 60 * 1000) : null;
  return getDb().$transaction(async (tx) => {
    const row = await tx.apiToken.create({
      data: { userId: options.actor.userId, name: options.name, tokenHash: sha256Hex(secret), prefix: secret.slice(0, TOKEN_PREFIX.length + 8), scope: options.scope, expiresAt },
      select: tokenSelect,
    });
    await recordAudit(
      options.actor,
      { action: "token.create", summary: `created the ${options.scope} token ${JSON.stringify(row.name)} (${row.prefix}…)`, targetType: "token", targetId: row.id, details: { scope: options.scope }, ip: options.ip },
      tx,
    );
    return { token: toApiTokenView(row), secret };
  });
}
