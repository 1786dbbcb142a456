import type { Actor } from "../../auth/permissions";
import { can } from "../../auth/permissions";
import { AppError } from "../../errors";
import { recordAudit } from "../audit";
import { getDb } from "../db/db";
import { toApiTokenView, tokenSelect } from "./api-token-fields";
import type { ApiTokenView } from "./api-token-fields";

/** Revoke one of your tokens (an admin: anyone's). Revoking twice is harmless. */
export async function revokeApiToken(options: { actor: Extract<Actor, { kind: "user" }>; tokenId: string; ip?: string | null }): Promise<ApiTokenView> {
  return getDb().$transaction(async (tx) => {
    const row = await tx.apiToken.findUnique({ where: { id: options.tokenId }, select: { userId: true, revokedAt: true } });
    // Someone else's token reads as missing: its existence is not yours to learn.
    if (!row || (row.userId !== options.actor.userId && !can(options.actor, "admin"))) throw new AppError("NOT_FOUND", `no token with id ${JSON.stringify(options.tokenId)}`);
    const updated = await tx.apiToken.update({ where: { id: options.tokenId }, data: { revokedAt: row.revokedAt ?? new Date() }, select: tokenSelect });
    if (!row.revokedAt) {
      await recordAudit(
        options.actor,
        { action: "token.revoke", summary: `revoked the token ${JSON.stringify(updated.name)} (${updated.prefix}…) of ${updated.user.username}`, targetType: "token", targetId: updated.id, ip: options.ip },
        tx,
      );
    }
    return toApiTokenView(updated);
  });
}
