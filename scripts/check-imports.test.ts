/** The house plan's import rules (scripts/check-imports.ts) on small made-up import lists; `npm run lint` runs them on the tree. */
import { describe, expect, it } from "vitest";
import type { ImportEdge } from "./check-imports";
import { findBoundaryViolations, findCycles } from "./check-imports";

const edge = (from: string, to: string, typeOnly = false): ImportEdge => ({ from, to, typeOnly, line: 1 });

describe("findCycles", () => {
  it("finds a circle of three files, and a type-only circle too", () => {
    expect(findCycles([edge("a.ts", "b.ts"), edge("b.ts", "c.ts"), edge("c.ts", "a.ts"), edge("c.ts", "d.ts")])).toEqual([["a.ts", "b.ts", "c.ts"]]);
    expect(findCycles([edge("x.ts", "y.ts", true), edge("y.ts", "x.ts")])).toEqual([["x.ts", "y.ts"]]);
  });

  it("passes a layered graph", () => {
    expect(findCycles([edge("a.ts", "b.ts"), edge("a.ts", "c.ts"), edge("b.ts", "c.ts")])).toEqual([]);
  });
});

describe("findBoundaryViolations", () => {
  it("lets a domain import db/ files, its own files and other domains' entry files", () => {
    expect(
      findBoundaryViolations([
        edge("lib/server/proposals/proposals.ts", "lib/server/db/db.ts"),
        edge("lib/server/proposals/proposals.ts", "lib/server/proposals/changesets.ts"),
        edge("lib/server/proposals/proposals.ts", "lib/server/graphs/index.ts"),
        edge("lib/server/proposals/proposals.ts", "lib/graph/knowledge-graph.ts"),
        edge("app/api/graphs/route.ts", "lib/server/graphs/graph-store.ts"),
      ]),
    ).toEqual([]);
  });

  it("refuses another domain's internals, db/ climbing up, and loose files in lib/server", () => {
    const problems = findBoundaryViolations([
      edge("lib/server/proposals/proposals.ts", "lib/server/graphs/graph-store.ts", true),
      edge("lib/server/db/sql.ts", "lib/server/audit/index.ts"),
      edge("lib/server/loose.ts", "lib/server/db/db.ts"),
    ]);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toContain('an internal of graphs/; import "../graphs"');
    expect(problems[1]).toContain("db/ is the bottom layer");
    expect(problems[2]).toContain("no loose files");
  });

  it("lets tests use another domain's test helpers, and only those", () => {
    expect(findBoundaryViolations([edge("lib/server/proposals/x.test.ts", "lib/server/auth/test-support.ts")])).toEqual([]);
    expect(findBoundaryViolations([edge("lib/server/proposals/x.ts", "lib/server/auth/test-support.ts")])).toHaveLength(1);
    expect(findBoundaryViolations([edge("lib/server/db/sql.test.ts", "lib/server/audit/index.ts")])).toEqual([]);
  });
});
