import { clientIp } from "@/lib/server/auth/request-info";
import { revokeApiToken } from "@/lib/server/auth/revoke-api-token";
import { requireSessionUser } from "../../_lib/auth";
import { respond } from "../../_lib/respond";
import { authContract } from "@/lib/server/auth/contract";
import { parseRequest } from "../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Revoke a token (yours; an admin: anyone's). It stops working at once. */
export async function DELETE(request: Request, ctx: { params: Promise<{ id: string }> }) {
  return respond(async () => {
    const actor = await requireSessionUser(request, "read");
    const { id } = (await parseRequest(request, authContract.revokeApiToken, ctx)).params;
    return revokeApiToken({ actor, tokenId: id, ip: clientIp(request) });
  });
}
