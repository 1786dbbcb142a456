/** "Who am I" for the browser: never throws for a missing or dead session, it just says so. */
import type { Permission, Role, TokenScope } from "../../auth/permissions";
import { permissionsOf } from "../../auth/permissions";
import { getSessionActor } from "./get-session-actor";
import { getTokenActor } from "./get-token-actor";
import { isSetupNeeded } from "./is-setup-needed";
import { readCookie } from "./request-info";
import { SESSION_COOKIE } from "./session-cookies";

export interface SessionInfo {
  setupNeeded: boolean;
  user: { id: string; username: string; displayName: string; role: Role } | null;
  /** Set when the request came with an API token instead of a session. */
  tokenScope: TokenScope | null;
  permissions: Permission[];
  /** The token mutating requests must echo in X-CSRF-Token (null without a session). */
  csrfToken: string | null;
  expiresAt: string | null;
}

export async function getSessionInfo(request: Request): Promise<SessionInfo> {
  const none: SessionInfo = { setupNeeded: false, user: null, tokenScope: null, permissions: [], csrfToken: null, expiresAt: null };
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  if (bearer) {
    const token = await getTokenActor({ secret: bearer });
    if (token) {
      const user = { id: token.userId, username: token.username, displayName: token.displayName, role: token.role };
      return { ...none, user, tokenScope: token.scope, permissions: permissionsOf(token) };
    }
  } else {
    const secret = readCookie(request, SESSION_COOKIE);
    const session = secret ? await getSessionActor({ secret }) : null;
    if (session) {
      const user = { id: session.userId, username: session.username, displayName: session.displayName, role: session.role };
      return { ...none, user, permissions: permissionsOf(session), csrfToken: session.csrfToken, expiresAt: session.expiresAt.toISOString() };
    }
  }
  return { ...none, setupNeeded: await isSetupNeeded() };
}
