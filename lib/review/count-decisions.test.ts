import { describe, expect, it } from "vitest";
import { countDecisions, describeLabelStats } from "./count-decisions";

describe("countDecisions", () => {
  const rows = [
    { graph: "g", kind: "insert_edge", label: "LOW", status: "applied" },
    { graph: "g", kind: "insert_edge", label: "LOW", status: "skipped" },
    { graph: "g", kind: "insert_edge", label: "LOW", status: "reverted" },
    { graph: "g", kind: "insert_edge", label: "LOW", status: "rejected" },
    { graph: "g", kind: "insert_edge", label: "LOW", status: "pending" },
    { graph: "g", kind: "delete_edge", label: "HIGH", status: "rejected" },
    { graph: "other", kind: "insert_edge", label: "LOW", status: "applied" },
    { graph: "g", kind: "rename_node", label: "LOW", status: "applied" },
  ];

  it("counts approvals (reverted among them), vetoes, and nothing pending or unknown", () => {
    const [g] = countDecisions({ graphs: ["g"], rows });
    expect(g?.decided).toBe(5);
    const low = g?.stats.find((s) => s.kind === "insert_edge" && s.label === "LOW");
    expect(low).toEqual({ kind: "insert_edge", label: "LOW", decided: 4, approved: 3, rejected: 1, reverted: 1 });
    expect(describeLabelStats(low ?? (undefined as never))).toBe("LOW inserts on this graph: 3 of 4 approved; 1 reverted");
  });

  it("says when a kind and label has no decision yet", () => {
    const [g] = countDecisions({ graphs: ["g"], rows: [] });
    const merges = g?.stats.find((s) => s.kind === "replace_node" && s.label === "MEDIUM");
    expect(merges && describeLabelStats(merges)).toBe("No MEDIUM merge on this graph decided yet");
  });
});
