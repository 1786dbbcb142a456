import { changePassword } from "@/lib/server/auth/change-password";
import { clientIp } from "@/lib/server/auth/request-info";
import { requireSessionUser } from "../../_lib/auth";
import { respond } from "../../_lib/respond";
import { authContract } from "@/lib/server/auth/contract";
import { parseRequest } from "../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Change your own password; your other sessions end. */
export async function POST(request: Request) {
  return respond(async () => {
    const actor = await requireSessionUser(request, "read");
    const { body: input } = await parseRequest(request, authContract.changePassword);
    await changePassword({ actor, ...input, ip: clientIp(request) });
    return { changed: true };
  });
}
