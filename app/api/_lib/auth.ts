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
import { AppError } from "@/lib/errors";

export async function requireActor(_request: Request, _permission: Permission): Promise<Actor> {
  // Replaced by the session/token implementation (lib/server/auth/).
  await Promise.resolve();
  throw new AppError("UNAUTHENTICATED", "sign in first");
}
