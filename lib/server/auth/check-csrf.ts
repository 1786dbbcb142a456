/**
 * CSRF for cookie-authenticated requests. The cookie goes along with any cross-site request, so
 * a mutating one must also prove it came from our page: echo the session's token in
 * X-CSRF-Token (another site cannot read our cookies), and when the browser names an Origin it
 * must be this host. Bearer-token requests carry no ambient credential and skip this.
 */
import { AppError } from "../../errors";
import { requestHost } from "./request-info";
import { isSameSecret } from "./secrets";
import { CSRF_HEADER } from "./session-cookies";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function isMutatingMethod(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

/** A request whose Origin header (when the browser sends one) is another site is refused. */
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

export function checkCsrf(request: Request, csrfToken: string): void {
  if (!isMutatingMethod(request.method)) return;
  checkSameOrigin(request);
  const sent = request.headers.get(CSRF_HEADER);
  if (!sent || !isSameSecret(sent, csrfToken)) throw new AppError("FORBIDDEN", "missing or wrong X-CSRF-Token header: reload the page and try again");
}
