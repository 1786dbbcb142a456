import { deleteSession } from "@/lib/server/auth/delete-session";
import { clientIp } from "@/lib/server/auth/request-info";
import { requireSessionUser } from "../../_lib/auth";
import { handle, signedOutResponse } from "../_lib/session-response";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Sign out: the session is deleted on the server and both cookies are cleared. */
export async function POST(request: Request) {
  return handle(async () => {
    const actor = await requireSessionUser(request, "read");
    await deleteSession({ sessionId: actor.sessionId, actor, ip: clientIp(request) });
    return signedOutResponse(request, { signedOut: true });
  });
}
