/**
 * A fresh demo has something to review: the suggested questions, run through the real hop loop
 * with the heuristic provider and reviewed by the server's own review, leave proposals labelled
 * HIGH, MEDIUM and LOW, and they find the gaps and the wrong edge demo/README.md lists.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatAction } from "../lib/loop/parse-output";
import { findProposals, type ProposalDetails } from "../lib/server/proposals/proposals";
import type { TestDatabase } from "../lib/server/db/test-database";
import { useTestDatabase } from "../lib/server/db/test-database";
import { seedDemo, type SeedDemoResult } from "./demo-seed";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
let db: TestDatabase;
let seeded: SeedDemoResult;
let proposals: ProposalDetails[];

beforeAll(async () => {
  db = await useTestDatabase("demo-seed");
  seeded = await seedDemo({ root, name: "httpx-demo" });
  proposals = await findProposals({ graph: "httpx-demo" });
}, 180_000);

afterAll(async () => {
  await db.cleanup();
});

describe("the demo's suggested questions", () => {
  it("imports the graph with its six source files", () => {
    expect(seeded.report.graph.documents).toBe(6);
    expect(seeded.report.corpus.missing).toEqual([]);
  });

  it("answer one question from the graph and leave proposals for the others", () => {
    expect(seeded.runs[0]?.status).toBe("early_exit");
    for (const run of seeded.runs.slice(1)) expect(run.actions, run.question).toBeGreaterThan(0);
  });

  it("leave HIGH, MEDIUM and LOW proposals in the queue", () => {
    const labels = new Set(proposals.flatMap((p) => p.actions.map((a) => a.confidence)));
    expect([...labels].sort()).toEqual(["HIGH", "LOW", "MEDIUM"]);
  });

  it("find each documented gap and the wrong edge, with the code that states it", () => {
    const byText = new Map(proposals.flatMap((p) => p.actions.map((a) => [formatAction(a.action), a] as const)));
    const gaps = [
      'insert_edge("BearerAuth", "inherits", "Auth")',
      'insert_edge("HTTPTransport", "uses", "ConnectionPool")',
      'insert_edge("MockTransport", "inherits", "BaseTransport")',
    ];
    for (const gap of gaps) {
      const item = byText.get(gap);
      expect(item, gap).toBeDefined();
      expect(item?.review.evidence.some((e) => e.kind === "code"), gap).toBe(true);
    }
    expect(byText.get('delete_edge("MockTransport", "inherits", "HTTPTransport")')).toBeDefined();
  });
});
