/**
 * patchQueueRows: a decision's answer moves its rows at once (the full re-read of a long queue
 * follows in the background); rows of other proposals are left as they were.
 */
import { describe, expect, it } from "vitest";
import type { QueueRow } from "./queue-rows";
import { applyQueueFilters, DEFAULT_FILTERS, patchQueueRows } from "./queue-rows";

function row(proposalId: string, index: number): QueueRow {
  return {
    key: `${proposalId}:${index}`,
    proposalId,
    index,
    status: "pending",
    approvals: 0,
    required: 2,
    appliedIn: null,
    confidence: "MEDIUM",
    createdAt: "2026-12-01T10:00:00.000Z",
    graph: "g",
    question: null,
    text: `action ${index}`,
    action: { type: "insert_edge", subject: "a", relation: `r${index}`, object: "b" },
    origin: "cli",
  } as QueueRow;
}

describe("patchQueueRows", () => {
  const rows = [row("p1", 0), row("p1", 1), row("p2", 0)];

  it("writes status, approvals and the applying version into the decided rows only", () => {
    const patched = patchQueueRows(rows, "p1", [
      { index: 0, status: "applied", approvals: 2, required: 2, appliedIn: 7 },
      { index: 1, status: "pending", approvals: 1, required: 2, appliedIn: null },
    ]);
    expect(patched.map((r) => [r.key, r.status, r.approvals, r.appliedIn])).toEqual([
      ["p1:0", "applied", 2, 7],
      ["p1:1", "pending", 1, null],
      ["p2:0", "pending", 0, null],
    ]);
    expect(patched[2]).toBe(rows[2]);
    // The pending view drops the applied row at once.
    expect(applyQueueFilters(patched, DEFAULT_FILTERS).visible.map((r) => r.key).sort()).toEqual(["p1:1", "p2:0"]);
  });

  it("leaves the rows alone for another proposal, and ignores a status the queue does not know", () => {
    expect(patchQueueRows(rows, "p3", [{ index: 0, status: "applied" }])).toBe(rows);
    expect(patchQueueRows(rows, "p2", [{ index: 0, status: "all" }])[2]?.status).toBe("pending");
    expect(patchQueueRows(rows, "p2", [{ index: 0, status: "something-new" }])[2]?.status).toBe("pending");
  });
});
