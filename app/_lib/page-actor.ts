/**
 * The session check of server-rendered pages: one line at the top of a page that reads
 * lib/server directly. Without a working session it redirects to /login (and back afterwards),
 * or to /setup while no account exists.
 */
import { cache } from "react";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import type { Actor, Permission } from "@/lib/auth/permissions";
import { can } from "@/lib/auth/permissions";
import { getSessionActor } from "@/lib/server/auth/get-session-actor";
import { isSetupNeeded } from "@/lib/server/auth/is-setup-needed";
import { SESSION_COOKIE } from "@/lib/server/auth/session-cookies";

export type PageActor = Extract<Actor, { kind: "user" }>;

/**
 * The signed-in person, or null (never redirects): for the header and the sign-in page.
 * `cache`: the layout and the page of one request share one session read.
 */
export const findPageActor = cache(async (): Promise<PageActor | null> => {
  const secret = (await cookies()).get(SESSION_COOKIE)?.value;
  const session = secret ? await getSessionActor({ secret }) : null;
  if (!session) return null;
  const { csrfToken: _csrf, expiresAt: _expires, ...actor } = session;
  return actor;
});

/**
 * Where to come back to after signing in: a path on this site only (never an open redirect).
 * Judged as the browser will parse it: URL parsing drops tabs and newlines and reads "\\" as
 * "/", so "/\t/evil.example" is "//evil.example", another site.
 */
export function safeNext(next: string | null | undefined): string {
  if (!next || !next.startsWith("/")) return "/";
  const base = "http://refinery.invalid";
  let url: URL;
  try {
    url = new URL(next, base);
  } catch {
    return "/";
  }
  return url.origin === base ? `${url.pathname}${url.search}${url.hash}` : "/";
}

export async function requirePageActor(): Promise<PageActor> {
  const actor = await findPageActor();
  if (actor) return actor;
  if (await isSetupNeeded()) redirect("/setup");
  const path = (await headers()).get("x-refinery-path");
  redirect(path && path !== "/" ? `/login?next=${encodeURIComponent(safeNext(path))}` : "/login");
}

/** The person may use a page only with this permission (e.g. admin pages); others see a 403 note. */
export async function findPagePermission(permission: Permission): Promise<{ actor: PageActor; isAllowed: boolean }> {
  const actor = await requirePageActor();
  return { actor, isAllowed: can(actor, permission) };
}
