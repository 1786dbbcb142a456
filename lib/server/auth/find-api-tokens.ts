import type { Actor } from "../../auth/permissions";
import { can } from "../../auth/permissions";
import { getDb } from "../db/db";
import { toApiTokenView, tokenSelect } from "./api-token-fields";
import type { ApiTokenView } from "./api-token-fields";

/** The actor's own tokens; an admin sees everyone's. */
export async function findApiTokens(options: { actor: Extract<Actor, { kind: "user" }> }): Promise<ApiTokenView[]> {
  const where = can(options.actor, "admin") ? {} : { userId: options.actor.userId };
  const rows = await getDb().apiToken.findMany({ where, select: tokenSelect, orderBy: { createdAt: "desc" } });
  return rows.map(toApiTokenView);
}
