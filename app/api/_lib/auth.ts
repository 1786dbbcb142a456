/**
 * Authentication and authorization for route handlers: every handler calls `requireActor`
 * first, inside `respond`, with the permission it needs. Hiding a button in the browser is never
 * the check; this is.
 *
 * - Browser: the httpOnly session cookie; mutating methods (POST/PUT/PATCH/DELETE) must also
 *   send the session's CSRF token in `X-CSRF-Token` (and a same-origin `Origin` when present).
 * - Scripts and agents: `Authorization: Bearer <token>`; capped by the token's scope, never
 *   allowed to decide (lib/auth/permissions.ts).
 * - No account yet: SETUP_REQUIRED (401) until the first visitor creates the admin.
 */
import type { Actor, Permission } from "@/lib/auth/permissions";
import { can } from "@/lib/auth/permissions";
import { AppError } from "@/lib/errors";
import { authenticateRequest } from "@/lib/server/auth/authenticate-request";

const NEEDS: Record<Permission, string> = {
  read: "read",
  propose: "propose (start runs, queue questions, submit proposals)",
  import: "import graphs",
  decide: "decide (approve, reject, apply)",
  revert: "revert versions",
  admin: "administer",
};

export async function requireActor(request: Request, permission: Permission): Promise<Actor> {
  const actor = await authenticateRequest(request);
  if (!can(actor, permission)) {
    const who = actor.kind === "token" ? `a ${actor.scope} token` : actor.kind === "user" ? `the ${actor.role} role` : actor.kind;
    throw new AppError("FORBIDDEN", `${who} does not have the "${permission}" permission (needed to ${NEEDS[permission]})`, { permission });
  }
  return actor;
}

/** For endpoints about one's own account (tokens, password): a person in a browser session. */
export async function requireSessionUser(request: Request, permission: Permission): Promise<Extract<Actor, { kind: "user" }>> {
  const actor = await requireActor(request, permission);
  if (actor.kind !== "user") throw new AppError("FORBIDDEN", "this needs a person signed in with a browser session, not an API token");
  return actor;
}
