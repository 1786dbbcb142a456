/**
 * Sign-in limits through the real login route: the client address comes from the connection
 * (X-Forwarded-For only via a configured proxy), requests without a known address do not share
 * one lockout, and a stranger's wrong guesses never lock the owner out of a browser that signed
 * in before. Runs on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as login } from "@/app/api/auth/login/route";
import { getDb } from "../db/db";
import type { TestDatabase } from "../db/test-database";
import { useTestDatabase } from "../db/test-database";
import { backoffMs, checkLoginRateLimit, FREE_FAILURES, MAX_BACKOFF_MS } from "./check-login-rate-limit";
import { DEVICE_COOKIE } from "./device-cookie";
import { installPeerAddressHeader, PEER_HEADER } from "./peer-address";
import { clientIp } from "./request-info";
import { createTestUser, TEST_PASSWORD } from "./test-support";

const BASE = "http://refinery.test";
let db: TestDatabase;
const savedProxies = process.env.REFINERY_TRUSTED_PROXIES;
beforeAll(async () => {
  db = await useTestDatabase("sign-in-limits");
  delete process.env.REFINERY_TRUSTED_PROXIES;
  await createTestUser({ username: "owner", role: "reviewer" });
});
afterAll(async () => {
  if (savedProxies === undefined) delete process.env.REFINERY_TRUSTED_PROXIES;
  else process.env.REFINERY_TRUSTED_PROXIES = savedProxies;
  await db.cleanup();
});

const headersOf = (headers: Record<string, string>) => new Request(`${BASE}/`, { headers });
function signIn(username: string, password: string, headers: Record<string, string> = {}) {
  return login(new Request(`${BASE}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ username, password }) }));
}
const deviceCookieOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0] ?? "")
    .find((c) => c.startsWith(`${DEVICE_COOKIE}=`)) ?? "";

describe("the client address", () => {
  it("is unknown when no server stamped the connection's peer, whatever X-Forwarded-For says", () => {
    expect(clientIp(headersOf({ "x-forwarded-for": "6.6.6.6", [PEER_HEADER]: "198.51.100.1" }))).toBe("unknown");
  });

  it("is the peer; X-Forwarded-For counts only through a configured proxy, read from the right", () => {
    installPeerAddressHeader();
    expect(clientIp(headersOf({ [PEER_HEADER]: "198.51.100.1", "x-forwarded-for": "6.6.6.6" }))).toBe("198.51.100.1");
    expect(clientIp(headersOf({ [PEER_HEADER]: "::ffff:198.51.100.1" }))).toBe("198.51.100.1");
    process.env.REFINERY_TRUSTED_PROXIES = "10.0.0.0/8, ::1";
    try {
      expect(clientIp(headersOf({ [PEER_HEADER]: "10.1.2.3", "x-forwarded-for": "203.0.113.5" }))).toBe("203.0.113.5");
      // The client wrote the left part itself; the proxy appended the address it saw.
      expect(clientIp(headersOf({ [PEER_HEADER]: "10.1.2.3", "x-forwarded-for": "6.6.6.6, 203.0.113.5, 10.9.9.9" }))).toBe("203.0.113.5");
      expect(clientIp(headersOf({ [PEER_HEADER]: "::1", "x-forwarded-for": "garbage" }))).toBe("::1");
      expect(clientIp(headersOf({ [PEER_HEADER]: "198.51.100.1", "x-forwarded-for": "203.0.113.5" }))).toBe("198.51.100.1");
    } finally {
      delete process.env.REFINERY_TRUSTED_PROXIES;
    }
  });
});

describe("sign-in limits", () => {
  it("failures from rotating X-Forwarded-For addresses are counted on the real peer, and the audit log records it", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) {
      const res = await signIn(`nobody${i}`, "wrong", { [PEER_HEADER]: "198.51.100.66", "x-forwarded-for": `10.${i}.0.1` });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(statuses.slice(20)).toEqual([429, 429]);
    const ips = new Set((await getDb().auditEvent.findMany({ where: { action: "auth.login_failed" }, select: { ip: true } })).map((e) => e.ip));
    expect([...ips]).toEqual(["198.51.100.66"]);
  });

  it("requests whose address is unknown do not share one lockout", async () => {
    for (let i = 0; i < 25; i++) expect((await signIn(`ghost${i}`, "wrong", { [PEER_HEADER]: "not-an-ip" })).status).toBe(401);
    expect((await signIn("owner", TEST_PASSWORD, { [PEER_HEADER]: "not-an-ip" })).status).toBe(200);
  });

  it("a stranger's wrong guesses slow the stranger, not the owner's known browser", async () => {
    const first = await signIn("owner", TEST_PASSWORD, { [PEER_HEADER]: "192.0.2.10" });
    expect(first.status).toBe(200);
    const device = deviceCookieOf(first);
    expect(device).toMatch(new RegExp(`^${DEVICE_COOKIE}=.+`));
    for (let i = 0; i < FREE_FAILURES; i++) expect((await signIn("owner", `guess ${i}`, { [PEER_HEADER]: "203.0.113.77" })).status).toBe(401);
    // The stranger now waits (seconds, doubling), even with the right password…
    const stranger = await signIn("owner", "guess again", { [PEER_HEADER]: "203.0.113.77" });
    expect(stranger.status).toBe(429);
    expect(Number(stranger.headers.get("retry-after"))).toBeLessThanOrEqual(2);
    const newBrowser = await signIn("owner", TEST_PASSWORD, { [PEER_HEADER]: "192.0.2.10" });
    expect(newBrowser.status).toBe(429);
    // …while the owner's browser that signed in before gets in at once.
    const owner = await signIn("owner", TEST_PASSWORD, { [PEER_HEADER]: "192.0.2.10", cookie: device });
    expect(owner.status).toBe(200);
    // A device cookie of another account, or a forged one, does not help.
    const forged = device.replace(/.$/, (c) => (c === "A" ? "B" : "A"));
    expect((await signIn("owner", TEST_PASSWORD, { [PEER_HEADER]: "192.0.2.10", cookie: forged })).status).toBe(429);
  });

  it("the backoff doubles from one second and is capped", async () => {
    expect([3, 4, 5, 6, 7, 10].map(backoffMs)).toEqual([0, 0, 1000, 2000, 4000, 32000]);
    expect(backoffMs(40)).toBe(MAX_BACKOFF_MS);
    // Once the wait since the latest failure is over, the next try is let through.
    const latest = await getDb().loginAttempt.findFirstOrThrow({ where: { username: "owner", ok: false }, orderBy: { createdAt: "desc" } });
    const after = new Date(latest.createdAt.getTime() + backoffMs(FREE_FAILURES) + 10);
    await expect(checkLoginRateLimit({ username: "owner", ip: "192.0.2.10", now: after })).resolves.toBeUndefined();
    await expect(checkLoginRateLimit({ username: "owner", ip: "192.0.2.10", now: new Date(latest.createdAt.getTime() + 10) })).rejects.toMatchObject({ code: "RATE_LIMITED" });
  });
});
