/**
 * The once-a-minute lastSeenAt (sessions) and lastUsedAt (API tokens) writes never hold up the
 * request that draws them (touch-later.ts): on SQLite another
 * writer (an import's transaction, here another connection holding the write lock) makes a write
 * wait its turn, and the session must be read and returned meanwhile. The write lands once the
 * lock is free. (PostgreSQL takes row locks: the test runs on SQLite only.)
 */
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sqliteFilePath } from "../db/database-url";
import { getDb } from "../db/db";
import type { TestDatabase } from "../db/test-database";
import { testDialect, useTestDatabase } from "../db/test-database";
import { createSession } from "./create-session";
import { getSessionActor } from "./get-session-actor";
import { getTokenActor } from "./get-token-actor";
import { createTestToken, createTestUser } from "./test-support";

let db: TestDatabase;
beforeAll(async () => {
  db = await useTestDatabase("session-touch");
});
afterAll(async () => {
  await db.cleanup();
});

describe.skipIf(testDialect() !== "sqlite")("the session's last-seen time", () => {
  it("is written after the request, not before it, while another writer holds SQLite's write lock", async () => {
    const user = await createTestUser({ username: "sam", role: "reviewer" });
    const created = new Date("2026-12-05T10:00:00.000Z");
    const session = await createSession({ userId: user.id, now: created });
    const later = new Date(created.getTime() + 5 * 60_000);
    const other = new Database(sqliteFilePath(db.url), { timeout: 0 });
    try {
      // What an import in a worker thread does for its whole length.
      other.exec("BEGIN IMMEDIATE");
      other.prepare(`INSERT INTO "Setting" ("key", "value", "updatedAt") VALUES ('import', '1', '2026-01-01T00:00:00.000+00:00')`).run();
      // Resolves while the lock is held: were the write awaited, this would wait for the COMMIT below and never get there.
      const actor = await getSessionActor({ secret: session.secret, now: later });
      expect(actor).toMatchObject({ kind: "user", username: "sam", sessionId: session.sessionId });
      // A second request meanwhile queues no second write, and is not held either.
      expect(await getSessionActor({ secret: session.secret, now: later })).toMatchObject({ username: "sam" });
      expect((await getDb().session.findUniqueOrThrow({ where: { id: session.sessionId } })).lastSeenAt).toEqual(created);
      other.exec("COMMIT");
    } finally {
      if (other.inTransaction) other.exec("ROLLBACK");
      other.close();
    }
    await vi.waitFor(async () => expect((await getDb().session.findUniqueOrThrow({ where: { id: session.sessionId } })).lastSeenAt).toEqual(later), { timeout: 10_000, interval: 50 });
  });

  it("so is an API token's last-used time", async () => {
    await createTestUser({ username: "tia", role: "reviewer" });
    const secret = (await createTestToken("tia", "propose")).authorization.replace(/^Bearer /, "");
    const other = new Database(sqliteFilePath(db.url), { timeout: 0 });
    try {
      other.exec("BEGIN IMMEDIATE");
      other.prepare(`INSERT INTO "Setting" ("key", "value", "updatedAt") VALUES ('import-2', '1', '2026-01-01T00:00:00.000+00:00')`).run();
      const actor = await getTokenActor({ secret });
      expect(actor).toMatchObject({ kind: "token", username: "tia" });
      expect((await getDb().apiToken.findUniqueOrThrow({ where: { id: actor?.tokenId } })).lastUsedAt).toBeNull();
      other.exec("COMMIT");
      await vi.waitFor(async () => expect((await getDb().apiToken.findUniqueOrThrow({ where: { id: actor?.tokenId } })).lastUsedAt).not.toBeNull(), { timeout: 10_000, interval: 50 });
    } finally {
      if (other.inTransaction) other.exec("ROLLBACK");
      other.close();
    }
  });
});
