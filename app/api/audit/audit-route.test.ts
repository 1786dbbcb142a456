/**
 * GET /api/audit and GET /api/audit/export with real sessions and tokens: no credentials is
 * 401, every role and a read token may read, IP addresses only reach administrators, the
 * query is validated and the export is a JSONL attachment with the filters applied.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/auth/permissions";
import type { AuditEventPage, AuditEventView } from "@/lib/audit/types";
import { recordAudit } from "@/lib/server/audit/audit";
import { createTestToken, createTestUser, signInHeaders } from "@/lib/server/auth/test-support";
import type { TestDatabase } from "@/lib/server/db/test-database";
import { useTestDatabase } from "@/lib/server/db/test-database";
import { GET as exportAudit } from "./export/route";
import { GET as findAudit } from "./route";

let db: TestDatabase;

beforeAll(async () => {
  db = await useTestDatabase("audit-route");
  await createTestUser({ username: "ada", role: "admin" });
  await createTestUser({ username: "vic", role: "viewer" });
  await recordAudit(SYSTEM_ACTOR, { action: "auth.login_failed", summary: "failed sign-in as mallory (no such account)", ip: "203.0.113.9" });
  for (let i = 0; i < 3; i++) {
    await recordAudit(SYSTEM_ACTOR, { action: "run.start", summary: `started run ${i}`, graphName: "httpx", targetType: "run", targetId: `r${i}` });
  }
});

afterAll(async () => {
  await db.cleanup();
});

const url = (path: string) => `http://localhost${path}`;

describe("GET /api/audit", () => {
  it("answers 401 without a session or token", async () => {
    const res = await findAudit(new Request(url("/api/audit")));
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("UNAUTHENTICATED");
  });

  it("lets a viewer read, without IP addresses", async () => {
    const res = await findAudit(new Request(url("/api/audit?action=auth."), { headers: await signInHeaders("vic") }));
    expect(res.status).toBe(200);
    const page = (await res.json()) as AuditEventPage;
    expect(page.events.map((e) => e.summary)).toEqual(["failed sign-in as mallory (no such account)"]);
    expect(page.events[0]).not.toHaveProperty("ip");
  });

  it("shows administrators the IP address", async () => {
    const res = await findAudit(new Request(url("/api/audit?action=auth.login_failed"), { headers: await signInHeaders("ada") }));
    expect(((await res.json()) as AuditEventPage).events[0]?.ip).toBe("203.0.113.9");
  });

  it("pages with limit and cursor", async () => {
    const headers = await signInHeaders("vic");
    const first = (await (await findAudit(new Request(url("/api/audit?graph=httpx&limit=2"), { headers }))).json()) as AuditEventPage;
    expect(first.events.map((e) => e.summary)).toEqual(["started run 2", "started run 1"]);
    const second = (await (await findAudit(new Request(url(`/api/audit?graph=httpx&limit=2&cursor=${first.nextCursor}`), { headers }))).json()) as AuditEventPage;
    expect(second.events.map((e) => e.summary)).toEqual(["started run 0"]);
    expect(second.nextCursor).toBeNull();
  });

  it("refuses bad filters with 400 INVALID_INPUT", async () => {
    const headers = await signInHeaders("vic");
    for (const query of ["limit=501", "limit=0", "from=yesterday", "action=DROP%20TABLE", "cursor=-1"]) {
      const res = await findAudit(new Request(url(`/api/audit?${query}`), { headers }));
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("INVALID_INPUT");
    }
  });
});

describe("GET /api/audit/export", () => {
  it("answers 401 without credentials", async () => {
    expect((await exportAudit(new Request(url("/api/audit/export")))).status).toBe(401);
  });

  it("gives a read token a JSONL attachment with the filters applied", async () => {
    const res = await exportAudit(new Request(url("/api/audit/export?action=run.start&q=run%201"), { headers: await createTestToken("vic", "read") }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="refinery-audit-\d{4}-\d{2}-\d{2}\.jsonl"$/);
    const lines = (await res.text()).trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    const event = JSON.parse(lines[0] ?? "") as AuditEventView;
    expect(event).toMatchObject({ action: "run.start", summary: "started run 1", graphName: "httpx", targetType: "run", targetId: "r1" });
    expect(new Date(event.at).toISOString()).toBe(event.at);
  });

  it("refuses a bad filter with 400 before streaming", async () => {
    expect((await exportAudit(new Request(url("/api/audit/export?to=soon"), { headers: await signInHeaders("ada") }))).status).toBe(400);
  });
});
