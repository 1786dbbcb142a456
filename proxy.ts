/**
 * Next 16's proxy (formerly middleware), for pages only:
 * - a page request without a session cookie goes to the sign-in page, which itself sends a
 *   fresh install on to /setup. This is a convenience, not the check: pages verify the session
 *   on the server (app/_lib/page-actor.ts) and every API route does (app/api/_lib/auth.ts);
 * - it passes the requested path on to server components, so the sign-in page can come back;
 * - it sets the page's Content-Security-Policy with a fresh nonce: Next reads the nonce from
 *   the request's CSP header and puts it on the scripts it renders (every page is dynamic: the
 *   root layout reads the session), so only those run, and `strict-dynamic` lets them load
 *   their chunks. The other security headers, and the CSP of API answers, are in next.config.ts.
 */
import { NextResponse } from "next/server";
import type { NextRequest } from "next/server";

const SESSION_COOKIE = "refinery_session";
export const PATH_HEADER = "x-refinery-path";

/**
 * Styles allow 'unsafe-inline': React renders `style` attributes into the HTML (a nonce cannot
 * cover attributes), and a style cannot run code. Development adds what the dev overlay and
 * hot reload need: eval (React's error stacks) and the websocket.
 */
export function pageContentSecurityPolicy(nonce: string, isDev = process.env.NODE_ENV === "development"): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${isDev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${isDev ? " ws: wss:" : ""}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

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
  const nonce = btoa(crypto.randomUUID());
  const csp = pageContentSecurityPolicy(nonce);
  const headers = new Headers(request.headers);
  headers.set(PATH_HEADER, path);
  headers.set("content-security-policy", csp);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", csp);
  return response;
}

export const config = {
  // Pages only: the API answers 401 itself, and static files need no session.
  matcher: ["/((?!api/|_next/|icon\\.svg|icon-\\d+\\.png|favicon\\.ico|manifest\\.webmanifest|screenshots/|robots\\.txt).*)"],
};
