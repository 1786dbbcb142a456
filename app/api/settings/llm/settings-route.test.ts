/**
 * PUT /api/settings/llm through the real handler: it answers, it does not hold up the event
 * loop, and the audit event exists exactly when the change does.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/server/db/db";
import { createTestUser, signInHeaders } from "@/lib/server/auth/test-support";
import { useTestDatabase } from "@/lib/server/db/test-database";
import type { TestDatabase } from "@/lib/server/db/test-database";
import { PUT } from "./route";

let db: TestDatabase;
const saved = { ...process.env };
beforeAll(async () => {
  db = await useTestDatabase("settings-route");
  for (const k of Object.keys(process.env)) if (k.startsWith("REFINERY_LLM_")) delete process.env[k];
  await createTestUser({ username: "ada", role: "admin" });
});
afterAll(async () => {
  await db.cleanup();
  process.env = saved;
});

const put = async (body: unknown) =>
  PUT(new Request("http://refinery.test/api/settings/llm", { method: "PUT", headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.9", ...(await signInHeaders("ada")) }, body: JSON.stringify(body) }));

/** The longest gap between timer ticks while `work` runs: how long the event loop was blocked. */
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

describe("PUT /api/settings/llm", () => {
  it("saves, answers 200 without stalling the event loop, and audits the change in its transaction", async () => {
    const { result: res, stallMs } = await longestStall(() => put({ temperature: 0.3, maxRetries: "1" }));
    expect(res.status).toBe(200);
    expect(((await res.json()) as { overridden: string[] }).overridden.sort()).toEqual(["maxRetries", "temperature"]);
    expect(stallMs).toBeLessThan(1000);
    const events = await getDb().auditEvent.findMany({ where: { action: "settings.update" } });
    expect(events).toHaveLength(1);
    expect(events[0]?.summary).toContain("temperature");
  });

  it("a refused change writes nothing and is not audited", async () => {
    const before = await getDb().auditEvent.count({ where: { action: "settings.update" } });
    const res = await put({ timeoutMs: "-1" });
    expect(res.status).toBe(400);
    expect(await getDb().auditEvent.count({ where: { action: "settings.update" } })).toBe(before);
    expect((await getDb().setting.findMany()).map((s) => s.key).sort()).toEqual(["llm.maxRetries", "llm.temperature"]);
  });

  it("ten saves at once all succeed, each with its own audit event", async () => {
    const before = await getDb().auditEvent.count({ where: { action: "settings.update" } });
    const { result, stallMs } = await longestStall(() => Promise.all(Array.from({ length: 10 }, (_, i) => put({ maxTokens: String(100 + i) }))));
    expect(result.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(stallMs).toBeLessThan(1000);
    expect(await getDb().auditEvent.count({ where: { action: "settings.update" } })).toBe(before + 10);
  });
});
