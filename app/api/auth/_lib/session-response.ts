import { NextResponse } from "next/server";
import { AppError } from "@/lib/errors";
import { requestHost, isHttps } from "@/lib/server/auth/request-info";
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
export function checkSameOrigin(request: Request): void {
  const origin = request.headers.get("origin");
  if (origin === null) return;
  let host: string | null = null;
  try {
    host = new URL(origin).host.toLowerCase();
  } catch {
    host = null;
  }
  if (host !== requestHost(request)) throw new AppError("FORBIDDEN", "cross-origin request refused (the Origin header is not this site)");
}

export async function handle(work: () => Promise<NextResponse>): Promise<NextResponse> {
  try {
    return await work();
  } catch (error) {
    return errorResponse(error);
  }
}
