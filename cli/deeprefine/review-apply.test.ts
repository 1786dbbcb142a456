/**
 * `deeprefine review | apply | undo` on a copy of the real httpx project: labels with evidence
 * from the real sources, LOW refused with graph.json byte-identical, an apply that writes a
 * versioned backup and the wiki, the --refresh-wiki parallel-relation rule, a real merge, undo
 * back to the original bytes, and undo refused after a later edit.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseGraphifyJson } from "../../lib/import/parse-graphify";
import type { Project } from "./test-project";
import { ORIGINAL_GRAPH, QUERY_ID, createProject, readGraph, run, traceJson, writeRefinement, writeTrace } from "./test-project";

let project: Project;
let trace: string;
beforeEach(() => {
  project = createProject();
  trace = writeTrace(project, traceJson());
});
afterEach(() => project.cleanup());

const HIGH_ACTION = 'insert_edge("HTTPTransport", "calls", "ConnectionPool")';
const LOW_ACTION = 'insert_edge("main", "calls", "unknown")';
const PARALLEL_ACTION = 'insert_edge("Client", "calls", "HTTPTransport")';
const MERGE_ACTION = 'replace_node("BaseTransport", "HTTPTransport")';

const versionsDir = () => path.join(project.state, "versions");

function edgesBetween(text: string, subject: string, object: string): string[] {
  const graph = parseGraphifyJson(text);
  const ids = (label: string) => new Set([...graph.nodes.values()].filter((n) => n.label === label).map((n) => n.id));
  const s = ids(subject);
  const o = ids(object);
  return [...graph.edges.values()].filter((e) => s.has(e.source) && o.has(e.target)).map((e) => e.relation);
}

describe("deeprefine review", () => {
  it("prints labels with reasons, evidence (file:line, quote) and warnings, and saves the report", async () => {
    const refinement = writeRefinement(project, `${HIGH_ACTION}|${LOW_ACTION}`);
    const r = await run(project, "review", "--trace-file", trace, "--refinement-file", refinement);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toContain(`[HIGH] ${HIGH_ACTION}`);
    expect(r.out).toContain(`[LOW] ${LOW_ACTION}`);
    expect(r.out).toContain("raw/transport.py:68");
    expect(r.out).toContain("GENERIC_NAME");
    expect(r.out).toContain("No graph changes applied. Proposed actions: 2");
    const report = fs.readFileSync(path.join(project.state, "proposed_refinement_review.md"), "utf8");
    expect(report).toContain(`[HIGH] ${HIGH_ACTION}`);
    expect(readGraph(project).equals(ORIGINAL_GRAPH)).toBe(true);
  });

  it("--json gives the skill's fields plus Refinery's", async () => {
    const refinement = writeRefinement(project, `${HIGH_ACTION}|${LOW_ACTION}|insert_edge("Client", "uses")`);
    const r = await run(project, "review", "--trace-file", trace, "--refinement-file", refinement, "--json");
    expect(r.code).toBe(0);
    const reviews = JSON.parse(r.out) as Record<string, unknown>[];
    expect(reviews).toHaveLength(3);
    for (const review of reviews) {
      for (const key of ["action", "confidence", "evidence", "warnings", "suggested_replacement", "reasons", "evidence_details", "warning_details", "suggestions"]) {
        expect(review).toHaveProperty(key);
      }
    }
    expect(reviews[0]).toMatchObject({ action: HIGH_ACTION, confidence: "HIGH" });
    expect((reviews[0]?.evidence as string[]).some((e) => e.includes("raw/transport.py:68") && e.includes('quote: "self._pool = ConnectionPool()"'))).toBe(true);
    expect(reviews[1]).toMatchObject({ confidence: "LOW" });
    // An action the parser cannot read is shown as LOW, not dropped.
    expect(reviews[2]).toMatchObject({ confidence: "LOW", warnings: [expect.stringContaining("UNPARSEABLE") as unknown] });
  });

  it("refuses to review against an invalid trace (exit 1)", async () => {
    const refinement = writeRefinement(project, HIGH_ACTION);
    const bad = writeTrace(project, traceJson({ step1: [["Client", "calls", "Nothing"]] }), "bad_trace.json");
    const r = await run(project, "review", "--trace-file", bad, "--refinement-file", refinement);
    expect(r.code).toBe(1);
    expect(r.err).toContain("Loop trace validation failed");
  });
});

describe("deeprefine apply and undo", () => {
  it("refuses LOW without --allow-low-confidence: exit 1, graph.json byte-identical, no version", async () => {
    const refinement = writeRefinement(project, `${HIGH_ACTION}|${LOW_ACTION}`);
    const r = await run(project, "apply", "--refresh-wiki", "--trace-file", trace, "--refinement-file", refinement);
    expect(r.code).toBe(1);
    expect(r.err).toContain("Refusing to apply because LOW-confidence action(s) were detected");
    expect(r.err).toContain(LOW_ACTION);
    expect(readGraph(project).equals(ORIGINAL_GRAPH)).toBe(true);
    expect(fs.existsSync(versionsDir())).toBe(false);
    expect(fs.existsSync(path.join(project.root, "graphify-out", "wiki"))).toBe(false);
  });

  it("requires a trace unless --skip-trace-check (exit 1)", async () => {
    const refinement = writeRefinement(project, HIGH_ACTION);
    const r = await run(project, "apply", "--refinement-file", refinement);
    expect(r.code).toBe(1);
    expect(r.err).toContain("requires --trace-file");
    expect(readGraph(project).equals(ORIGINAL_GRAPH)).toBe(true);
  });

  it("applies HIGH actions with a versioned backup and the wiki, and undo restores the original bytes", async () => {
    const refinement = writeRefinement(project, HIGH_ACTION);
    const r = await run(project, "apply", "--refresh-wiki", "--trace-file", trace, "--refinement-file", refinement);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toContain("as version 1");
    expect(r.out).toContain("+ HTTPTransport --calls--> ConnectionPool");

    const changed = readGraph(project);
    expect(changed.equals(ORIGINAL_GRAPH)).toBe(false);
    expect(edgesBetween(changed.toString("utf8"), "HTTPTransport", "ConnectionPool")).toEqual(["calls"]);
    // graphify's formatting: indent 2, ASCII escapes, Python floats.
    expect(changed.toString("utf8")).toMatch(/^\{\n {2}"directed": false,/);
    expect(changed.toString("utf8")).toContain('"weight": 1.0');

    const v1 = path.join(versionsDir(), "1");
    expect(fs.readdirSync(v1).sort()).toEqual(["changeset.json", "graph.json", "inverse.json", "version.json"]);
    expect(fs.readFileSync(path.join(v1, "graph.json")).equals(ORIGINAL_GRAPH)).toBe(true);
    const meta = JSON.parse(fs.readFileSync(path.join(v1, "version.json"), "utf8")) as Record<string, unknown>;
    expect(meta).toMatchObject({ version: 1, query_id: QUERY_ID, refresh_wiki: true, undone_ts: null });
    expect(fs.readFileSync(path.join(project.state, "graph.json.bak")).equals(ORIGINAL_GRAPH)).toBe(true);
    expect(fs.readFileSync(path.join(project.root, "graphify-out", "wiki", "index.md"), "utf8").length).toBeGreaterThan(0);

    // loop finish still accepts the trace after the apply.
    expect((await run(project, "loop", "finish", "--trace-file", trace, "--refinement-file", refinement)).code).toBe(0);

    const undo = await run(project, "undo");
    expect(undo.err).toBe("");
    expect(undo.code).toBe(0);
    expect(undo.out).toContain("Undid apply 1");
    expect(readGraph(project).equals(ORIGINAL_GRAPH)).toBe(true);
    expect((JSON.parse(fs.readFileSync(path.join(v1, "version.json"), "utf8")) as { undone_ts: unknown }).undone_ts).toEqual(expect.any(String));

    const nothing = await run(project, "undo");
    expect(nothing.code).toBe(1);
    expect(nothing.err).toContain("Nothing to undo");
  });

  it("rolls graph.json back when the wiki cannot be written (the skill's swap-with-rollback)", async () => {
    // A file where the wiki folder should be: writing the wiki fails after graph.json was written.
    const wikiPath = path.join(project.root, "graphify-out", "wiki");
    fs.writeFileSync(wikiPath, "not a folder");
    const refinement = writeRefinement(project, HIGH_ACTION);
    const r = await run(project, "apply", "--refresh-wiki", "--trace-file", trace, "--refinement-file", refinement);
    expect(r.code).toBe(1);
    expect(r.err).toContain("graph.json was rolled back");
    expect(readGraph(project).equals(ORIGINAL_GRAPH)).toBe(true);
    expect(fs.existsSync(path.join(versionsDir(), "1"))).toBe(false);
    expect(fs.readFileSync(wikiPath, "utf8")).toBe("not a folder");
  });

  it("with --refresh-wiki refuses a new parallel relation on an already-linked pair; without it, applies", async () => {
    const refinement = writeRefinement(project, PARALLEL_ACTION);
    const refused = await run(project, "apply", "--refresh-wiki", "--trace-file", trace, "--refinement-file", refinement);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('Client --calls--> HTTPTransport: already linked by "uses"');
    expect(readGraph(project).equals(ORIGINAL_GRAPH)).toBe(true);
    expect(fs.existsSync(versionsDir())).toBe(false);

    const applied = await run(project, "apply", "--trace-file", trace, "--refinement-file", refinement, "--json");
    expect(applied.code).toBe(0);
    const out = JSON.parse(applied.out) as { applied: boolean; version: number; wiki: unknown };
    expect(out).toMatchObject({ applied: true, version: 1, wiki: null });
    expect(edgesBetween(readGraph(project).toString("utf8"), "Client", "HTTPTransport").sort()).toEqual(["calls", "uses"]);
  });

  it("merges for real with replace_node, and undo walks back one apply at a time", async () => {
    const first = writeRefinement(project, `${HIGH_ACTION}|delete_edge("Client", "uses", "InvalidURL")`, "first.txt");
    // The delete is LOW: a mined rule (inherits ∧ uses ⇒ uses, confidence 1.00) predicts the edge
    // although Client's own body does not name InvalidURL. This test is about merges and undo.
    expect((await run(project, "apply", "--trace-file", trace, "--refinement-file", first, "--allow-low-confidence")).code).toBe(0);
    const afterFirst = readGraph(project);

    const merge = writeRefinement(project, MERGE_ACTION, "merge.txt");
    // LOW: BaseTransport and HTTPTransport each have their own class line (two things); the test
    // is about how a merge is applied and undone, so it accepts the risk explicitly.
    const r = await run(project, "apply", "--trace-file", trace, "--refinement-file", merge, "--json", "--allow-low-confidence");
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out) as { version: number; actions: { summary: string }[]; diff: { mergedNodes: unknown[]; removedNodes: { id: string }[] } };
    expect(out.version).toBe(2);
    expect(out.actions[0]?.summary).toMatch(/^Merges “BaseTransport” into “HTTPTransport” \(/);
    const merged = parseGraphifyJson(readGraph(project).toString("utf8"));
    expect(merged.getNode("transport_basetransport")).toBeUndefined();
    expect(merged.getNode("transport_httptransport")?.aliases).toContain("BaseTransport");
    expect(merged.edges.size).toBeLessThan(parseGraphifyJson(afterFirst.toString("utf8")).edges.size);

    // The trace's triple Client --uses--> InvalidURL was deleted by apply 1: finish checks it against the backup.
    const finish = await run(project, "loop", "finish", "--trace-file", trace, "--refinement-file", first);
    expect(finish.code).toBe(0);
    expect(finish.err).toContain("before apply 1");

    expect((await run(project, "undo", "--json")).code).toBe(0);
    expect(readGraph(project).equals(afterFirst)).toBe(true);
    const second = JSON.parse((await run(project, "undo", "--json")).out) as { undone: number; remaining: number };
    expect(second).toMatchObject({ undone: 1, remaining: 0 });
    expect(readGraph(project).equals(ORIGINAL_GRAPH)).toBe(true);

    // A new apply after undos gets the next number, never reusing an old folder.
    expect((await run(project, "apply", "--trace-file", trace, "--refinement-file", first, "--allow-low-confidence")).code).toBe(0);
    expect(fs.existsSync(path.join(versionsDir(), "3", "graph.json"))).toBe(true);
  });

  it("undo refuses when graph.json was edited after the apply, and leaves the edit alone", async () => {
    const refinement = writeRefinement(project, HIGH_ACTION);
    expect((await run(project, "apply", "--trace-file", trace, "--refinement-file", refinement)).code).toBe(0);
    const edited = Buffer.from(readGraph(project).toString("utf8").replace('"label": "Timeout"', '"label": "Timeout2"'));
    fs.writeFileSync(project.graphFile, edited);
    const r = await run(project, "undo");
    expect(r.code).toBe(1);
    expect(r.err).toContain("graph.json changed after that apply");
    expect(readGraph(project).equals(edited)).toBe(true);
  });

  it("--allow-low-confidence applies what can be applied and reports what cannot", async () => {
    const refinement = writeRefinement(project, `${HIGH_ACTION}|${LOW_ACTION}|delete_edge("Client", "uses", "Nothing")`);
    const r = await run(project, "apply", "--allow-low-confidence", "--trace-file", trace, "--refinement-file", refinement);
    // Deleting an edge that does not exist refuses the whole plan: nothing is half-applied.
    expect(r.code).toBe(1);
    expect(r.err).toContain("graph.json was not changed");
    expect(readGraph(project).equals(ORIGINAL_GRAPH)).toBe(true);

    const ok = writeRefinement(project, `${HIGH_ACTION}|${LOW_ACTION}`, "ok.txt");
    const applied = await run(project, "apply", "--allow-low-confidence", "--trace-file", trace, "--refinement-file", ok);
    expect(applied.code).toBe(0);
    expect(applied.out).toContain("Applied 2 action(s)");
  });
});
