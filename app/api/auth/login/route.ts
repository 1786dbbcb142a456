import { z } from "zod";
import { clientIp, userAgentOf } from "@/lib/server/auth/request-info";
import { signIn } from "@/lib/server/auth/sign-in";
import { readJson } from "../../_lib/read-json";
import { checkSameOrigin, handle, sessionResponse } from "../_lib/session-response";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const body = z.object({ username: z.string().max(200), password: z.string().max(1000) });

/** Sign in: sets the session and CSRF cookies. 401 on a wrong name or password, 429 after too many failures. */
export async function POST(request: Request) {
  return handle(async () => {
    checkSameOrigin(request);
    const input = body.parse(await readJson(request));
    const { actor, cookies } = await signIn({ ...input, ip: clientIp(request), userAgent: userAgentOf(request) });
    const user = { id: actor.userId, username: actor.username, displayName: actor.displayName, role: actor.role };
    return sessionResponse(request, { user, csrfToken: cookies.csrfToken }, cookies);
  });
}
