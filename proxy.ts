/**
 * Next 16's proxy (formerly middleware): a page request without a session cookie goes to the
 * sign-in page, which itself sends a fresh install on to /setup. This is a convenience, not
 * the check: pages verify the session on the server (app/_lib/page-actor.ts) and every API
 * route does (app/api/_lib/auth.ts). It also passes the requested path on to server
 * components, so the sign-in page can come back to it.
 */
import { NextResponse } from "next/server";
import type { NextRequest } from "next/server";

const SESSION_COOKIE = "refinery_session";
export const PATH_HEADER = "x-refinery-path";

export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  const path = `${pathname}${search}`;
  const isOpen = pathname === "/login" || pathname === "/setup";
  if (!isOpen && !request.cookies.get(SESSION_COOKIE)?.value) {
    const url = request.nextUrl.clone();
    url.pathname = "/login";
    url.search = pathname === "/" ? "" : `?next=${encodeURIComponent(path)}`;
    return NextResponse.redirect(url);
  }
  const headers = new Headers(request.headers);
  headers.set(PATH_HEADER, path);
  return NextResponse.next({ request: { headers } });
}

export const config = {
  // Pages only: the API answers 401 itself, and static files need no session.
  matcher: ["/((?!api/|_next/|icon\\.svg|favicon\\.ico|robots\\.txt).*)"],
};
