/**
 * Accounts, sessions, CSRF, rate limiting and tokens, through the real route handlers with
 * real Requests (cookies and headers exactly as a browser or a script sends them).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/server/db/db";
import { importGraphFromPath } from "@/lib/server/graphs/import-graph";
import { getRun } from "@/lib/server/runs/runs";
import { createSession } from "@/lib/server/auth/create-session";
import { createTestToken, createTestUser, signInHeaders, TEST_PASSWORD } from "@/lib/server/auth/test-support";
import { installPeerAddressHeader, PEER_HEADER } from "@/lib/server/auth/peer-address";
import { useTestDatabase } from "@/lib/server/db/test-database";
import type { TestDatabase } from "@/lib/server/db/test-database";
import { dataPath } from "@/lib/test/data";
import { POST as setup } from "./setup/route";
import { POST as login } from "./login/route";
import { POST as logout } from "./logout/route";
import { GET as session } from "./session/route";
import { POST as changePassword } from "./password/route";
import { GET as listUsers, POST as createUser } from "../users/route";
import { PATCH as updateUser } from "../users/[id]/route";
import { GET as listTokens, POST as createToken } from "../tokens/route";
import { DELETE as revokeToken } from "../tokens/[id]/route";
import { GET as listGraphs } from "../graphs/route";
import { GET as listRuns, POST as startRun } from "../graphs/[name]/runs/route";
import { POST as addQuestions } from "../graphs/[name]/questions/route";
import { POST as revert } from "../graphs/[name]/versions/[version]/revert/route";
import { PUT as saveSettings } from "../settings/llm/route";

const BASE = "http://refinery.test";
type Headers = Record<string, string>;
const json = (headers: Headers, body: unknown, method = "POST"): RequestInit => ({ method, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
const req = (path: string, init: RequestInit = {}) => new Request(`${BASE}${path}`, init);
const graphCtx = (name: string) => ({ params: Promise.resolve({ name }) });
const codeOf = async (res: Response) => ((await res.clone().json()) as { error?: { code: string } }).error?.code;

/** The cookies a response sets, as one Cookie header (what the browser would send back). */
function cookiesOf(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

function loginAs(username: string, password: string, headers: Headers = {}) {
  return login(req("/api/auth/login", json(headers, { username, password })));
}

let db: TestDatabase;
/** Whoever won the set-up race below (either of the two names). */
let adminName = "";
beforeAll(async () => {
  db = await useTestDatabase("auth-routes");
});
afterAll(async () => {
  await db.cleanup();
});

describe("first-run set-up", () => {
  it("says set-up is needed, and lets exactly one of two simultaneous set-ups create the admin", async () => {
    const before = (await (await session(req("/api/auth/session"))).json()) as { setupNeeded: boolean; user: unknown };
    expect(before).toMatchObject({ setupNeeded: true, user: null });
    expect(await codeOf(await listGraphs(req("/api/graphs")))).toBe("SETUP_REQUIRED");

    const [a, b] = await Promise.all([
      setup(req("/api/auth/setup", json({}, { username: "Alice", password: "alice-password-1" }))),
      setup(req("/api/auth/setup", json({}, { username: "mallory", password: "mallory-password-1" }))),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const users = await getDb().user.findMany();
    expect(users).toHaveLength(1);
    expect(users[0]?.role).toBe("admin");
    expect(users[0]?.passwordHash).toMatch(/^scrypt\$/);
    const winner = a.status === 201 ? a : b;
    adminName = users[0]?.username ?? "";
    expect(["alice", "mallory"]).toContain(adminName);
    // The set-up signs the new admin in.
    const me = (await (await session(req("/api/auth/session", { headers: { cookie: cookiesOf(winner) } }))).json()) as { user: { role: string }; csrfToken: string };
    expect(me.user.role).toBe("admin");
    expect(me.csrfToken).toEqual(expect.any(String));
    expect(await getDb().auditEvent.count({ where: { action: "auth.setup" } })).toBe(1);
  });

  it("is refused once an account exists, and validates the username", async () => {
    const again = await setup(req("/api/auth/setup", json({}, { username: "eve", password: "eve-password-12" })));
    expect(again.status).toBe(409);
    const bad = await setup(req("/api/auth/setup", json({}, { username: "no spaces allowed", password: "whatever-password" })));
    expect(bad.status).toBe(400);
  });
});

describe("signing in and out", () => {
  beforeAll(async () => {
    await createTestUser({ username: "rita", role: "reviewer" });
    await createTestUser({ username: "vic", role: "viewer" });
  });

  it("refuses a wrong password with 401 and records the failure", async () => {
    const res = await loginAs("rita", "not the password");
    expect(res.status).toBe(401);
    expect(res.headers.getSetCookie()).toEqual([]);
    const failed = await getDb().auditEvent.findFirst({ where: { action: "auth.login_failed" }, orderBy: { id: "desc" } });
    expect(failed).toMatchObject({ actorKind: "system" });
    expect(failed?.summary).toContain('"rita"');
  });

  it("signs in with the right password: httpOnly session cookie, readable CSRF cookie, 7 days", async () => {
    const res = await loginAs("RITA", TEST_PASSWORD);
    expect(res.status).toBe(200);
    const [sessionCookie, csrfCookie] = res.headers.getSetCookie();
    expect(sessionCookie).toMatch(/^refinery_session=[\w-]{40,};/);
    expect(sessionCookie).toMatch(/HttpOnly/i);
    expect(sessionCookie).toMatch(/SameSite=lax/i);
    expect(sessionCookie).toMatch(/Path=\//);
    expect(sessionCookie).toMatch(/Max-Age=604800/);
    expect(sessionCookie).not.toMatch(/Secure/i);
    expect(csrfCookie).toMatch(/^refinery_csrf=/);
    expect(csrfCookie).not.toMatch(/HttpOnly/i);
    // Only the digest of the secret is stored.
    const secret = /^refinery_session=([^;]+)/.exec(sessionCookie ?? "")?.[1] ?? "";
    expect(await getDb().session.count({ where: { id: secret } })).toBe(0);
    expect(await getDb().auditEvent.count({ where: { action: "auth.login" } })).toBe(1);
  });

  it("marks the cookies Secure over https", async () => {
    const res = await login(new Request("https://refinery.test/api/auth/login", json({}, { username: "rita", password: TEST_PASSWORD })));
    expect(res.headers.getSetCookie()[0]).toMatch(/Secure/i);
  });

  it("signs out: the session stops working and the cookies are cleared", async () => {
    const res = await loginAs("rita", TEST_PASSWORD);
    const cookie = cookiesOf(res);
    const { csrfToken } = (await res.json()) as { csrfToken: string };
    expect((await listGraphs(req("/api/graphs", { headers: { cookie } }))).status).toBe(200);
    const out = await logout(req("/api/auth/logout", { method: "POST", headers: { cookie, "x-csrf-token": csrfToken } }));
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie()[0]).toMatch(/Max-Age=0/);
    expect(await codeOf(await listGraphs(req("/api/graphs", { headers: { cookie } })))).toBe("UNAUTHENTICATED");
  });

  it("refuses an expired session and deletes it", async () => {
    const user = await getDb().user.findUniqueOrThrow({ where: { username: "rita" } });
    const old = await createSession({ userId: user.id, now: new Date(Date.now() - 8 * 24 * 60 * 60 * 1000) });
    const res = await listGraphs(req("/api/graphs", { headers: { cookie: `refinery_session=${old.secret}` } }));
    expect(res.status).toBe(401);
    expect(await getDb().session.count({ where: { id: old.sessionId } })).toBe(0);
  });

  it("rate-limits: after 5 failures for a name even the right password waits (a backoff) with Retry-After", async () => {
    await createTestUser({ username: "rob", role: "viewer" });
    for (let i = 0; i < 5; i++) expect((await loginAs("rob", `wrong guess ${i}`)).status).toBe(401);
    const limited = await loginAs("rob", TEST_PASSWORD);
    expect(limited.status).toBe(429);
    expect(await codeOf(limited)).toBe("RATE_LIMITED");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // Another name is not affected (lib/server/auth/sign-in-limits.test.ts has the rest).
    expect((await loginAs("vic", TEST_PASSWORD)).status).toBe(200);
  });

  it("rate-limits one address trying many names", async () => {
    installPeerAddressHeader();
    const ip = { [PEER_HEADER]: "10.6.6.6" };
    for (let i = 0; i < 20; i++) expect((await loginAs(`nobody${i}`, "wrong password", ip)).status).toBe(401);
    expect((await loginAs("vic", TEST_PASSWORD, ip)).status).toBe(429);
  });

  it("changes one's own password only with the current one", async () => {
    await createTestUser({ username: "pat", role: "viewer" });
    const headers = await signInHeaders("pat");
    const wrong = await changePassword(req("/api/auth/password", json(headers, { currentPassword: "nope", newPassword: "a brand new password" })));
    expect(wrong.status).toBe(400);
    const ok = await changePassword(req("/api/auth/password", json(headers, { currentPassword: TEST_PASSWORD, newPassword: "a brand new password" })));
    expect(ok.status).toBe(200);
    expect((await loginAs("pat", "a brand new password")).status).toBe(200);
  });
});

describe("CSRF", () => {
  it("refuses a cookie-authenticated POST without, or with a wrong, X-CSRF-Token, or from another origin", async () => {
    const headers = await signInHeaders("rita");
    const body = { questions: ["Who wrote it?"] };
    const post = (h: Headers) => addQuestions(req("/api/graphs/nosuch/questions", json(h, body)), graphCtx("nosuch"));
    expect((await post({ cookie: headers.cookie })).status).toBe(403);
    expect((await post({ cookie: headers.cookie, "x-csrf-token": "wrong" })).status).toBe(403);
    expect((await post({ ...headers, origin: "https://evil.example" })).status).toBe(403);
    // Right token, same origin: past authentication (the graph does not exist).
    expect(await codeOf(await post({ ...headers, origin: BASE, host: "refinery.test" }))).toBe("NOT_FOUND");
    expect(await codeOf(await post(headers))).toBe("NOT_FOUND");
  });

  it("does not ask for a CSRF token on reads, nor from bearer tokens", async () => {
    const headers = await signInHeaders("rita");
    expect((await listGraphs(req("/api/graphs", { headers: { cookie: headers.cookie } }))).status).toBe(200);
    const token = await createTestToken("rita", "propose");
    expect(await codeOf(await addQuestions(req("/api/graphs/nosuch/questions", json(token, { questions: ["q?"] })), graphCtx("nosuch")))).toBe("NOT_FOUND");
  });
});

describe("accounts (admin)", () => {
  it("creates accounts with a role and changes them; only admins", async () => {
    const admin = await signInHeaders(adminName);
    const created = await createUser(req("/api/users", json(admin, { username: "Dora", password: "dora-password-1", role: "viewer" })));
    expect(created.status).toBe(201);
    const dora = (await created.json()) as { id: string; username: string; role: string };
    expect(dora).toMatchObject({ username: "dora", role: "viewer" });
    expect(JSON.stringify(dora)).not.toContain("scrypt");
    expect((await createUser(req("/api/users", json(admin, { username: "dora", password: "dora-password-1", role: "viewer" })))).status).toBe(409);
    expect((await createUser(req("/api/users", json(admin, { username: "shorty", password: "short", role: "viewer" })))).status).toBe(400);

    const promoted = await updateUser(req(`/api/users/${dora.id}`, json(admin, { role: "reviewer", displayName: "Dora D." }, "PATCH")), { params: Promise.resolve({ id: dora.id }) });
    expect(((await promoted.json()) as { role: string }).role).toBe("reviewer");
    const rita = await signInHeaders("rita");
    expect((await listUsers(req("/api/users", { headers: rita }))).status).toBe(403);
    expect((await createUser(req("/api/users", json(rita, { username: "x1", password: "x-password-12", role: "admin" })))).status).toBe(403);
    expect(await getDb().auditEvent.count({ where: { action: { in: ["user.create", "user.update"] } } })).toBeGreaterThanOrEqual(2);
  });

  it("refuses to demote or disable the last active admin", async () => {
    const admin = await signInHeaders(adminName);
    const alice = await getDb().user.findUniqueOrThrow({ where: { username: adminName } });
    const ctx = { params: Promise.resolve({ id: alice.id }) };
    expect(await codeOf(await updateUser(req(`/api/users/${alice.id}`, json(admin, { role: "viewer" }, "PATCH")), ctx))).toBe("CONFLICT");
    expect(await codeOf(await updateUser(req(`/api/users/${alice.id}`, json(admin, { disabled: true }, "PATCH")), ctx))).toBe("CONFLICT");
  });

  it("a disabled account cannot sign in, and its sessions and tokens stop working", async () => {
    const admin = await signInHeaders(adminName);
    const user = await createTestUser({ username: "dan", role: "reviewer" });
    const session = await signInHeaders("dan");
    const token = await createTestToken("dan", "read");
    expect((await listGraphs(req("/api/graphs", { headers: token }))).status).toBe(200);
    const res = await updateUser(req(`/api/users/${user.id}`, json(admin, { disabled: true }, "PATCH")), { params: Promise.resolve({ id: user.id }) });
    expect(res.status).toBe(200);
    expect((await listGraphs(req("/api/graphs", { headers: session }))).status).toBe(401);
    expect((await listGraphs(req("/api/graphs", { headers: token }))).status).toBe(401);
    expect((await loginAs("dan", TEST_PASSWORD)).status).toBe(401);
  });

  it("an admin's password reset ends the account's sessions", async () => {
    const admin = await signInHeaders(adminName);
    const user = await createTestUser({ username: "erin", role: "viewer" });
    const session = await signInHeaders("erin");
    await updateUser(req(`/api/users/${user.id}`, json(admin, { password: "reset-password-99" }, "PATCH")), { params: Promise.resolve({ id: user.id }) });
    expect((await listGraphs(req("/api/graphs", { headers: session }))).status).toBe(401);
    expect((await loginAs("erin", "reset-password-99")).status).toBe(200);
  });
});

describe("API tokens", () => {
  beforeAll(async () => {
    await importGraphFromPath({ path: dataPath("graphify", "httpx"), name: "httpx" });
  });

  it("shows the secret once, lists only the prefix, and records last use", async () => {
    const rita = await signInHeaders("rita");
    const res = await createToken(req("/api/tokens", json(rita, { name: "ci bot", scope: "propose" })));
    expect(res.status).toBe(201);
    const { token, secret } = (await res.json()) as { token: { id: string; prefix: string }; secret: string };
    expect(secret).toMatch(/^rfy_[\w-]{40,}$/);
    expect(secret.startsWith(token.prefix)).toBe(true);
    const listed = await (await listTokens(req("/api/tokens", { headers: rita }))).text();
    expect(listed).toContain(token.prefix);
    expect(listed).not.toContain(secret);
    expect((await listGraphs(req("/api/graphs", { headers: { authorization: `Bearer ${secret}` } }))).status).toBe(200);
    // Written after the request (touch-later.ts), not before its answer.
    await vi.waitFor(async () => expect((await getDb().apiToken.findUniqueOrThrow({ where: { id: token.id } })).lastUsedAt).not.toBeNull());
    // A viewer may not mint a propose token; tokens cannot mint tokens.
    expect((await createToken(req("/api/tokens", json(await signInHeaders("vic"), { name: "x", scope: "propose" })))).status).toBe(403);
    expect((await createToken(req("/api/tokens", json({ authorization: `Bearer ${secret}` }, { name: "x", scope: "read" })))).status).toBe(403);
  });

  it("a read token cannot start a run; a propose token can, and the run records who started it", async () => {
    const read = await createTestToken("rita", "read");
    const denied = await startRun(req("/api/graphs/httpx/runs", json(read, { question: "What does Client inherit from?" })), graphCtx("httpx"));
    expect(denied.status).toBe(403);
    expect(((await denied.json()) as { error: { message: string } }).error.message).toContain('"propose"');

    const propose = await createTestToken("rita", "propose");
    const started = await startRun(req("/api/graphs/httpx/runs", json(propose, { question: "What does Client inherit from?" })), graphCtx("httpx"));
    expect(started.status).toBe(202);
    const { runId } = (await started.json()) as { runId: string };
    await expect.poll(async () => (await getRun(runId)).status, { timeout: 30_000 }).not.toBe("running");
    const row = await getDb().run.findUniqueOrThrow({ where: { id: runId } });
    expect(row.startedByName).toBe("rita via token");
    expect(row.startedById).toEqual(expect.any(String));
    expect(await getDb().auditEvent.count({ where: { action: "run.start", targetId: runId } })).toBe(1);
    expect((await listRuns(req("/api/graphs/httpx/runs", { headers: read }), graphCtx("httpx"))).status).toBe(200);
  });

  it("can never revert or administer, even an admin's token", async () => {
    const token = await createTestToken(adminName, "propose");
    const revertCtx = { params: Promise.resolve({ name: "httpx", version: "2" }) };
    expect(await codeOf(await revert(req("/api/graphs/httpx/versions/2/revert", json(token, {})), revertCtx))).toBe("FORBIDDEN");
    expect(await codeOf(await saveSettings(req("/api/settings/llm", json(token, { model: "x" }, "PUT"))))).toBe("FORBIDDEN");
    expect(await codeOf(await listUsers(req("/api/users", { headers: token })))).toBe("FORBIDDEN");
  });

  it("stops working when revoked or expired; others cannot revoke your token", async () => {
    const rita = await signInHeaders("rita");
    const { token, secret } = (await (await createToken(req("/api/tokens", json(rita, { name: "short-lived", scope: "read" })))).json()) as { token: { id: string }; secret: string };
    const bearer = { authorization: `Bearer ${secret}` };
    const ctx = { params: Promise.resolve({ id: token.id }) };
    expect((await revokeToken(req(`/api/tokens/${token.id}`, { method: "DELETE", headers: await signInHeaders("vic") }), ctx)).status).toBe(404);
    expect((await listGraphs(req("/api/graphs", { headers: bearer }))).status).toBe(200);
    expect((await revokeToken(req(`/api/tokens/${token.id}`, { method: "DELETE", headers: rita }), ctx)).status).toBe(200);
    expect(await codeOf(await listGraphs(req("/api/graphs", { headers: bearer })))).toBe("UNAUTHENTICATED");
    expect(await getDb().auditEvent.count({ where: { action: "token.revoke", targetId: token.id } })).toBe(1);

    const expired = await createTestToken("rita", "read");
    await getDb().apiToken.updateMany({ where: { tokenHash: { not: "" }, expiresAt: null, name: "test read" }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await listGraphs(req("/api/graphs", { headers: expired }))).status).toBe(401);
  });
});
