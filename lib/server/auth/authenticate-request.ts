/**
 * Who is making this request: a bearer token (scripts, agents) or the session cookie (a
 * person in a browser, with the CSRF check for mutating methods). Throws SETUP_REQUIRED while
 * no account exists, UNAUTHENTICATED when there are no working credentials, FORBIDDEN on a
 * failed CSRF check.
 */
import type { Actor } from "../../auth/permissions";
import { AppError } from "../../errors";
import { checkCsrf } from "./check-csrf";
import { getSessionActor } from "./get-session-actor";
import { getTokenActor } from "./get-token-actor";
import { isSetupNeeded } from "./is-setup-needed";
import { readCookie } from "./request-info";
import { SESSION_COOKIE } from "./session-cookies";

export async function authenticateRequest(request: Request): Promise<Actor> {
  const authorization = request.headers.get("authorization");
  if (authorization !== null) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    const actor = match?.[1] ? await getTokenActor({ secret: match[1] }) : null;
    if (actor) return actor;
    await refuseAnonymous();
    throw new AppError("UNAUTHENTICATED", "the API token is not valid (unknown, expired or revoked, or its owner is disabled)");
  }
  const secret = readCookie(request, SESSION_COOKIE);
  const session = secret ? await getSessionActor({ secret }) : null;
  if (!session) {
    await refuseAnonymous();
    throw new AppError("UNAUTHENTICATED", secret ? "your session has ended: sign in again" : "sign in first (or send Authorization: Bearer <token>)");
  }
  checkCsrf(request, session.csrfToken);
  const { csrfToken: _csrf, expiresAt: _expires, ...actor } = session;
  return actor;
}

async function refuseAnonymous(): Promise<void> {
  if (await isSetupNeeded()) throw new AppError("SETUP_REQUIRED", "no account exists yet: open /setup to create the first admin");
}
