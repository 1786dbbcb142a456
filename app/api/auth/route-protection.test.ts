/**
 * Every route handler under app/api is protected: imported from the file system (so a new
 * route is covered without touching this test), called without credentials it answers 401,
 * and a viewer calling a mutating method gets 403. The few public or self-service endpoints
 * are listed here by name; adding a route that skips requireActor makes this test fail.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestUser, signInHeaders } from "@/lib/server/auth/test-support";
import { useTestDatabase } from "@/lib/server/db/test-database";
import type { TestDatabase } from "@/lib/server/db/test-database";

const apiRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** Anyone may call these: the API description, first-run set-up, sign-in, "who am I". */
const PUBLIC = new Set(["GET /api/openapi.json", "POST /api/auth/setup", "POST /api/auth/login", "GET /api/auth/session"]);
/** Mutating calls a viewer may make: about their own session, password and tokens. */
const VIEWER_MAY = new Set(["POST /api/auth/logout", "POST /api/auth/password", "POST /api/tokens", "DELETE /api/tokens/{id}"]);

type Handler = (request: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
interface RouteHandler {
  route: string;
  method: (typeof METHODS)[number];
  handler: Handler;
}

function findRouteFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return findRouteFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

async function loadHandlers(): Promise<RouteHandler[]> {
  const handlers: RouteHandler[] = [];
  for (const file of findRouteFiles(apiRoot)) {
    const route = `/api/${path.relative(apiRoot, path.dirname(file)).split(path.sep).join("/")}`.replace(/\[([^\]]+)\]/g, "{$1}");
    const mod = (await import(/* @vite-ignore */ file)) as Record<string, unknown>;
    for (const method of METHODS) {
      const handler = mod[method];
      if (typeof handler === "function") handlers.push({ route, method, handler: handler as Handler });
    }
  }
  return handlers;
}

const PARAMS: Record<string, string> = { name: "nosuchgraph", nodeId: "n1", id: "nosuchid", version: "2", index: "0" };

function call(h: RouteHandler, headers: Record<string, string> = {}): Promise<Response> {
  const url = `http://localhost${h.route.replace(/\{([^}]+)\}/g, (_m, p: string) => PARAMS[p] ?? "x")}`;
  const hasBody = h.method !== "GET" && h.method !== "DELETE";
  const request = new Request(url, { method: h.method, headers: { ...(hasBody ? { "content-type": "application/json" } : {}), ...headers }, body: hasBody ? "{}" : undefined });
  return h.handler(request, { params: Promise.resolve(PARAMS) });
}

/** Every handler that does not answer as expected, as "METHOD /path → status CODE" (all listed at once). */
async function findWrongAnswers(list: RouteHandler[], headers: Record<string, string>, status: number, code: string): Promise<string[]> {
  const wrong: string[] = [];
  for (const h of list) {
    const res = await call(h, headers);
    const body = (await res.json().catch(() => null)) as { error?: { code?: string } } | null;
    if (res.status !== status || body?.error?.code !== code) wrong.push(`${h.method} ${h.route} → ${res.status} ${body?.error?.code ?? ""}`);
  }
  return wrong;
}

let db: TestDatabase;
let handlers: RouteHandler[];

beforeAll(async () => {
  db = await useTestDatabase("route-protection");
  handlers = await loadHandlers();
});
afterAll(async () => {
  await db.cleanup();
});

describe("every API route", () => {
  it("finds the routes, with the public ones among them", () => {
    expect(handlers.length).toBeGreaterThan(30);
    const names = new Set(handlers.map((h) => `${h.method} ${h.route}`));
    for (const name of [...PUBLIC, ...VIEWER_MAY]) expect(names, name).toContain(name);
  });

  it("answers 401 SETUP_REQUIRED without credentials while no account exists", async () => {
    expect(await findWrongAnswers(handlers.filter((h) => !PUBLIC.has(`${h.method} ${h.route}`)), {}, 401, "SETUP_REQUIRED")).toEqual([]);
  });

  it("answers 401 UNAUTHENTICATED without credentials once accounts exist", async () => {
    await createTestUser({ username: "ada", role: "admin" });
    await createTestUser({ username: "vic", role: "viewer" });
    expect(await findWrongAnswers(handlers.filter((h) => !PUBLIC.has(`${h.method} ${h.route}`)), {}, 401, "UNAUTHENTICATED")).toEqual([]);
  });

  it("answers 401 to a made-up session cookie and a made-up token", async () => {
    const runs = handlers.find((h) => h.method === "GET" && h.route === "/api/graphs");
    expect(runs).toBeDefined();
    if (!runs) return;
    expect((await call(runs, { cookie: "refinery_session=forged" })).status).toBe(401);
    expect((await call(runs, { authorization: "Bearer rfy_forged" })).status).toBe(401);
  });

  it("refuses every mutating method to a viewer with 403", async () => {
    const mutating = handlers.filter((h) => h.method !== "GET" && !PUBLIC.has(`${h.method} ${h.route}`) && !VIEWER_MAY.has(`${h.method} ${h.route}`));
    expect(mutating.length).toBeGreaterThan(10);
    expect(await findWrongAnswers(mutating, await signInHeaders("vic"), 403, "FORBIDDEN")).toEqual([]);
  });

  it("lets a viewer read", async () => {
    const viewer = await signInHeaders("vic");
    const graphs = handlers.find((h) => h.method === "GET" && h.route === "/api/graphs");
    if (!graphs) throw new Error("GET /api/graphs is missing");
    expect((await call(graphs, viewer)).status).toBe(200);
  });
});
