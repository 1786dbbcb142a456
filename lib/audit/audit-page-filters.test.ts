import { describe, expect, it } from "vitest";
import { EMPTY_AUDIT_FILTERS, auditApiSearch, auditPageSearch, parseAuditPageFilters } from "./audit-page-filters";
import { auditFilterQuery } from "./audit-query";

describe("the audit page's filters", () => {
  it("read from the URL, dropping what is malformed", () => {
    expect(parseAuditPageFilters(new URLSearchParams("actor=alice&action=action.&from=2026-11-30&to=nope&q=%20Client%20"))).toEqual({
      ...EMPTY_AUDIT_FILTERS,
      actor: "alice",
      action: "action.",
      q: "Client",
      from: "2026-11-30",
    });
    expect(parseAuditPageFilters(new URLSearchParams("action=1;drop&from=2026-13-45")).action).toBe("");
    expect(parseAuditPageFilters(new URLSearchParams("from=2026-13-45")).from).toBe("");
  });

  it("write back only what is set", () => {
    expect(auditPageSearch({ ...EMPTY_AUDIT_FILTERS, graph: "httpx", to: "2026-11-30" })).toBe("graph=httpx&to=2026-11-30");
    expect(auditPageSearch(EMPTY_AUDIT_FILTERS)).toBe("");
  });

  it("become API instants: whole days in the zone, the last day included", () => {
    const params = auditApiSearch({ ...EMPTY_AUDIT_FILTERS, actor: "alice", from: "2026-11-30", to: "2026-11-30" }, "Europe/Berlin");
    expect(params.toString()).toBe("actor=alice&from=2026-11-29T23%3A00%3A00.000Z&to=2026-11-30T23%3A00%3A00.000Z");
    // What the API accepts.
    const parsed = auditFilterQuery.parse(Object.fromEntries(params));
    expect(parsed.to?.toISOString()).toBe("2026-11-30T23:00:00.000Z");
  });
});
