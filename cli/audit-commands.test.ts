/** `refinery audit` against a real database: the table, filters, --jsonl, --limit, usage errors. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../lib/auth/permissions";
import { CLI_ACTOR } from "../lib/auth/permissions";
import type { AuditEventView } from "../lib/audit/types";
import { recordAudit } from "../lib/server/audit/audit";
import { createTestUser } from "../lib/server/auth/test-support";
import type { TestDatabase } from "../lib/server/db/test-database";
import { useTestDatabase } from "../lib/server/db/test-database";
import { main } from "./main";

let db: TestDatabase;

async function run(...argv: string[]) {
  let out = "";
  let err = "";
  const code = await main(argv, { out: (t) => (out += t.endsWith("\n") ? t : t + "\n"), err: (t) => (err += t + "\n") });
  return { code, out, err };
}

beforeAll(async () => {
  db = await useTestDatabase("audit-cli");
  const rita = await createTestUser({ username: "rita", role: "reviewer" });
  const ritaActor: Actor = { kind: "user", userId: rita.id, username: "rita", displayName: "rita", role: "reviewer", sessionId: "s" };
  const bot: Actor = { kind: "token", userId: rita.id, username: "rita", displayName: "rita", role: "reviewer", tokenId: "t", scope: "propose" };
  await recordAudit(CLI_ACTOR, { action: "graph.import", summary: "imported httpx (144 nodes, 330 edges)", graphName: "httpx", targetType: "graph", targetId: "httpx" });
  await recordAudit(bot, { action: "run.start", summary: "started a run: What does Client inherit from?", graphName: "httpx", targetType: "run", targetId: "r1" });
  await recordAudit(ritaActor, { action: "action.approve", summary: 'approved insert_edge("Client", "inherits", "BaseClient") (1 of 2)', graphName: "httpx", targetType: "action", targetId: "p1:0", details: { proposalId: "p1" } });
  await recordAudit(ritaActor, { action: "policy.update", summary: "changed the policy of httpx: LOW needs 2 approvals", graphName: "httpx", targetType: "policy", ip: "10.1.1.1" });
});

afterAll(async () => {
  await db.cleanup();
});

describe("refinery audit", () => {
  it("prints a readable table, newest first, with the actor's kind", async () => {
    const r = await run("audit");
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^WHEN\s+WHO\s+ACTION\s+GRAPH\s+WHAT$/);
    expect(lines).toHaveLength(5);
    expect(lines[1]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}\s+rita\s+policy\.update\s+httpx\s+changed the policy/);
    expect(lines[3]).toContain("rita (via token)");
    expect(lines[4]).toContain("command line (CLI)");
    expect(r.err).toBe("");
  });

  it("filters by actor, action prefix, graph and time", async () => {
    expect((await run("audit", "--actor", "rita")).out.trimEnd().split("\n")).toHaveLength(4);
    const decisions = await run("audit", "--action", "action.", "--graph", "httpx");
    expect(decisions.out).toContain("approved insert_edge");
    expect(decisions.out).not.toContain("policy.update");
    expect((await run("audit", "--actor", "cli", "--json")).out).toContain('"graph.import"');
    expect((await run("audit", "--until", "2000-01-01")).out).toContain("no audit events match");
    expect((await run("audit", "--since", "2000-01-01T00:00:00Z", "--graph", "nope")).out).toContain("no audit events match");
  });

  it("says when older events are cut off by --limit", async () => {
    const r = await run("audit", "--limit", "2");
    expect(r.out.trimEnd().split("\n")).toHaveLength(3);
    expect(r.err).toContain("older events not shown");
  });

  it("writes JSONL with --jsonl: one event per line, IP included, limit applied", async () => {
    const r = await run("audit", "--jsonl");
    expect(r.code).toBe(0);
    const events = r.out.trimEnd().split("\n").map((line) => JSON.parse(line) as AuditEventView);
    expect(events.map((e) => e.action)).toEqual(["policy.update", "action.approve", "run.start", "graph.import"]);
    expect(events[0]?.ip).toBe("10.1.1.1");
    expect(events[1]?.details).toEqual({ proposalId: "p1" });
    expect((await run("audit", "--jsonl", "--limit", "1")).out.trimEnd().split("\n")).toHaveLength(1);
  });

  it("refuses bad flags with exit code 2", async () => {
    for (const argv of [["--since", "last week"], ["--limit", "0"], ["--action", "Approve!"]]) {
      const r = await run("audit", ...argv);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.err).toMatch(/^refinery: --/);
    }
  });
});
