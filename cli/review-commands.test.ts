/**
 * Review and apply through the CLI against a real database: LOW refused without the explicit
 * flag (graph untouched), apply creates a version, diff shows it, revert gives back an export
 * byte-identical to the original, and two concurrent applies of one proposal: exactly one wins.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataPath, readData } from "../lib/test/data";
import type { TestDatabase } from "../lib/server/db/test-database";
import { useTestDatabase } from "../lib/server/db/test-database";
import { applyProposal, createProposal, reviewForGraph } from "../lib/server/proposals/proposals";
import { isAppError } from "../lib/errors";
import { createTestUser } from "../lib/server/auth/test-support";
import { getDb } from "../lib/server/db/db";
import { main } from "./main";

let db: TestDatabase;
let tmp: string;
const original = readData("graphify", "httpx", "graph.json");

async function run(...argv: string[]) {
  let out = "";
  let err = "";
  const code = await main(argv, { out: (t) => (out += t + "\n"), err: (t) => (err += t + "\n") });
  return { code, out, err };
}

function refinementFile(name: string, body: string): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, `<refinement>${body}</refinement>\n`);
  return file;
}

async function exported(version?: number): Promise<string> {
  const r = await run("export", "httpx", ...(version ? ["--version", String(version)] : []));
  expect(r.code).toBe(0);
  return r.out.replace(/\n$/, "");
}

beforeAll(async () => {
  db = await useTestDatabase("apply");
  tmp = db.dir;
  expect((await run("import", dataPath("graphify", "httpx"), "--name", "httpx")).code).toBe(0);
});

afterAll(async () => {
  await db.cleanup();
});

describe("review, apply, revert", () => {
  it("reviews a refinement file with labels, reasons and warnings", async () => {
    const file = refinementFile("r1.txt", 'insert_edge("Client", "inherits", "BaseClient")|insert_edge("main", "calls", "unknown")');
    const r = await run("review", "httpx", "--refinement-file", file, "--json");
    expect(r.code).toBe(0);
    const { reviews } = JSON.parse(r.out) as { reviews: { confidence: string; reasons: string[]; warnings: { code: string }[] }[] };
    expect(reviews[0]?.confidence).not.toBe("HIGH");
    expect(reviews[0]?.warnings.map((w) => w.code)).toContain("EDGE_EXISTS");
    expect(reviews[1]?.confidence).toBe("LOW");
    for (const review of reviews) expect(review.reasons.length).toBeGreaterThan(0);
    const human = await run("review", "httpx", "--refinement-file", file);
    expect(human.out).toMatch(/\[LOW [01]\.\d\d\]/);
  });

  it("refuses LOW without --allow-low-confidence and leaves the graph unchanged; applies with it; reverts to the original bytes", async () => {
    const file = refinementFile("r2.txt", 'replace_node("AsyncClient", "Client")|insert_edge("main", "calls", "unknown")');
    const refused = await run("apply", "httpx", "--refinement-file", file, "--json");
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("CONFIRMATION_REQUIRED");
    expect(JSON.parse((await run("stats", "httpx", "--json")).out)).toMatchObject({ version: 1 });
    expect(await exported()).toBe(original);
    // The refused apply leaves nothing behind in the review queue.
    expect(JSON.parse((await run("proposals", "httpx", "--status", "pending", "--json")).out)).toEqual([]);

    const applied = await run("apply", "httpx", "--refinement-file", file, "--allow-low-confidence", "--json");
    expect(applied.err).toBe("");
    const result = JSON.parse(applied.out) as { version: number; applied: { summary: string; change: { kind: string; from: { id: string }; into: { id: string } } }[] };
    expect(result.version).toBe(2);
    expect(result.applied[0]?.summary).toMatch(/^Merges “AsyncClient” into “Client” \(\d+ edges rewired/);
    // Scripts keep the ids: the change as data.
    expect(result.applied[0]?.change).toMatchObject({ kind: "merge", from: { id: "client_asyncclient" }, into: { id: "client_client" } });
    const v2 = await exported();
    expect(v2).not.toBe(original);
    expect(v2).not.toContain('"id": "client_asyncclient"');
    expect(await exported(1)).toBe(original);

    const diff = JSON.parse((await run("diff", "httpx", "--from", "1", "--to", "2", "--json")).out) as {
      mergedNodes: { from: { id: string }; into: { id: string } }[];
      addedNodes: { id: string }[];
      addedEdges: unknown[];
      changedEdges: unknown[];
    };
    expect(diff.mergedNodes.map((m) => [m.from.id, m.into.id])).toEqual([["client_asyncclient", "client_client"]]);
    expect(diff.addedEdges.length).toBe(1);
    expect(diff.changedEdges.length).toBeGreaterThan(0);

    const reverted = await run("revert", "httpx", "--version", "2", "--json");
    expect(reverted.code).toBe(0);
    expect((JSON.parse(reverted.out) as { version: number }).version).toBe(3);
    expect(await exported()).toBe(original);
    expect(await getDb().auditEvent.findFirst({ where: { action: "changeset.revert", actorKind: "cli" }, select: { summary: true } })).toEqual({
      summary: "reverted version 2 of httpx as version 3",
    });
    const again = await run("revert", "httpx", "--version", "2");
    expect(again.code).toBe(1);
    expect(again.err).toContain("already undone by version 3");

    const versions = JSON.parse((await run("versions", "httpx", "--json")).out) as { version: number; kind: string; revertedBy: number | null }[];
    expect(versions.map((v) => [v.version, v.kind])).toEqual([[3, "revert"], [2, "apply"], [1, "import"]]);
    expect(versions[1]?.revertedBy).toBe(3);
    const listed = (await run("versions", "httpx")).out;
    expect(listed).toMatch(/1\. Merges “AsyncClient” into “Client” \(\d+ edges rewired/);
    expect(listed).not.toContain("client_asyncclient");
  });

  it("refuses unknown entities and missing edges with a clear message, changing nothing", async () => {
    const before = await exported();
    const file = refinementFile("r3.txt", 'delete_edge("Client", "teleports", "BaseClient")');
    const r = await run("apply", "httpx", "--refinement-file", file, "--allow-low-confidence");
    expect(r.code).toBe(1);
    expect(r.err).toContain("there is no edge client_client --teleports--> client_baseclient");
    expect(await exported()).toBe(before);
  });

  it("two concurrent applies of the same proposal: exactly one wins", async () => {
    const actions = [{ type: "insert_edge" as const, subject: "Client", relation: "documented_in", object: "HTTPX guide" }];
    const reviews = await reviewForGraph({ graph: "httpx", actions });
    const stats = JSON.parse((await run("stats", "httpx", "--json")).out) as { version: number };
    const proposalId = await createProposal({ graph: "httpx", baseVersion: stats.version, source: "api", actions, reviews });
    const outcomes = await Promise.allSettled([
      applyProposal({ proposalId, allowLowConfidence: true }),
      applyProposal({ proposalId, allowLowConfidence: true }),
    ]);
    const won = outcomes.filter((o) => o.status === "fulfilled");
    const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === "rejected");
    expect(won.length).toBe(1);
    expect(lost.length).toBe(1);
    expect(isAppError(lost[0]?.reason) && lost[0].reason.code).toBe("CONFLICT");
    const after = JSON.parse((await run("stats", "httpx", "--json")).out) as { version: number; edges: number };
    expect(after.version).toBe(stats.version + 1);
    const proposals = JSON.parse((await run("proposals", "httpx", "--json")).out) as { id: string; status: string }[];
    expect(proposals.find((p) => p.id === proposalId)?.status).toBe("applied");
  });

  it("writes the wiki of a version", async () => {
    const out = path.join(tmp, "wiki");
    const r = await run("wiki", "httpx", "--out", out, "--json");
    expect(r.code).toBe(0);
    expect(fs.readFileSync(path.join(out, "index.md"), "utf8")).toContain("# httpx");
  });
});

describe("solo and team mode", () => {
  it("with one account (solo mode), apply works; a LOW action needs --allow-low-confidence and a --reason", async () => {
    await createTestUser({ username: "ada", role: "admin" });
    const stats = JSON.parse((await run("stats", "httpx", "--json")).out) as { version: number };
    const high = refinementFile("solo.txt", 'insert_edge("Client", "calls", "_build_request")');
    const applied = await run("apply", "httpx", "--refinement-file", high, "--json");
    expect(applied.code).toBe(0);
    expect((JSON.parse(applied.out) as { version: number }).version).toBe(stats.version + 1);
    const low = refinementFile("solo-low.txt", 'insert_edge("main", "calls", "no_such_thing_anywhere")');
    const reviewed = JSON.parse((await run("review", "httpx", "--refinement-file", low, "--json")).out) as { reviews: { confidence: string }[] };
    expect(reviewed.reviews[0]?.confidence).toBe("LOW");
    const pendingBefore = (JSON.parse((await run("proposals", "httpx", "--json", "--status", "pending")).out) as unknown[]).length;
    const noReason = await run("apply", "httpx", "--refinement-file", low, "--allow-low-confidence");
    expect(noReason.code).toBe(1);
    expect(noReason.err).toContain("--reason");
    // The refused apply leaves no proposal of its own behind.
    expect((JSON.parse((await run("proposals", "httpx", "--json", "--status", "pending")).out) as unknown[]).length).toBe(pendingBefore);
    const withReason = await run("apply", "httpx", "--refinement-file", low, "--allow-low-confidence", "--reason", "checked the source by hand");
    expect(withReason.code).toBe(0);
  });

  it("once a second person may approve (team mode), apply refuses and points to the browser; nothing changes", async () => {
    const before = await exported();
    await createTestUser({ username: "bea", role: "reviewer" });
    const file = refinementFile("team.txt", 'insert_edge("Client", "calls", "_build_request_team")');
    const r = await run("apply", "httpx", "--refinement-file", file);
    expect(r.code).toBe(1);
    expect(r.err).toContain("team mode");
    expect(r.err).toContain("/review");
    expect(await exported()).toBe(before);
    const proposals = JSON.parse((await run("proposals", "httpx", "--json", "--status", "pending")).out) as unknown[];
    const reviewOnly = await run("review", "httpx", "--refinement-file", file, "--json");
    expect(reviewOnly.code).toBe(0);
    expect((JSON.parse((await run("proposals", "httpx", "--json", "--status", "pending")).out) as unknown[]).length).toBe(proposals.length);
  });
});
