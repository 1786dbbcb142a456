import { z } from "zod";
import { clientIp } from "@/lib/server/auth/request-info";
import { revokeApiToken } from "@/lib/server/auth/revoke-api-token";
import { requireSessionUser } from "../../_lib/auth";
import { respond } from "../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const params = z.object({ id: z.string().min(1).max(100) });

/** Revoke a token (yours; an admin: anyone's). It stops working at once. */
export async function DELETE(request: Request, ctx: { params: Promise<{ id: string }> }) {
  return respond(async () => {
    const actor = await requireSessionUser(request, "read");
    const { id } = params.parse(await ctx.params);
    return revokeApiToken({ actor, tokenId: id, ip: clientIp(request) });
  });
}
