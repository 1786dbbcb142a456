/**
 * An insert whose endpoints the graph lacks, reviewed through reviewForGraph on the imported
 * MuSiQue bundle with one extracted triple removed ("Restoration began in mid-1970s", both ends
 * named only there): the server finds the passages naming both sides (findDocumentsNaming, SQL
 * LIKE with its wildcards escaped) and the review reads them with the statement rules. So does an
 * insert between two nodes whose stating passage is linked to neither ("Warren County is located
 * in Indiana", also removed).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RefinementAction } from "../../loop/types";
import { dataPath, readData } from "../../test/data";
import { findDocumentsNaming, getGraphSummary, importGraphFromPath } from "../graphs";
import { reviewForGraph } from "./proposals";
import type { TestDatabase } from "../db/test-database";
import { useTestDatabase } from "../db/test-database";

let db: TestDatabase;
let dir: string;
let version: number;
let graphId: string;

const ins = (subject: string, relation: string, object: string): RefinementAction => ({ type: "insert_edge", subject, relation, object });
const review = (actions: RefinementAction[]) => reviewForGraph({ graph: "musique-cut", version, actions, rulesWaitMs: 60_000 });

beforeAll(async () => {
  db = await useTestDatabase("review-new-endpoint");
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "refinery-new-endpoint-"));
  fs.copyFileSync(dataPath("musique", "corpus.jsonl"), path.join(dir, "corpus.jsonl"));
  const triples = readData("musique", "triples.jsonl")
    .split("\n")
    .filter((l) => !l.includes('"subject": "Restoration", "relation": "began in"') && !l.includes('"subject": "Warren County", "relation": "is located in", "object": "Indiana"'));
  fs.writeFileSync(path.join(dir, "triples.jsonl"), triples.join("\n"));
  const report = await importGraphFromPath({ path: dir, name: "musique-cut" });
  graphId = report.graph.id;
  version = (await getGraphSummary("musique-cut")).version;
}, 120_000);

afterAll(async () => {
  fs.rmSync(dir, { recursive: true, force: true });
  await db.cleanup();
});

describe("an insert with new endpoints reads the passages that name both", () => {
  it("finds the passage (case-insensitive) and the sentence states it: HIGH, with the quote and its source", async () => {
    expect((await findDocumentsNaming(graphId, [{ subject: "RESTORATION", object: "Mid-1970s" }], 20)).map((d) => d.docId)).toEqual(["musique-p1865"]);
    const [r] = await review([ins("Restoration", "began in", "mid-1970s")]);
    expect(r?.resolved.subject?.status).toBe("not_found");
    expect(r?.resolved.object?.status).toBe("not_found");
    expect(r?.confidence).toBe("HIGH");
    expect(r?.reasons).toContain('1 passage names both "Restoration" and "mid-1970s" (read because an endpoint is new)');
    const text = r?.evidence.find((e) => e.kind === "text");
    expect(text?.quote).toBe("Restoration began in the mid-1970s, and the building was reopened in 1985.");
    expect(text?.source).toMatchObject({ docId: "musique-p1865", title: "Hudson County Courthouse" });
  });

  it("LIKE's own characters in a name match themselves, never any text", async () => {
    // Unescaped, "_%" would match every passage that names "restoration".
    expect(await findDocumentsNaming(graphId, [{ subject: "restoration", object: "_%" }], 20)).toEqual([]);
    expect(await findDocumentsNaming(graphId, [{ subject: "restoration", object: "mid\\1970s" }], 20)).toEqual([]);
    const [r] = await review([ins("Restoration", "began in", "_%")]);
    expect(r?.confidence).toBe("LOW");
    expect(r?.evidence.some((e) => e.kind === "text")).toBe(false);
  });

  it("an insert between two nodes reads the passage naming both that neither node links to", async () => {
    // musique-p1878 ("… townships in Warren County, Indiana, United States") is behind "Warren
    // County, Indiana" and "Mound Township", not behind "Warren County" or "Indiana".
    const [r] = await review([ins("Warren County", "is located in", "Indiana")]);
    expect(r?.resolved.subject?.status).toBe("exact");
    expect(r?.resolved.object?.status).toBe("exact");
    expect(r?.reasons.some((x) => x.endsWith('both "Warren County" and "Indiana" (found in the corpus; linked to neither node)'))).toBe(true);
    expect(r?.evidence.find((e) => e.kind === "text")?.source).toMatchObject({ docId: "musique-p1878" });
    expect(r?.confidence).toBe("MEDIUM");
  });

  it("at most `limit` documents per search, in docId order", async () => {
    const many = await findDocumentsNaming(graphId, [{ subject: "the", object: "of" }], 3);
    expect(many.map((d) => d.docId)).toEqual([...many.map((d) => d.docId)].sort());
    expect(many).toHaveLength(3);
  });
});
