/**
 * For route tests: real accounts, real sessions and real tokens, created directly in the test
 * database (no HTTP round trip), so a test sends exactly what a browser or a script would.
 *
 *   await createTestUser({ username: "rita", role: "reviewer" });
 *   const res = await POST(new Request(url, { method: "POST", headers: await signInHeaders("rita"), body }), ctx);
 *   const res2 = await GET(new Request(url, { headers: await createTestToken("rita", "read") }), ctx);
 */
import type { Role, TokenScope } from "../../auth/permissions";
import { AppError } from "../../errors";
import { getDb } from "../db/db";
import { TOKEN_PREFIX } from "./api-token-fields";
import { createSession } from "./create-session";
import { hashPassword } from "./passwords";
import { randomSecret, sha256Hex } from "./secrets";
import { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE } from "./session-cookies";

export const TEST_PASSWORD = "correct horse battery staple";

let cachedHash: Promise<string> | null = null;

export async function createTestUser(options: { username: string; role: Role; displayName?: string; password?: string }): Promise<{ id: string; username: string }> {
  const passwordHash = options.password ? await hashPassword(options.password) : await (cachedHash ??= hashPassword(TEST_PASSWORD));
  const username = options.username.toLowerCase();
  return getDb().user.create({
    data: { username, displayName: options.displayName ?? username, passwordHash, role: options.role },
    select: { id: true, username: true },
  });
}

async function userIdOf(username: string): Promise<string> {
  const user = await getDb().user.findUnique({ where: { username: username.toLowerCase() }, select: { id: true } });
  if (!user) throw new AppError("NOT_FOUND", `no test user ${username}: createTestUser first`);
  return user.id;
}

/** Headers of a signed-in browser: both cookies and the matching X-CSRF-Token. */
export async function signInHeaders(username: string): Promise<{ cookie: string; "x-csrf-token": string }> {
  const session = await createSession({ userId: await userIdOf(username) });
  return { cookie: `${SESSION_COOKIE}=${session.secret}; ${CSRF_COOKIE}=${session.csrfToken}`, [CSRF_HEADER]: session.csrfToken };
}

/** Headers of a script holding a token of this user with this scope. */
export async function createTestToken(username: string, scope: TokenScope): Promise<{ authorization: string }> {
  const secret = `${TOKEN_PREFIX}${randomSecret(32)}`;
  await getDb().apiToken.create({ data: { userId: await userIdOf(username), name: `test ${scope}`, tokenHash: sha256Hex(secret), prefix: secret.slice(0, TOKEN_PREFIX.length + 8), scope } });
  return { authorization: `Bearer ${secret}` };
}
