/** Where global setup leaves the admin's signed-in browser state, shared by every spec. */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

export const ADMIN_STATE = path.join(here, ".tmp", "admin-state.json");
export const ADMIN = { username: "admin", displayName: "E2E Admin", password: "e2e admin password" };

/**
 * X-CSRF-Token for API calls made with `request` / `page.request`: the session's token, from the
 * storage state's readable refinery_csrf cookie. Empty before global setup has run (the config
 * is loaded again in each worker, after it).
 */
export function adminCsrfHeader(): Record<string, string> {
  try {
    const state = JSON.parse(fs.readFileSync(ADMIN_STATE, "utf8")) as { cookies: { name: string; value: string }[] };
    const csrf = state.cookies.find((c) => c.name === "refinery_csrf");
    return csrf ? { "x-csrf-token": csrf.value } : {};
  } catch {
    return {};
  }
}
