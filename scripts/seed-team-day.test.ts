/**
 * The team day plays through the real server functions and leaves a complete, readable day in
 * the audit log: every kind of event the issue names, stamped in order on one day.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatAuditText } from "../lib/audit/format-audit-event";
import { findAuditEvents } from "../lib/server/audit/find-audit-events";
import type { TestDatabase } from "../lib/server/db/test-database";
import { useTestDatabase } from "../lib/server/db/test-database";
import type { SeedTeamDayResult } from "./seed-team-day";
import { seedTeamDay } from "./seed-team-day";

let db: TestDatabase;
let result: SeedTeamDayResult;

beforeAll(async () => {
  db = await useTestDatabase("team-day");
  result = await seedTeamDay({ day: "2026-11-30", timeZone: "Europe/Berlin" });
});

afterAll(async () => {
  await db.cleanup();
});

describe("the team day", () => {
  it("records every kind of event the audit log is for, on one day, in order", async () => {
    const { events } = await findAuditEvents({ limit: 500 });
    expect(events.length).toBe(result.events);
    const actions = new Set(events.map((e) => e.action));
    for (const action of [
      "auth.setup",
      "auth.login",
      "auth.login_failed",
      "auth.logout",
      "user.create",
      "token.create",
      "graph.import",
      "question.add",
      "run.start",
      "proposal.create",
      "comment.add",
      "action.approve",
      "action.reject",
      "action.withdraw",
      "approval.dismiss",
      "changeset.apply",
      "changeset.revert",
      "policy.update",
    ]) {
      expect(actions, action).toContain(action);
    }
    const times = events.map((e) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(times.at(-1)).toBe("2026-11-30T07:50:00.000Z");
    expect(times[0]?.startsWith("2026-11-30T16:32")).toBe(true);
  });

  it("reads as a day: the LOW approved by two people, the veto withdrawn, the stale approval dismissed", async () => {
    const { events } = await findAuditEvents({ limit: 500 });
    const text = formatAuditText(events, "Europe/Berlin");
    expect(text.startsWith("Monday 30 November 2026\n")).toBe(true);
    expect(text).toMatch(/13:52 Sam Okafor \(sam\) approved insert_edge\("Client", "calls", "RetryPolicy"\) on httpx-demo \(2 of 2 approvals/);
    expect(text).toMatch(/10:31 Sam Okafor \(sam\) withdrew their veto/);
    expect(text).toMatch(/11:10 system dismissed rita's approval of replace_node/);
    expect(text).toMatch(/09:04 system failed sign-in as "vera"/);
    expect(text).toMatch(/ada \(via token\) submitted a proposal/);
  });
});
