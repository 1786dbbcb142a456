/**
 * `refinery ask` against a real SQLite database: MuSiQue (passages) and MetaQA (128k triples),
 * questions asked as a person would. The JSON carries the answers' labels best first and the
 * whole trace; the ask is stored and listed; usage and failures exit 2 and 1.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataPath } from "../lib/test/data";
import type { TestDatabase } from "../lib/server/db/test-database";
import { useTestDatabase } from "../lib/server/db/test-database";
import { main } from "./main";

let db: TestDatabase;
const QUESTION = "Who was the first president of the association which published Journal of Psychotherapy Integration?";

async function run(...argv: string[]) {
  let out = "";
  let err = "";
  const code = await main(argv, { out: (t) => (out += t + "\n"), err: (t) => (err += t + "\n") });
  return { code, out, err };
}

interface AskJson {
  ask_id: string;
  status: string;
  answers: string[];
  provider: { name: string; is_llm: boolean };
  trace: { plan: unknown[]; calls: { tool: string }[]; subgraph: unknown[]; question: string };
}

beforeAll(async () => {
  db = await useTestDatabase("ask-cli");
  expect((await run("import", dataPath("musique"), "--name", "musique")).code).toBe(0);
  expect((await run("import", dataPath("metaqa", "kb.txt"), "--name", "metaqa")).code).toBe(0);
}, 120_000);

afterAll(async () => {
  await db.cleanup();
});

describe("refinery ask", () => {
  it("answers with labels best first and the full trace in --json", async () => {
    const r = await run("ask", "musique", QUESTION, "--json");
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out) as AskJson;
    expect(json.status).toBe("answered");
    expect(json.answers[0]).toBe("G. Stanley Hall");
    expect(json.provider).toMatchObject({ name: "heuristic", is_llm: false });
    expect(json.trace.question).toBe(QUESTION);
    expect(json.trace.plan.length).toBeGreaterThanOrEqual(2);
    expect(json.trace.calls.some((c) => c.tool === "neighbor_search")).toBe(true);
    expect(json.trace.subgraph.length).toBeGreaterThan(0);
  });

  it("prints the plan, the tool calls and the answer as text, and says the heuristic is not an LLM", async () => {
    const r = await run("ask", "musique", QUESTION);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/not an LLM/);
    expect(r.out).toMatch(/^plan:\n {2}Ans1 = SearchKG\(/m);
    expect(r.out).toMatch(/^tool calls:\n {2}1\. relation_search\(/m);
    expect(r.out).toMatch(/^answer:\n {2}1\. G\. Stanley Hall/m);
  });

  it("answers MetaQA 1-hop and 2-hop questions from the graph", async () => {
    const oneHop = JSON.parse((await run("ask", "metaqa", "who directed Leatherheads", "--json")).out) as AskJson;
    expect(oneHop.answers).toContain("George Clooney");
    const twoHop = JSON.parse((await run("ask", "metaqa", "which person directed the movies starred by John Krasinski", "--json")).out) as AskJson;
    expect(twoHop.answers).toEqual(expect.arrayContaining(["George Clooney", "Sam Mendes", "Ken Kwapis"]));
    expect(twoHop.answers).not.toContain("John Krasinski");
  }, 60_000);

  it("lists the stored asks, newest first", async () => {
    const r = await run("ask", "musique", "--list", "--json");
    const list = JSON.parse(r.out) as { question: string; status: string }[];
    expect(list.length).toBe(2);
    expect(list.every((a) => a.question === QUESTION && a.status === "answered")).toBe(true);
  });

  it("explains usage (exit 2) and failures (exit 1)", async () => {
    const help = await run("ask", "--help");
    expect(help.code).toBe(0);
    expect(help.out + help.err).toMatch(/--provider/);
    expect((await run("ask", "musique")).code).toBe(2);
    expect((await run("ask", "musique", QUESTION, "--tool-budget", "0")).code).toBe(2);
    const missing = await run("ask", "nosuch", QUESTION, "--json");
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.err) as { error: { code: string } }).toMatchObject({ error: { code: "NOT_FOUND" } });
  });
});
