/**
 * Reading the audit log against a real database: every filter, keyset pages that neither skip
 * nor repeat, and the JSONL export (valid JSON per line, filters applied, many events streamed
 * in batches).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/permissions";
import { CLI_ACTOR, SYSTEM_ACTOR } from "../../auth/permissions";
import { auditFilterQuery } from "../../audit/audit-query";
import type { AuditEventView } from "../../audit/types";
import { isAppError } from "../../errors";
import { recordAudit } from "./audit";
import { createTestUser } from "../auth/test-support";
import { getDb } from "../db/db";
import { exportAuditEventsJsonl, iterateAuditEvents } from "./export-audit-events";
import { findAuditEvents } from "./find-audit-events";
import { findAuditFacets } from "./find-audit-facets";
import type { TestDatabase } from "../db/test-database";
import { useTestDatabase } from "../db/test-database";

let db: TestDatabase;
let alice: Actor;
let aliceToken: Actor;
let bob: Actor;

async function record(actor: Actor, at: string, input: Parameters<typeof recordAudit>[1]): Promise<void> {
  await recordAudit(actor, input);
  // recordAudit stamps "now"; the test day needs its own clock.
  const last = await getDb().auditEvent.findFirstOrThrow({ orderBy: { id: "desc" }, select: { id: true } });
  await getDb().auditEvent.update({ where: { id: last.id }, data: { at: new Date(at) } });
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<{ text: string; chunks: number }> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let chunks = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks += 1;
    text += decoder.decode(value, { stream: true });
  }
  return { text, chunks };
}

beforeAll(async () => {
  db = await useTestDatabase("audit-find");
  const a = await createTestUser({ username: "alice", role: "reviewer", displayName: "Alice Liddell" });
  const b = await createTestUser({ username: "bob", role: "admin" });
  alice = { kind: "user", userId: a.id, username: "alice", displayName: "Alice Liddell", role: "reviewer", sessionId: "s1" };
  aliceToken = { kind: "token", userId: a.id, username: "alice", displayName: "Alice Liddell", role: "reviewer", tokenId: "t1", scope: "propose" };
  bob = { kind: "user", userId: b.id, username: "bob", displayName: "bob", role: "admin", sessionId: "s2" };
  await record(CLI_ACTOR, "2026-11-29T16:00:00Z", { action: "graph.import", summary: "imported httpx", graphName: "httpx", targetType: "graph", targetId: "httpx" });
  await record(bob, "2026-11-30T08:01:00Z", { action: "auth.login", summary: "signed in", targetType: "session", ip: "10.0.0.2" });
  await record(aliceToken, "2026-11-30T09:00:00Z", { action: "proposal.create", summary: "submitted proposal p1 with 2 actions", graphName: "httpx", targetType: "proposal", targetId: "p1" });
  await record(alice, "2026-11-30T09:14:00Z", {
    action: "action.approve",
    summary: 'approved insert_edge("Client", "inherits", "BaseClient") (1 of 2)',
    graphName: "httpx",
    targetType: "action",
    targetId: "p1:0",
    details: { proposalId: "p1", index: 0, approvals: 1, required: 2 },
  });
  await record(bob, "2026-11-30T09:20:00Z", { action: "action.reject", summary: 'vetoed delete_edge("Client", "calls", "send")', graphName: "httpx", targetType: "action", targetId: "p1:1" });
  await record(bob, "2026-11-30T09:20:00Z", { action: "changeset.apply", summary: "applied proposal p1 as version 2", graphName: "httpx", targetType: "version", targetId: "2" });
  await record(SYSTEM_ACTOR, "2026-11-30T12:00:00Z", { action: "approval.dismiss", summary: "dismissed alice's approval: the action was edited", graphName: "other", targetType: "action", targetId: "p2:0" });
});

afterAll(async () => {
  await db.cleanup();
});

const firstWords = (events: AuditEventView[]) => events.map((e) => e.summary.split(" ")[0]);
const filter = (query: Record<string, string>) => auditFilterQuery.parse(query);

describe("findAuditEvents", () => {
  it("lists newest first, ties broken by id, details parsed, IPs only when asked", async () => {
    const page = await findAuditEvents({});
    expect(page.events.map((e) => e.action)).toEqual(["approval.dismiss", "changeset.apply", "action.reject", "action.approve", "proposal.create", "auth.login", "graph.import"]);
    expect(page.nextCursor).toBeNull();
    const approve = page.events[3];
    expect(approve?.at).toBe("2026-11-30T09:14:00.000Z");
    expect(approve?.details).toEqual({ proposalId: "p1", index: 0, approvals: 1, required: 2 });
    expect(approve?.actorName).toBe("Alice Liddell (alice)");
    expect(page.events.every((e) => !("ip" in e))).toBe(true);
    const admin = await findAuditEvents({ includeIp: true, action: "auth.login" });
    expect(admin.events[0]?.ip).toBe("10.0.0.2");
  });

  it("filters by actor: a username covers the person's sessions and tokens; cli and system by kind", async () => {
    expect((await findAuditEvents(filter({ actor: "alice" }))).events.map((e) => e.action)).toEqual(["action.approve", "proposal.create"]);
    expect((await findAuditEvents(filter({ actor: "ALICE" }))).events).toHaveLength(2);
    expect((await findAuditEvents(filter({ actor: "cli" }))).events.map((e) => e.action)).toEqual(["graph.import"]);
    expect((await findAuditEvents(filter({ actor: "system" }))).events.map((e) => e.action)).toEqual(["approval.dismiss"]);
    expect((await findAuditEvents(filter({ actor: "nobody" }))).events).toEqual([]);
  });

  it("filters by action or action prefix, graph, target and text", async () => {
    expect((await findAuditEvents(filter({ action: "action." }))).events.map((e) => e.action)).toEqual(["action.reject", "action.approve"]);
    expect((await findAuditEvents(filter({ action: "action.approve" }))).events).toHaveLength(1);
    expect((await findAuditEvents(filter({ action: "action" }))).events).toHaveLength(0);
    expect((await findAuditEvents(filter({ graph: "other" }))).events.map((e) => e.action)).toEqual(["approval.dismiss"]);
    expect((await findAuditEvents(filter({ targetType: "action", targetId: "p1:1" }))).events.map((e) => e.action)).toEqual(["action.reject"]);
    expect((await findAuditEvents(filter({ q: "BaseClient" }))).events.map((e) => e.action)).toEqual(["action.approve"]);
    expect((await findAuditEvents(filter({ q: "version 2", graph: "httpx", actor: "bob" }))).events.map((e) => e.action)).toEqual(["changeset.apply"]);
  });

  it("filters by time: from inclusive, to exclusive, dates or date-times", async () => {
    expect((await findAuditEvents(filter({ from: "2026-11-30", to: "2026-12-01" }))).events).toHaveLength(6);
    expect((await findAuditEvents(filter({ to: "2026-11-30" }))).events.map((e) => e.action)).toEqual(["graph.import"]);
    expect((await findAuditEvents(filter({ from: "2026-11-30T09:14:00Z", to: "2026-11-30T09:20:00Z" }))).events.map((e) => e.action)).toEqual(["action.approve"]);
    expect((await findAuditEvents(filter({ from: "2026-11-30T10:00:00+01:00", to: "2026-11-30T10:20:00+01:00" }))).events.map((e) => e.action)).toEqual(["action.approve", "proposal.create"]);
    expect(() => filter({ from: "yesterday" })).toThrow();
  });

  it("pages with a cursor, without skipping or repeating (also across equal timestamps)", async () => {
    const seen: string[] = [];
    let cursor: number | undefined;
    let pages = 0;
    do {
      const page = await findAuditEvents({ limit: 2, cursor });
      expect(page.events.length).toBeLessThanOrEqual(2);
      seen.push(...page.events.map((e) => e.action));
      cursor = page.nextCursor ?? undefined;
      pages += 1;
    } while (cursor !== undefined);
    expect(pages).toBe(4);
    expect(seen).toEqual((await findAuditEvents({})).events.map((e) => e.action));
    const filtered = await findAuditEvents({ actor: "bob", limit: 1 });
    expect(filtered.events.map((e) => e.action)).toEqual(["changeset.apply"]);
    const next = await findAuditEvents({ actor: "bob", limit: 1, cursor: filtered.nextCursor ?? 0 });
    expect(next.events.map((e) => e.action)).toEqual(["action.reject"]);
  });

  it("caps the page at 500 and refuses an unknown cursor by code", async () => {
    expect((await findAuditEvents({ limit: 10_000 })).events).toHaveLength(7);
    const error = await findAuditEvents({ cursor: 999_999 }).catch((e: unknown) => e);
    expect(isAppError(error) && error.code).toBe("INVALID_INPUT");
  });
});

describe("findAuditFacets", () => {
  it("offers people by username and other actors by name, and the graphs named", async () => {
    const facets = await findAuditFacets();
    expect(facets.actors).toEqual([
      { value: "alice", label: "Alice Liddell (alice)", kind: "user" },
      { value: "bob", label: "bob", kind: "user" },
      { value: "command line", label: "command line", kind: "cli" },
      { value: "system", label: "system", kind: "system" },
    ]);
    expect(facets.graphs).toEqual(["httpx", "other"]);
  });
});

describe("exportAuditEventsJsonl", () => {
  it("writes one JSON object per line with ISO timestamps and parsed details, filters applied", async () => {
    const { text } = await readAll(exportAuditEventsJsonl({ filter: filter({ graph: "httpx", action: "action." }) }));
    expect(text.endsWith("\n")).toBe(true);
    const lines = text.trimEnd().split("\n").map((line) => JSON.parse(line) as AuditEventView);
    expect(lines.map((e) => e.action)).toEqual(["action.reject", "action.approve"]);
    expect(lines[1]?.at).toBe("2026-11-30T09:14:00.000Z");
    expect(lines[1]?.details).toEqual({ proposalId: "p1", index: 0, approvals: 1, required: 2 });
    expect(firstWords(lines)).toEqual(["vetoed", "approved"]);
  });

  it("streams many events in batches of the given size", async () => {
    const rows = Array.from({ length: 2_500 }, (_, i) => ({
      at: new Date(Date.UTC(2025, 0, 1) + i * 60_000),
      actorKind: "token",
      actorId: null,
      actorName: "bot via token",
      action: "run.start",
      graphName: "bulk",
      summary: `started run ${i}`,
      details: JSON.stringify({ runId: `r${i}` }),
    }));
    for (let i = 0; i < rows.length; i += 500) await getDb().auditEvent.createMany({ data: rows.slice(i, i + 500) });

    let batches = 0;
    for await (const batch of iterateAuditEvents({ filter: filter({ graph: "bulk" }), batchSize: 300 })) {
      batches += 1;
      expect(batch.length).toBeLessThanOrEqual(300);
    }
    expect(batches).toBe(9);

    const { text, chunks } = await readAll(exportAuditEventsJsonl({ filter: filter({ graph: "bulk" }), batchSize: 300 }));
    const lines = text.trimEnd().split("\n");
    expect(lines).toHaveLength(2_500);
    expect(chunks).toBe(9);
    const parsed = lines.map((line) => JSON.parse(line) as AuditEventView);
    expect(parsed[0]?.summary).toBe("started run 2499");
    expect(parsed.at(-1)?.summary).toBe("started run 0");
    expect(new Set(parsed.map((e) => e.id)).size).toBe(2_500);

    const limited = await readAll(exportAuditEventsJsonl({ filter: filter({ graph: "bulk" }), batchSize: 300, limit: 450 }));
    expect(limited.text.trimEnd().split("\n")).toHaveLength(450);
  });
});
