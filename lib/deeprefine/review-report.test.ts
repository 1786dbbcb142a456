import { describe, expect, it } from "vitest";
import { parseGraphifyJson } from "../import/parse-graphify";
import { loadDeepRefineTrace } from "../loop/deeprefine-files";
import { reviewActions } from "../review/review-actions";
import { readData } from "../test/data";
import { evidenceText, refinementInputs, renderReviewMarkdown, retrievedTriples, skillReviewJson } from "./review-report";

const graph = parseGraphifyJson(readData("graphify", "httpx", "graph.json"));

describe("refinementInputs", () => {
  it("keeps actions the parser skips as unparseable entries, and duplicates as notes", () => {
    const parsed = refinementInputs(
      '<refinement>insert_edge("Client", "calls", "HTTPTransport")|insert_edge("Client", "uses")|frobnicate("a", "b")|insert_edge("Client", "calls", "HTTPTransport")</refinement>',
    );
    if (!parsed.ok) throw new Error(parsed.error);
    expect(parsed.actions).toHaveLength(1);
    expect(parsed.unparseable.map((u) => u.raw)).toEqual(['action 2 insert_edge("Client", "uses")', 'action 3 frobnicate("a", "b")']);
    expect(parsed.unparseable[0]?.error).toContain("takes 3 arguments");
    expect(parsed.notes).toEqual([expect.stringContaining("duplicate of an earlier action")]);
    expect(parsed.inputs).toHaveLength(3);
  });

  it("reports a file without a block", () => {
    expect(refinementInputs("no block here")).toEqual({ ok: false, error: "no <refinement>…</refinement> block in the output" });
  });
});

describe("retrievedTriples", () => {
  it("maps label triples onto graph edges, settling shared labels by the edge", () => {
    const trace = loadDeepRefineTrace({
      schema_version: 1,
      mode: "agent-loop",
      query: "q",
      interaction_history: [
        {
          retrieved_subgraph: [
            { subject: "Client", relation: "method", object: ".send()" },
            { subject: "Client", relation: "calls", object: "Nobody" },
          ],
        },
      ],
    });
    expect(retrievedTriples(graph, trace)).toEqual([{ subject: "Client", relation: "method", object: ".send()", subject_id: "client_client", object_id: "client_client_send" }]);
  });
});

describe("review output", () => {
  const reviews = reviewActions({
    graph,
    actions: [
      { type: "insert_edge", subject: "main", relation: "calls", object: "unknown" },
      { type: "insert_edge", subject: ".send()", relation: "calls", object: "Client" },
    ],
    documents: new Map(),
  });

  it("gives the skill's JSON fields, with the first ranked suggestion as the replacement", () => {
    const json = skillReviewJson(reviews[1]!);
    expect(json).toMatchObject({ action: 'insert_edge(".send()", "calls", "Client")', confidence: "LOW", index: 1 });
    expect(json.warnings[0]).toMatch(/^AMBIGUOUS_NAME: /);
    expect(json.suggested_replacement).toBe(reviews[1]?.suggestions[0]?.text);
    expect(json.suggested_replacement).toMatch(/^insert_edge\("client_(async)?client_send", "calls", "Client"\)$/);
  });

  it("renders the skill's markdown layout with the reason for each label", () => {
    const md = renderReviewMarkdown(reviews, { notes: ["ignored text"] });
    expect(md).toMatch(/^DeepRefine proposed 2 refinement action\(s\): 0 HIGH, 0 MEDIUM, 2 LOW\.\n\n\[LOW\] insert_edge\("main", "calls", "unknown"\)\nWhy: LOW: /);
    expect(md).toContain("Warning:\n- GENERIC_NAME: ");
    expect(md).toContain("Suggested replacement:\n- insert_edge(");
    expect(md).toContain("Parser notes:\n- ignored text");
    expect(md.trimEnd().split("\n").at(-1)).toBe("Apply only after review: deeprefine apply --refresh-wiki --trace-file <trace> --refinement-file <actions>");
  });

  it("places evidence at file:line with the quote", () => {
    expect(evidenceText({ kind: "code", summary: "Client calls X", quote: "  x = X()  ", source: { docId: "w/raw/a.py", path: "raw/a.py", line: 7 } })).toBe(
      'Client calls X (raw/a.py:7) — quote: "x = X()"',
    );
  });
});
