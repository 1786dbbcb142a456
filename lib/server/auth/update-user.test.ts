/**
 * Account changes under concurrency (the race the stress test found on PostgreSQL: two admins
 * demoting each other at once left no admin) and token revocation on disable / re-enable.
 * Runs on SQLite and, with REFINERY_TEST_DATABASE=postgres, on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/permissions";
import { getDb } from "../db/db";
import type { TestDatabase } from "../db/test-database";
import { useTestDatabase } from "../db/test-database";
import { getTokenActor } from "./get-token-actor";
import { createApiToken } from "./create-api-token";
import { createTestUser } from "./test-support";
import { updateUser } from "./update-user";

let db: TestDatabase;
beforeAll(async () => {
  db = await useTestDatabase("update-user");
});
afterAll(async () => {
  await db.cleanup();
});

const adminActor = (user: { id: string; username: string }): Extract<Actor, { kind: "user" }> => ({ kind: "user", userId: user.id, username: user.username, displayName: user.username, role: "admin", sessionId: "test" });
const activeAdmins = () => getDb().user.count({ where: { role: "admin", disabledAt: null } });

describe("the last admin", () => {
  it("two admins demoting (or disabling) each other at the same moment leave exactly one admin, every time", async () => {
    const a = await createTestUser({ username: "ann", role: "admin" });
    const b = await createTestUser({ username: "bob", role: "admin" });
    for (let trial = 0; trial < 6; trial++) {
      const how = trial % 2 === 0 ? { role: "reviewer" as const } : { disabled: true };
      const results = await Promise.allSettled([
        updateUser({ actor: adminActor(a), userId: b.id, ...how }),
        updateUser({ actor: adminActor(b), userId: a.id, ...how }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
      const refused = results.find((r) => r.status === "rejected");
      expect((refused as PromiseRejectedResult).reason).toMatchObject({ code: "CONFLICT" });
      expect(await activeAdmins()).toBe(1);
      // Back to two admins for the next trial.
      await getDb().user.updateMany({ where: { id: { in: [a.id, b.id] } }, data: { role: "admin", disabledAt: null } });
    }
    expect(await getDb().auditEvent.count({ where: { action: "user.update" } })).toBe(6);
  });

  it("three admins demoting each other in a ring keep at least one", async () => {
    await getDb().user.deleteMany({});
    const users = await Promise.all(["cy", "di", "ed"].map((username) => createTestUser({ username, role: "admin" })));
    await Promise.allSettled(users.map((u, i) => updateUser({ actor: adminActor(u), userId: (users[(i + 1) % 3] as { id: string }).id, role: "viewer" })));
    expect(await activeAdmins()).toBeGreaterThanOrEqual(1);
  });
});

describe("disabling an account", () => {
  it("revokes its API tokens for good: re-enabling it does not bring them back", async () => {
    const admin = await createTestUser({ username: "root", role: "admin" });
    const user = await createTestUser({ username: "tess", role: "reviewer" });
    const actor: Extract<Actor, { kind: "user" }> = { kind: "user", userId: user.id, username: user.username, displayName: user.username, role: "reviewer", sessionId: "s" };
    const { secret } = await createApiToken({ actor, name: "ci", scope: "read" });
    expect(await getTokenActor({ secret })).not.toBeNull();
    await updateUser({ actor: adminActor(admin), userId: user.id, disabled: true });
    expect(await getTokenActor({ secret })).toBeNull();
    await updateUser({ actor: adminActor(admin), userId: user.id, disabled: false });
    expect(await getTokenActor({ secret })).toBeNull();
    // A token made after re-enabling works.
    const fresh = await createApiToken({ actor, name: "new", scope: "read" });
    expect(await getTokenActor({ secret: fresh.secret })).not.toBeNull();
    const summaries = (await getDb().auditEvent.findMany({ where: { action: "user.update", targetId: user.id }, orderBy: { id: "asc" } })).map((e) => e.summary);
    expect(summaries[0]).toContain("1 API token(s) revoked");
  });

  it("an account disabled before this rule (tokens left active) gets them revoked when re-enabled", async () => {
    const admin = await getDb().user.findUniqueOrThrow({ where: { username: "root" } });
    const user = await createTestUser({ username: "old", role: "viewer" });
    const actor: Extract<Actor, { kind: "user" }> = { kind: "user", userId: user.id, username: user.username, displayName: user.username, role: "viewer", sessionId: "s" };
    const { secret } = await createApiToken({ actor, name: "legacy", scope: "read" });
    await getDb().user.update({ where: { id: user.id }, data: { disabledAt: new Date(Date.now() + 1000) } });
    await updateUser({ actor: adminActor(admin), userId: user.id, disabled: false });
    expect(await getTokenActor({ secret })).toBeNull();
  });
});
