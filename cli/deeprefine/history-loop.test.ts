/**
 * `deeprefine history …` and `deeprefine loop …` on a copy of the real httpx project: the
 * queue file in the skill's format, memory sync, a hand-written trace of real triples that
 * validates, tampered traces that do not, `loop finish`, and the exit codes.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { queryIdOf } from "../../lib/questions/query-id";
import { main } from "./main";
import type { Project } from "./test-project";
import { QUERY_ID, QUESTION, createProject, run, traceJson, writeRefinement, writeTrace } from "./test-project";

let project: Project;
beforeEach(() => {
  project = createProject();
});
afterEach(() => project.cleanup());

const historyFile = () => path.join(project.state, "history.jsonl");
const historyRows = () =>
  fs
    .readFileSync(historyFile(), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("deeprefine history", () => {
  it("adds rows in the skill's format and lists pending questions deduplicated by id, first wins", async () => {
    expect((await run(project, "history", "add", "--query", "  What does Client inherit from?  ")).code).toBe(0);
    const again = await run(project, "history", "add", "--query", "What does Client inherit from?", "--source", "deeprefine");
    expect(again.out).toContain(`Recorded: ${queryIdOf("What does Client inherit from?")}`);
    expect((await run(project, "history", "add", "--query", "Where is Timeout defined?")).code).toBe(0);

    const lines = fs.readFileSync(historyFile(), "utf8").split("\n").filter(Boolean);
    expect(lines).toHaveLength(3);
    // Python's json.dumps spacing, keys in the skill's order, the stripped query.
    expect(lines[0]).toBe(
      `{"id": "${queryIdOf("What does Client inherit from?")}", "ts": "${new Date(2026, 0, 31, 12).toISOString().replace(/\.000Z$/, "Z")}", "query": "What does Client inherit from?", "source": "user", "refined": false}`,
    );

    const all = await run(project, "history", "list");
    expect(all.out.trim().split("\n")).toHaveLength(3);
    const pending = await run(project, "history", "list", "--pending", "--json");
    const rows = JSON.parse(pending.out) as { id: string; source: string }[];
    expect(rows.map((r) => r.source)).toEqual(["user", "user"]);
    expect(rows.map((r) => r.id)).toEqual([queryIdOf("What does Client inherit from?"), queryIdOf("Where is Timeout defined?")]);
  });

  it("says so when nothing is pending", async () => {
    const r = await run(project, "history", "list", "--pending");
    expect(r).toMatchObject({ code: 0, out: "No pending queries.\n" });
  });

  it("imports graphify memory files once: front matter question, else the first # Q: heading", async () => {
    const first = await run(project, "history", "sync-memory");
    expect(first.code).toBe(0);
    expect(first.out).toContain("Added: 2");
    expect(first.out).toContain("Known query ids: 2");
    const rows = historyRows();
    expect(rows.map((r) => r.query)).toEqual(["How does Client send a request?", "Which exceptions can BaseClient raise?"]);
    expect(rows.every((r) => r.source === "graphify_memory" && r.refined === false)).toBe(true);
    expect(rows[0]?.memory_file).toBe(path.join(project.root, "graphify-out", "memory", "query_20260101_a.md"));

    const second = await run(project, "history", "sync-memory");
    expect(second.out).toContain("Added: 0");
    expect(historyRows()).toHaveLength(2);
    const listed = await run(project, "history", "list", "--pending", "--sync-memory");
    expect(listed.out).toContain(`[pending] ${queryIdOf("How does Client send a request?")}: How does Client send a request?`);
  });

  it("finds the project from a subfolder, or takes --project-root (the skill's flag) from anywhere", async () => {
    const io = () => {
      const out: string[] = [];
      return { out, io: { out: (t: string) => void out.push(t), err: () => undefined } };
    };
    const inside = io();
    expect(await main(["history", "add", "--query", "from raw/"], inside.io, { cwd: path.join(project.root, "raw") })).toBe(0);
    expect(inside.out.join("")).toContain(historyFile());
    const elsewhere = io();
    expect(await main(["history", "list", "--project-root", project.root], elsewhere.io, { cwd: os.tmpdir() })).toBe(0);
    expect(elsewhere.out.join("")).toContain("from raw/");
  });

  it("names the file and line of a malformed history row (exit 1)", async () => {
    fs.mkdirSync(project.state, { recursive: true });
    fs.writeFileSync(historyFile(), '{"id": "a", "query": "q", "refined": false}\nnot json\n');
    const r = await run(project, "history", "list");
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${historyFile()}: line 2`);
  });
});

describe("deeprefine loop", () => {
  it("init records the question, writes the template and prints paths and constants as JSON", async () => {
    const r = await run(project, "loop", "init", "--query", QUESTION);
    expect(r.code).toBe(0);
    const info = JSON.parse(r.out) as Record<string, unknown>;
    expect(info).toMatchObject({
      query: QUESTION,
      query_id: QUERY_ID,
      trace_file: path.join(project.state, `loop_trace_${QUERY_ID}.json`),
      refinement_file: path.join(project.state, `refinement_actions_${QUERY_ID}.txt`),
      refinement_action_file: `graphify-out/.deeprefine/refinement_actions_${QUERY_ID}.txt`,
      constants: { max_hops: 4, increment_hop: 1, base_top_k: 10, max_triple_num_by_step: [5, 10, 15, 20], history_horizon_size: 4 },
      history: "recorded",
    });
    const template = JSON.parse(fs.readFileSync(info.trace_file as string, "utf8")) as Record<string, unknown>;
    expect(template).toMatchObject({ schema_version: 1, mode: "agent-loop", query_id: QUERY_ID, interaction_history: [] });
    expect(historyRows()).toEqual([expect.objectContaining({ id: QUERY_ID, source: "deeprefine_loop", refined: false })]);

    const again = JSON.parse((await run(project, "loop", "init", "--query", QUESTION)).out) as Record<string, unknown>;
    expect(again.history).toBe("already in history");
    expect(historyRows()).toHaveLength(1);
    // The bare template is not a finished loop.
    expect((await run(project, "loop", "validate", "--trace-file", info.trace_file as string)).code).toBe(1);
  });

  it("validates a hand-written trace of real triples (No, then Yes, abduction, refinement)", async () => {
    await run(project, "loop", "init", "--query", QUESTION);
    const trace = writeTrace(project, traceJson());
    const refinement = writeRefinement(project, 'insert_edge("HTTPTransport", "calls", "ConnectionPool")');
    const r = await run(project, "loop", "validate", "--trace-file", trace, "--refinement-file", refinement);
    expect(r.err).toBe("");
    expect(r).toMatchObject({ code: 0 });
    expect(r.out).toContain("OK");
    // Without --refinement-file the trace's refinement_action_file (relative to the project) is read.
    expect((await run(project, "loop", "validate", "--trace-file", `graphify-out/.deeprefine/loop_trace_${QUERY_ID}.json`)).code).toBe(0);
  });

  it("rejects a triple that is not in the graph, naming it", async () => {
    writeRefinement(project, 'insert_edge("HTTPTransport", "calls", "ConnectionPool")');
    const tampered = traceJson({ step2: [["Client", "uses", "HTTPTransport"], ["Client", "calls", "ConnectionPool"]] });
    const r = await run(project, "loop", "validate", "--trace-file", writeTrace(project, tampered));
    expect(r.code).toBe(1);
    expect(r.err).toContain("INVALID");
    expect(r.err).toContain('step 2: triple 2 (Client, calls, ConnectionPool): no "calls" edge from "Client" to "ConnectionPool" in the graph');
    const json = await run(project, "loop", "validate", "--trace-file", writeTrace(project, tampered), "--json");
    expect(json.code).toBe(1);
    expect((JSON.parse(json.out) as { ok: boolean }).ok).toBe(false);
  });

  it("rejects constants that differ from Refinery's, even when the trace is otherwise consistent", async () => {
    writeRefinement(project, 'insert_edge("HTTPTransport", "calls", "ConnectionPool")');
    const wrong = traceJson({ constants: { max_hops: 2, increment_hop: 1, base_top_k: 10, max_triple_num_by_step: [5, 10], history_horizon_size: 4 } });
    const r = await run(project, "loop", "validate", "--trace-file", writeTrace(project, wrong));
    expect(r.code).toBe(1);
    expect(r.err).toContain("constants.max_hops is 2 but Refinery's config has 4");
    expect(r.err).toContain("constants.max_triple_num_by_step is [5,10]");
  });

  it("rejects a query_id that is not the query's", async () => {
    writeRefinement(project, 'insert_edge("HTTPTransport", "calls", "ConnectionPool")');
    const r = await run(project, "loop", "validate", "--trace-file", writeTrace(project, { ...traceJson(), query_id: "0000000000000000" }));
    expect(r.code).toBe(1);
    expect(r.err).toContain('query_id "0000000000000000" is not the id of the query');
  });

  it("names a malformed or missing trace file (exit 1) and treats a missing flag as usage (exit 2)", async () => {
    fs.mkdirSync(project.state, { recursive: true });
    const broken = path.join(project.state, "broken.json");
    fs.writeFileSync(broken, "{ not json");
    const bad = await run(project, "loop", "validate", "--trace-file", broken);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain(broken);
    const missing = await run(project, "loop", "validate", "--trace-file", "nope.json");
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("nope.json: no such file");
    expect((await run(project, "loop", "validate")).code).toBe(2);
    expect((await run(project, "loop", "frobnicate")).code).toBe(2);
    expect((await run(project, "history", "add", "--query", "q", "--source", "robot")).code).toBe(2);
    expect((await run(project, "history", "list", "--root", path.join(project.root, "missing"))).code).toBe(1);
  });

  it("finish appends the results row and marks the question refined", async () => {
    await run(project, "history", "sync-memory");
    await run(project, "loop", "init", "--query", QUESTION);
    const trace = writeTrace(project, traceJson());
    const refinement = writeRefinement(project, 'insert_edge("HTTPTransport", "calls", "ConnectionPool")');
    const r = await run(project, "loop", "finish", "--trace-file", trace, "--refinement-file", refinement);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toContain(`Marked refined: ${QUERY_ID}`);

    const log = path.join(project.state, "refinement_results_20260131.jsonl");
    const lines = fs.readFileSync(log, "utf8").trim().split("\n");
    expect(lines).toHaveLength(1);
    const row = JSON.parse(lines[0] as string) as Record<string, unknown>;
    expect(Object.keys(row)).toEqual(["query", "query_id", "interaction_history", "error_abduction_reason", "refinement_action_raw", "early_exit", "mode", "trace_file"]);
    expect(row).toMatchObject({
      query: QUESTION,
      query_id: QUERY_ID,
      interaction_history: traceJson().interaction_history,
      refinement_action_raw: '<refinement>insert_edge("HTTPTransport", "calls", "ConnectionPool")</refinement>\n',
      early_exit: false,
      mode: "agent-loop",
      trace_file: trace,
    });

    const mine = historyRows().filter((h) => h.id === QUERY_ID);
    expect(mine).toEqual([expect.objectContaining({ refined: true, refined_ts: expect.any(String) as unknown, trace_file: trace })]);
    const pending = JSON.parse((await run(project, "history", "list", "--pending", "--json")).out) as { id: string }[];
    expect(pending.map((p) => p.id)).not.toContain(QUERY_ID);
    expect(pending).toHaveLength(2);
  });

  it("finish refuses an invalid trace and changes nothing", async () => {
    await run(project, "loop", "init", "--query", QUESTION);
    const trace = writeTrace(project, { ...traceJson(), error_abduction_raw: null, error_abduction_reason: null });
    const r = await run(project, "loop", "finish", "--trace-file", trace);
    expect(r.code).toBe(1);
    expect(r.err).toContain("Cannot finish — trace invalid");
    expect(r.err).toContain("missing error_abduction_raw");
    expect(fs.existsSync(path.join(project.state, "refinement_results_20260131.jsonl"))).toBe(false);
    expect(historyRows()[0]?.refined).toBe(false);
  });

  it("finish records an early exit (one step, Yes) without a refinement", async () => {
    const early = traceJson();
    const first = early.interaction_history[0] as (typeof early.interaction_history)[number];
    const trace = writeTrace(project, {
      ...early,
      interaction_history: [{ ...first, answerable: true, judgement_raw: "<judge>Yes</judge>" }],
      error_abduction_reason: null,
      error_abduction_raw: null,
      refinement_action_file: null,
      early_exit: true,
    });
    const r = await run(project, "loop", "finish", "--trace-file", trace, "--json");
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out) as { row: Record<string, unknown> };
    expect(out.row).toMatchObject({ early_exit: true, refinement_action_raw: null });
    expect(historyRows()).toEqual([expect.objectContaining({ id: QUERY_ID, source: "deeprefine_loop", refined: true })]);
  });
});
