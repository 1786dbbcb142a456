/**
 * Raw SQL and Prisma share one write path on SQLite: writers take turns asynchronously, another
 * process's lock is waited out without blocking the event loop, a write nested in the other
 * path fails at once instead of hanging, and an audit event written through a raw transaction
 * commits or rolls back with it. (PostgreSQL has no busy wait; the audit part runs on both.)
 */
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "../../auth/permissions";
import { recordAudit } from "../audit";
import { sqliteFilePath } from "./database-url";
import { getDb } from "./db";
import { getSql } from "./sql";
import type { TestDatabase } from "./test-database";
import { testDialect, useTestDatabase } from "./test-database";

let db: TestDatabase;
beforeAll(async () => {
  db = await useTestDatabase("sqlite-writer");
  await getDb().setting.count();
});
afterAll(async () => {
  await db.cleanup();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function longestStall<T>(work: () => Promise<T>): Promise<{ result: T; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 5);
  try {
    const result = await work();
    return { result, stallMs: Math.max(stallMs, performance.now() - last) };
  } finally {
    clearInterval(timer);
  }
}

const setting = (key: string) => getDb().setting.create({ data: { key, value: "v" } });

describe("audit through a raw transaction", () => {
  it("commits with the change and rolls back with it", async () => {
    await getSql().transaction(async (tx) => {
      await tx.execute(`INSERT INTO "Setting" ("key", "value", "updatedAt") VALUES (?, ?, ?)`, ["kept", "1", new Date()]);
      await recordAudit(SYSTEM_ACTOR, { action: "settings.update", summary: "kept", targetType: "settings", targetId: "kept" }, tx);
    });
    await expect(
      getSql().transaction(async (tx) => {
        await recordAudit(SYSTEM_ACTOR, { action: "settings.update", summary: "lost", targetType: "settings", targetId: "lost" }, tx);
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    const events = await getDb().auditEvent.findMany({ where: { action: "settings.update" }, select: { summary: true, at: true, actorKind: true } });
    expect(events.map((e) => e.summary)).toEqual(["kept"]);
    expect(events[0]?.actorKind).toBe("system");
    expect(Math.abs((events[0]?.at.getTime() ?? 0) - Date.now())).toBeLessThan(60_000);
  });
});

describe.runIf(testDialect() === "sqlite")("one write path on SQLite", () => {
  it("a Prisma write waits (asynchronously) for a raw transaction that is awaiting something", async () => {
    const order: string[] = [];
    const { stallMs } = await longestStall(() =>
      Promise.all([
        getSql().transaction(async (tx) => {
          await tx.execute(`INSERT INTO "Setting" ("key", "value", "updatedAt") VALUES (?, ?, ?)`, ["raw", "1", new Date()]);
          await sleep(300);
          order.push("raw");
        }),
        sleep(20).then(async () => {
          await setting("prisma");
          order.push("prisma");
        }),
      ]),
    );
    expect(order).toEqual(["raw", "prisma"]);
    expect(stallMs).toBeLessThan(150);
    expect(await getDb().setting.count({ where: { key: { in: ["raw", "prisma"] } } })).toBe(2);
  });

  it("another process holding the write lock is waited out without blocking the event loop", async () => {
    const other = new Database(sqliteFilePath(db.url), { timeout: 0 });
    try {
      other.exec("BEGIN IMMEDIATE");
      other.prepare(`INSERT INTO "Setting" ("key", "value", "updatedAt") VALUES ('other', '1', '2026-01-01T00:00:00.000+00:00')`).run();
      // Released by a timer: a synchronous busy wait here would never let it fire.
      setTimeout(() => other.exec("COMMIT"), 400);
      const started = performance.now();
      const { stallMs } = await longestStall(() =>
        Promise.all([
          setting("prisma-after-other"),
          getDb().$transaction(async (tx) => tx.setting.create({ data: { key: "prisma-tx-after-other", value: "v" } })),
          getSql().execute(`INSERT INTO "Setting" ("key", "value", "updatedAt") VALUES (?, ?, ?)`, ["raw-after-other", "1", new Date()]),
        ]),
      );
      expect(performance.now() - started).toBeGreaterThanOrEqual(350);
      expect(stallMs).toBeLessThan(150);
      expect(await getDb().setting.count({ where: { key: { in: ["other", "prisma-after-other", "prisma-tx-after-other", "raw-after-other"] } } })).toBe(4);
    } finally {
      if (other.inTransaction) other.exec("ROLLBACK");
      other.close();
    }
  });

  it("a write nested in the other path fails at once instead of hanging", async () => {
    const started = performance.now();
    await expect(getSql().transaction(() => setting("nested-prisma"))).rejects.toMatchObject({ code: "INTERNAL" });
    await expect(getDb().$transaction(() => getSql().transaction(() => Promise.resolve()))).rejects.toMatchObject({ code: "INTERNAL" });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(await getDb().setting.count({ where: { key: "nested-prisma" } })).toBe(0);
    // …and the lock is free again afterwards.
    await setting("after-nested");
  });

  it("reads are not held up by a raw transaction in progress", async () => {
    let readAt = 0;
    let committedAt = 0;
    await Promise.all([
      getSql().transaction(async () => {
        await sleep(300);
        committedAt = performance.now();
      }),
      sleep(20).then(async () => {
        await getDb().setting.count();
        await getSql().query(`SELECT COUNT(*) AS n FROM "Setting"`);
        readAt = performance.now();
      }),
    ]);
    expect(readAt).toBeLessThan(committedAt);
  });
});
