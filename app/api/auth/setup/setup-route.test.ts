/**
 * POST /api/auth/setup once set-up is done is refused before any password is hashed: a hash
 * costs ~100 ms of CPU, so 16 refused requests a second used to slow every page to ~1 s.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { useTestDatabase } from "@/lib/server/db/test-database";
import type * as PasswordsModule from "@/lib/server/auth/passwords";
import type { TestDatabase } from "@/lib/server/db/test-database";
import { POST as setup } from "./route";

const hashes = vi.hoisted(() => ({ count: 0 }));
vi.mock("@/lib/server/auth/passwords", async (importOriginal) => {
  const actual = await importOriginal<typeof PasswordsModule>();
  return {
    ...actual,
    hashPassword: (password: string) => {
      hashes.count++;
      return actual.hashPassword(password);
    },
  };
});

const BASE = "http://refinery.test";
const post = (body: unknown) => new Request(`${BASE}/api/auth/setup`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

let db: TestDatabase;
beforeAll(async () => {
  db = await useTestDatabase("setup-route");
});
afterAll(async () => {
  await db.cleanup();
});

describe("POST /api/auth/setup", () => {
  it("hashes once for the first admin, then refuses with 409 without hashing", async () => {
    const first = await setup(post({ username: "alice", password: "alice-password-1" }));
    expect(first.status).toBe(201);
    expect(hashes.count).toBe(1);
    const refused = await Promise.all(Array.from({ length: 16 }, (_, i) => setup(post({ username: `eve${i}`, password: "a-long-enough-password" }))));
    for (const res of refused) {
      expect(res.status).toBe(409);
      expect(((await res.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: "CONFLICT", message: expect.stringMatching(/already done/) as unknown });
    }
    expect(hashes.count).toBe(1);
    // A malformed body is still told what is wrong (validation is cheap), and still hashes nothing.
    expect((await setup(post({ username: "no spaces", password: "a-long-enough-password" }))).status).toBe(400);
    expect(hashes.count).toBe(1);
  });
});
