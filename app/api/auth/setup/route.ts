import { createFirstAdmin } from "@/lib/server/auth/create-first-admin";
import { createSession } from "@/lib/server/auth/create-session";
import { clientIp, userAgentOf } from "@/lib/server/auth/request-info";
import { checkSameOrigin, handle, sessionResponse } from "../_lib/session-response";
import { authContract } from "@/lib/server/auth/contract";
import { parseRequest } from "../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** First run only: create the admin account and sign it in. Refused (409) once any account exists. */
export async function POST(request: Request) {
  return handle(async () => {
    checkSameOrigin(request);
    const { body: input } = await parseRequest(request, authContract.setUpFirstAdmin);
    const ip = clientIp(request);
    const user = await createFirstAdmin({ ...input, ip });
    const session = await createSession({ userId: user.id, ip, userAgent: userAgentOf(request) });
    return sessionResponse(request, { user, csrfToken: session.csrfToken }, session, 201);
  });
}
