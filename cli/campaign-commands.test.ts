/**
 * `refinery campaign run` against a real SQLite database with the MuSiQue bundle: the JSON has
 * an entry per iteration with its decision and score, the best iteration and the halt; the live
 * graph keeps its version; bad input exits 1 or 2 with a clear message.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataPath, readData } from "../lib/test/data";
import type { TestDatabase } from "../lib/server/db/test-database";
import { useTestDatabase } from "../lib/server/db/test-database";
import { main } from "./main";

let db: TestDatabase;

async function run(...argv: string[]) {
  let out = "";
  let err = "";
  const code = await main(argv, { out: (t) => (out += t + "\n"), err: (t) => (err += t + "\n") });
  return { code, out, err };
}

interface CampaignJson {
  campaign_id: string;
  status: string;
  iterations: { iter: number; decision: string; score: { overall: number; band: string; answerability: number; accuracy: number | null } }[];
  best_iter: number;
  halted_because: string;
  proposal_id: string | null;
  worklog: unknown[];
}

beforeAll(async () => {
  db = await useTestDatabase("campaign-cli");
  expect((await run("import", dataPath("musique"), "--name", "musique")).code).toBe(0);
}, 120_000);

afterAll(async () => {
  await db.cleanup();
});

describe("refinery campaign", () => {
  it("runs on MuSiQue questions to a halt and prints the iterations as JSON", async () => {
    const file = path.join(db.dir, "questions.jsonl");
    fs.writeFileSync(file, readData("musique", "questions.jsonl").split("\n").slice(0, 12).join("\n"));
    const before = JSON.parse((await run("graphs", "--json")).out) as { name: string; version: number }[];
    const r = await run("campaign", "run", "musique", "--questions", file, "--iterations", "2", "--json");
    expect(r.code, r.err).toBe(0);
    const c = JSON.parse(r.out) as CampaignJson;
    expect(c.iterations[0]).toMatchObject({ iter: 0, decision: "BASELINE" });
    expect(c.iterations.length).toBeGreaterThanOrEqual(2);
    for (const it of c.iterations) {
      expect(it.score.overall).toBeGreaterThanOrEqual(0);
      expect(it.score.overall).toBeLessThanOrEqual(100);
      expect(typeof it.score.accuracy).toBe("number");
    }
    expect(["cap", "nothing_left", "plateau", "target_met"]).toContain(c.halted_because);
    expect(c.worklog).toHaveLength(c.iterations.length);
    expect(r.err).toMatch(/iter 0: BASELINE/);
    const after = JSON.parse((await run("graphs", "--json")).out) as { name: string; version: number }[];
    expect(after.find((g) => g.name === "musique")?.version).toBe(before.find((g) => g.name === "musique")?.version);
    const shown = await run("campaign", "show", c.campaign_id);
    expect(shown.out).toContain("iter0 ");
    const listed = await run("campaign", "list", "musique", "--json");
    expect((JSON.parse(listed.out) as { id: string }[])[0]?.id).toBe(c.campaign_id);
  }, 180_000);

  it("refuses a bad question file and a bad cap", async () => {
    const bad = path.join(db.dir, "bad.jsonl");
    fs.writeFileSync(bad, '{"question": "ok?"}\n{"nope": 1}\n');
    const r = await run("campaign", "run", "musique", "--questions", bad);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/bad\.jsonl: line 2/);
    expect((await run("campaign", "run", "musique", "--questions", bad, "--iterations", "0")).code).toBe(2);
    expect((await run("campaign", "run", "musique", "--questions", path.join(db.dir, "missing.jsonl"))).code).toBe(1);
  });
});
