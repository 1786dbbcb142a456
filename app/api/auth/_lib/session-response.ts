import { NextResponse } from "next/server";
import { isHttps } from "@/lib/server/auth/request-info";
import { checkSameOrigin } from "@/lib/server/auth/check-csrf";
import { clearedSessionCookies, sessionCookies } from "@/lib/server/auth/session-cookies";
import type { CookieSpec, SessionCookieValues } from "@/lib/server/auth/session-cookies";
import { errorResponse } from "../../_lib/respond";

function withCookies(response: NextResponse, cookies: CookieSpec[]): NextResponse {
  for (const { name, value, ...options } of cookies) response.cookies.set(name, value, options);
  return response;
}

/** A JSON answer that also starts a session in the browser. */
export function sessionResponse(request: Request, body: unknown, session: SessionCookieValues, status = 200): NextResponse {
  return withCookies(NextResponse.json(body, { status }), sessionCookies(session, isHttps(request)));
}

export function signedOutResponse(request: Request, body: unknown): NextResponse {
  return withCookies(NextResponse.json(body), clearedSessionCookies(isHttps(request)));
}

/**
 * Sign-in and set-up have no session yet, so no CSRF token: the Origin check stops another
 * site from signing a browser into an account of the attacker's choosing.
 */
export { checkSameOrigin };

export async function handle(work: () => Promise<NextResponse>): Promise<NextResponse> {
  try {
    return await work();
  } catch (error) {
    return errorResponse(error);
  }
}
