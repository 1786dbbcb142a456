/**
 * The browser's two cookies. `refinery_session` holds the session secret (httpOnly: scripts
 * never see it); `refinery_csrf` holds the session's CSRF token and is readable on purpose, so
 * the page can echo it in X-CSRF-Token, which a cross-site form or image cannot do.
 */
export const SESSION_COOKIE = "refinery_session";
export const CSRF_COOKIE = "refinery_csrf";
export const CSRF_HEADER = "x-csrf-token";
export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface CookieSpec {
  name: string;
  value: string;
  httpOnly: boolean;
  secure: boolean;
  sameSite: "lax";
  path: "/";
  maxAge: number;
  expires: Date;
}

export interface SessionCookieValues {
  secret: string;
  csrfToken: string;
  expiresAt: Date;
}

export function sessionCookies(values: SessionCookieValues, secure: boolean): CookieSpec[] {
  const maxAge = Math.max(0, Math.round((values.expiresAt.getTime() - Date.now()) / 1000));
  const common = { secure, sameSite: "lax" as const, path: "/" as const, maxAge, expires: values.expiresAt };
  return [
    { name: SESSION_COOKIE, value: values.secret, httpOnly: true, ...common },
    { name: CSRF_COOKIE, value: values.csrfToken, httpOnly: false, ...common },
  ];
}

export function clearedSessionCookies(secure: boolean): CookieSpec[] {
  const common = { secure, sameSite: "lax" as const, path: "/" as const, maxAge: 0, expires: new Date(0) };
  return [
    { name: SESSION_COOKIE, value: "", httpOnly: true, ...common },
    { name: CSRF_COOKIE, value: "", httpOnly: false, ...common },
  ];
}

/** The long-lived "this browser signed in here before" cookie (device-cookie.ts); survives sign-out on purpose. */
export function deviceCookie(name: string, token: string, ttlMs: number, secure: boolean): CookieSpec {
  return { name, value: token, httpOnly: true, secure, sameSite: "lax", path: "/", maxAge: Math.round(ttlMs / 1000), expires: new Date(Date.now() + ttlMs) };
}
