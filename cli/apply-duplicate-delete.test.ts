/**
 * Duplicate clean-up through the real apply path: a MuSiQue edge stored twice (extracted from
 * two passages about the Ohio River), the heuristic provider proposes its delete, the review
 * says one copy is kept, the server applies it, and the export of the new version holds exactly
 * one copy (the fact stays). Revert gives both copies back.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { proposeRefinements } from "../lib/providers/heuristic";
import { applyProposal, createProposal, reviewForGraph } from "../lib/server/proposals/proposals";
import { loadGraph } from "../lib/server/graphs/graph-store";
import type { TestDatabase } from "../lib/server/db/test-database";
import { useTestDatabase } from "../lib/server/db/test-database";
import { readData } from "../lib/test/data";
import { main } from "./main";

const PASSAGES = new Set(["musique-p0091", "musique-p0094"]);
const FACT = { subject: "Ohio River", relation: "follows course to", object: "Cincinnati" };

let db: TestDatabase;

async function run(...argv: string[]) {
  let out = "";
  let err = "";
  const code = await main(argv, { out: (t) => (out += t + "\n"), err: (t) => (err += t + "\n") });
  return { code, out, err };
}

/** Links of the exported graph.json that carry the fact. */
async function exportedCopies(version?: number): Promise<{ source_passage?: string }[]> {
  const r = await run("export", "ohio", ...(version ? ["--version", String(version)] : []));
  expect(r.code).toBe(0);
  const json = JSON.parse(r.out) as { links: { source: string; target: string; relation: string; source_passage?: string }[] };
  return json.links.filter((l) => l.source === FACT.subject && l.target === FACT.object && l.relation === FACT.relation);
}

/** The two passages' lines of the real bundle, as a bundle folder of their own. */
function writeBundle(dir: string): string {
  const keep = (file: string, key: "id" | "source") =>
    readData("musique", file)
      .split("\n")
      .filter((line) => line.trim() && PASSAGES.has((JSON.parse(line) as Record<string, string>)[key] ?? ""))
      .join("\n") + "\n";
  const folder = path.join(dir, "ohio");
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, "corpus.jsonl"), keep("corpus.jsonl", "id"));
  fs.writeFileSync(path.join(folder, "triples.jsonl"), keep("triples.jsonl", "source"));
  return folder;
}

beforeAll(async () => {
  db = await useTestDatabase("dedupe");
  expect((await run("import", writeBundle(db.dir), "--name", "ohio", "--format", "bundle")).code).toBe(0);
});

afterAll(async () => {
  await db.cleanup();
});

describe("duplicate clean-up keeps one copy", () => {
  it("the heuristic's delete of an edge stored twice, applied and exported, leaves exactly one copy", async () => {
    const before = await exportedCopies();
    expect(before.map((l) => l.source_passage).sort()).toEqual(["musique-p0091", "musique-p0094"]);

    const { graph, version } = await loadGraph("ohio");
    const triples = graph.outEdges(FACT.subject).map((e) => graph.toTriple(e));
    const proposed = proposeRefinements({ graph, question: "What city does the Ohio River flow past?", triples, documents: [], maxActions: 10 });
    const action = proposed.find((a) => a.type === "delete_edge" && a.subject === FACT.subject && a.object === FACT.object && a.relation === FACT.relation);
    expect(action).toBeDefined();
    if (!action) return;

    const [review] = await reviewForGraph({ graph: "ohio", actions: [action] });
    expect(JSON.stringify(review)).toContain("2 identical copies; 1 removed, 1 kept");
    const proposalId = await createProposal({ graph: "ohio", baseVersion: version, source: "api", actions: [action], reviews: review ? [review] : [] });
    const result = await applyProposal({ proposalId, allowLowConfidence: true });
    expect(result.applied[0]?.summary).toMatch(/^Removes 1 of 2 identical copies of the edge “Ohio River” —follows course to→ “Cincinnati” and keeps one\./);

    const after = await exportedCopies();
    expect(after).toHaveLength(1);
    expect(PASSAGES.has(after[0]?.source_passage ?? "")).toBe(true);
    // The other facts of the two passages are untouched.
    expect((await loadGraph("ohio")).graph.edges.size).toBe(graph.edges.size - 1);

    expect((await run("revert", "ohio", "--version", String(result.version))).code).toBe(0);
    expect(await exportedCopies()).toEqual(before);
  });
});
