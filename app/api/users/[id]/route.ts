import { clientIp } from "@/lib/server/auth/request-info";
import { updateUser } from "@/lib/server/auth/update-user";
import { requireSessionUser } from "../../_lib/auth";
import { respond } from "../../_lib/respond";
import { authContract } from "@/lib/server/auth/contract";
import { parseRequest } from "../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Change an account (admin): role, display name, disabled, or reset its password. */
export async function PATCH(request: Request, ctx: { params: Promise<{ id: string }> }) {
  return respond(async () => {
    const actor = await requireSessionUser(request, "admin");
    const { params, body: input } = await parseRequest(request, authContract.updateUser, ctx);
    const { id } = params;
    return updateUser({ actor, userId: id, ...input, ip: clientIp(request) });
  });
}
