/**
 * Audit events for the audit spec, written by the server's own recordAudit on fixed past days
 * (so other specs' events of today never mix in): a reviewed day on 2026-11-20 and 120 runs on
 * 2026-11-19 (more than one page).
 *
 *   DATABASE_URL=file:e2e/.tmp/e2e.db npx tsx e2e/seed-audit.ts
 */
import type { Actor } from "../lib/auth/permissions";
import { SYSTEM_ACTOR } from "../lib/auth/permissions";
import { recordAudit } from "../lib/server/audit/audit";
import type { AuditInput } from "../lib/server/audit/audit";
import { createTestUser } from "../lib/server/auth/test-support";
import { disconnectDb, getDb } from "../lib/server/db/db";

async function main(): Promise<void> {
  const db = getDb();
  const person = async (username: string, displayName: string): Promise<Extract<Actor, { kind: "user" }>> => {
    const existing = await db.user.findUnique({ where: { username }, select: { id: true } });
    const id = existing?.id ?? (await createTestUser({ username, displayName, role: "reviewer" })).id;
    return { kind: "user", userId: id, username, displayName, role: "reviewer", sessionId: "e2e" };
  };
  const rosa = await person("rosa", "Rosa Marquez");
  const theo = await person("theo", "Theo Brandt");
  const agent: Actor = { kind: "token", userId: rosa.userId, username: rosa.username, displayName: rosa.displayName, role: "reviewer", tokenId: "e2e", scope: "propose" };
  const write = async (actor: Actor, at: string, input: AuditInput) => {
    await recordAudit(actor, input);
    const last = await db.auditEvent.findFirstOrThrow({ orderBy: { id: "desc" }, select: { id: true } });
    await db.auditEvent.update({ where: { id: last.id }, data: { at: new Date(at) } });
  };
  const graphName = "audit-e2e";
  await write(rosa, "2026-11-20T09:00:00Z", { action: "auth.login", summary: "signed in", targetType: "session", ip: "10.0.0.21" });
  await write(agent, "2026-11-20T09:05:00Z", { action: "proposal.create", summary: 'submitted a proposal of 2 actions: insert_edge("Client", "calls", "RetryPolicy"), …', graphName, targetType: "proposal", targetId: "p-e2e" });
  await write(rosa, "2026-11-20T09:14:00Z", {
    action: "action.approve",
    summary: 'approved insert_edge("Client", "calls", "RetryPolicy") (1 of 2 approvals, LOW confidence): names the retry loop',
    graphName,
    targetType: "action",
    targetId: "p-e2e#0",
    details: { proposalId: "p-e2e", index: 0, approvals: 1, required: 2, reason: "names the retry loop" },
  });
  await write(theo, "2026-11-20T09:20:00Z", { action: "action.reject", summary: 'vetoed delete_edge("Timeout", "uses", "Request"): still used', graphName, targetType: "action", targetId: "p-e2e#1", details: { proposalId: "p-e2e", index: 1 } });
  await write(theo, "2026-11-20T09:31:00Z", { action: "changeset.apply", summary: 'applied version 2: insert_edge("Client", "calls", "RetryPolicy") (approved by Rosa Marquez, Theo Brandt)', graphName, targetType: "version", targetId: 2, details: { proposalId: "p-e2e" } });
  await write(SYSTEM_ACTOR, "2026-11-20T10:02:00Z", { action: "auth.login_failed", summary: 'failed sign-in as "vera": wrong password', ip: "10.0.0.33" });
  for (let i = 0; i < 120; i++) {
    const at = new Date(Date.UTC(2026, 10, 19, 8) + i * 60_000).toISOString();
    await write(agent, at, { action: "run.start", summary: `started run ${i + 1} of the nightly batch`, graphName: "bulk-audit", targetType: "run", targetId: `bulk-${i}` });
  }
  await disconnectDb();
}

await main();
