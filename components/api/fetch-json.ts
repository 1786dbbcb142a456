/**
 * The browser side of the API's contract. `{error: {code, message}}` becomes an ApiError;
 * mutating requests echo the session's CSRF token (the readable `refinery_csrf` cookie) in
 * X-CSRF-Token; a 401 from a data endpoint means the session ended, so the page goes to the
 * sign-in page (or to /setup on a fresh install) and comes back afterwards.
 */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

const CSRF_COOKIE = "refinery_csrf";
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function isErrorBody(value: unknown): value is { error: { code: string; message: string } } {
  if (typeof value !== "object" || value === null || !("error" in value)) return false;
  const error = value.error;
  return typeof error === "object" && error !== null && "code" in error && "message" in error;
}

/** The CSRF token of this browser's session, or null (no session, or not in a browser). */
export function readCsrfToken(): string | null {
  if (typeof document === "undefined") return null;
  for (const part of document.cookie.split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === CSRF_COOKIE) return decodeURIComponent(value.join("="));
  }
  return null;
}

function sendToSignIn(code: string): void {
  if (typeof window === "undefined") return;
  const here = `${window.location.pathname}${window.location.search}`;
  if (here.startsWith("/login") || here.startsWith("/setup")) return;
  window.location.assign(code === "SETUP_REQUIRED" ? "/setup" : `/login?next=${encodeURIComponent(here)}`);
}

export async function fetchJson<T>(url: string, init?: RequestInit): Promise<T> {
  const method = (init?.method ?? "GET").toUpperCase();
  const csrf = SAFE_METHODS.has(method) ? null : readCsrfToken();
  let response: Response;
  try {
    response = await fetch(url, { ...init, headers: { accept: "application/json", ...(csrf ? { "x-csrf-token": csrf } : {}), ...init?.headers } });
  } catch {
    throw new ApiError("NETWORK", "could not reach the server; is it still running?", 0);
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const code = isErrorBody(body) ? body.error.code : "INTERNAL";
    // Sign-in and set-up answer 401 for a wrong password: that is for the form to show.
    if (response.status === 401 && !url.startsWith("/api/auth/")) sendToSignIn(code);
    if (isErrorBody(body)) throw new ApiError(body.error.code, body.error.message, response.status);
    throw new ApiError("INTERNAL", `the server answered ${response.status} ${response.statusText}`, response.status);
  }
  return body as T;
}
