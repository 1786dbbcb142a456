import { describe, expect, it } from "vitest";
import { actorDisplayName, auditLinks, formatAuditLine, formatAuditText, groupAuditActions, groupAuditEventsByDay } from "./format-audit-event";
import type { AuditEventView } from "./types";
import { addDays, dayKeyIn, startOfDayIn } from "./zoned-time";

function event(overrides: Partial<AuditEventView>): AuditEventView {
  return {
    id: 1,
    at: "2026-11-30T09:14:00.000Z",
    actorKind: "user",
    actorId: "u1",
    actorName: "alice",
    action: "action.approve",
    graphName: "httpx",
    targetType: "action",
    targetId: "p1:0",
    summary: 'approved insert_edge("Client", "inherits", "BaseClient") (1 of 2)',
    details: { proposalId: "p1" },
    ...overrides,
  };
}

describe("formatAuditLine", () => {
  it("reads as time, who, the sentence and the graph", () => {
    expect(formatAuditLine(event({}), "UTC")).toBe('09:14 alice approved insert_edge("Client", "inherits", "BaseClient") (1 of 2) · graph httpx');
  });

  it("uses the display zone, not the machine's", () => {
    expect(formatAuditLine(event({ graphName: null }), "Europe/Berlin")).toMatch(/^10:14 alice approved/);
    expect(formatAuditLine(event({ graphName: null }), "America/New_York")).toMatch(/^04:14 /);
  });

  it("says how when it was not a person in a browser", () => {
    expect(formatAuditLine(event({ actorKind: "token", actorName: "bot via token", summary: "submitted a proposal" }), "UTC")).toBe("09:14 bot (via token) submitted a proposal · graph httpx");
    expect(formatAuditLine(event({ actorKind: "cli", actorName: "command line", actorId: null, graphName: null, summary: "imported httpx" }), "UTC")).toBe("09:14 command line (CLI) imported httpx");
    expect(formatAuditLine(event({ actorKind: "system", actorName: "system", actorId: null, graphName: null, summary: "dismissed an approval" }), "UTC")).toBe("09:14 system dismissed an approval");
    expect(actorDisplayName({ actorKind: "user", actorName: "Alice Smith (alice)" })).toBe("Alice Smith (alice)");
  });
});

describe("groupAuditEventsByDay", () => {
  const events = [
    event({ id: 4, at: "2026-12-01T08:00:00.000Z" }),
    event({ id: 3, at: "2026-11-30T23:30:00.000Z" }),
    event({ id: 2, at: "2026-11-30T09:00:00.000Z" }),
    event({ id: 1, at: "2026-11-29T12:00:00.000Z" }),
  ];

  it("keeps the order and splits at midnight in the display zone", () => {
    const utc = groupAuditEventsByDay(events, "UTC");
    expect(utc.map((d) => [d.key, d.events.map((e) => e.id)])).toEqual([
      ["2026-12-01", [4]],
      ["2026-11-30", [3, 2]],
      ["2026-11-29", [1]],
    ]);
    expect(utc[1]?.label).toBe("Monday 30 November 2026");
    // 23:30 UTC is already 1 December in Berlin.
    const berlin = groupAuditEventsByDay(events, "Europe/Berlin");
    expect(berlin.map((d) => d.events.map((e) => e.id))).toEqual([[4, 3], [2], [1]]);
  });

  it("renders a day as text with a heading", () => {
    expect(formatAuditText(events.slice(1, 3), "UTC")).toBe(
      'Monday 30 November 2026\n  23:30 alice approved insert_edge("Client", "inherits", "BaseClient") (1 of 2) · graph httpx\n  09:00 alice approved insert_edge("Client", "inherits", "BaseClient") (1 of 2) · graph httpx',
    );
  });
});

describe("auditLinks", () => {
  it("links the proposal, run and version an event names, and the graph", () => {
    expect(auditLinks(event({ targetId: "p1#0" }))).toEqual([
      { label: "action 1", href: "/proposals/p1#action-1" },
      { label: "graph httpx", href: "/graphs/httpx" },
    ]);
    expect(auditLinks(event({ targetType: "proposal", targetId: "p9", details: null }))[0]).toEqual({ label: "proposal", href: "/proposals/p9" });
    expect(auditLinks(event({ action: "changeset.apply", targetType: "version", targetId: "3", details: { proposalId: "p1", runId: "r 1" } })).map((l) => l.href)).toEqual([
      "/proposals/p1",
      "/runs/r%201",
      "/graphs/httpx/versions/3",
      "/graphs/httpx",
    ]);
    expect(auditLinks(event({ graphName: null, targetType: "user", targetId: "u2", details: null }))).toEqual([]);
  });
});

describe("groupAuditActions", () => {
  it("groups by prefix in list order, with readable labels", () => {
    const groups = groupAuditActions({ "auth.login": "signed in", "auth.logout": "signed out", "action.approve": "approved an action", "widget.spin": "spun" });
    expect(groups.map((g) => [g.prefix, g.label, g.actions.length])).toEqual([
      ["auth.", "Sign-in", 2],
      ["action.", "Decisions", 1],
      ["widget.", "Widget", 1],
    ]);
  });
});

describe("zoned days", () => {
  it("finds the start of a day in a zone, across a DST change", () => {
    expect(startOfDayIn("2026-11-30", "UTC").toISOString()).toBe("2026-11-30T00:00:00.000Z");
    expect(startOfDayIn("2026-11-30", "Europe/Berlin").toISOString()).toBe("2026-11-29T23:00:00.000Z");
    expect(startOfDayIn("2026-07-01", "Europe/Berlin").toISOString()).toBe("2026-06-30T22:00:00.000Z");
    // The day the clocks go forward in New York starts at 05:00 UTC (still EST at midnight).
    expect(startOfDayIn("2026-03-08", "America/New_York").toISOString()).toBe("2026-03-08T05:00:00.000Z");
    expect(startOfDayIn("2026-03-09", "America/New_York").toISOString()).toBe("2026-03-09T04:00:00.000Z");
    expect(dayKeyIn(new Date("2026-11-29T23:30:00Z"), "Europe/Berlin")).toBe("2026-11-30");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
  });
});
