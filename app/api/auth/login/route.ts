import { DEVICE_COOKIE, DEVICE_TTL_MS } from "@/lib/server/auth/device-cookie";
import { clientIp, isHttps, readCookie, userAgentOf } from "@/lib/server/auth/request-info";
import { deviceCookie } from "@/lib/server/auth/session-cookies";
import { signIn } from "@/lib/server/auth/sign-in";
import { checkSameOrigin, handle, sessionResponse } from "../_lib/session-response";
import { authContract } from "@/lib/server/auth/contract";
import { parseRequest } from "../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Sign in: sets the session and CSRF cookies. 401 on a wrong name or password, 429 while the per-name backoff or the per-address limit holds (a browser that signed in as this account before skips both); also sets the device cookie. */
export async function POST(request: Request) {
  return handle(async () => {
    checkSameOrigin(request);
    const { body: input } = await parseRequest(request, authContract.signIn);
    const { actor, cookies, deviceToken } = await signIn({ ...input, ip: clientIp(request), userAgent: userAgentOf(request), deviceToken: readCookie(request, DEVICE_COOKIE) });
    const user = { id: actor.userId, username: actor.username, displayName: actor.displayName, role: actor.role };
    const response = sessionResponse(request, { user, csrfToken: cookies.csrfToken }, cookies);
    const { name, value, ...options } = deviceCookie(DEVICE_COOKIE, deviceToken, DEVICE_TTL_MS, isHttps(request));
    response.cookies.set(name, value, options);
    return response;
  });
}
