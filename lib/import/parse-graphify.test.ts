import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { exportGraphifyJson } from "../export/export-graphify";
import { GRAPHIFY_GRAPHS, readData } from "../test/data";
import { parseGraphifyJson } from "./parse-graphify";

function expectError(fn: () => unknown, code: string, message: string): void {
  try {
    fn();
    expect.unreachable("expected an error");
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).code).toBe(code);
    expect((e as AppError).message).toContain(message);
  }
}

describe("graphify graph.json", () => {
  it.each(GRAPHIFY_GRAPHS)("%s imports and exports byte-identical", (name) => {
    const text = readData("graphify", name, "graph.json");
    const graph = parseGraphifyJson(text, { source: `${name}/graph.json` });
    expect(graph.nodes.size).toBeGreaterThan(0);
    expect(exportGraphifyJson(graph)).toBe(text);
  });

  it("uses _src/_tgt as the true direction", () => {
    const graph = parseGraphifyJson(readData("graphify", "httpx", "graph.json"));
    const flipped = [...graph.edges.values()].filter((e) => e.attrs.source !== e.attrs._src);
    expect(flipped.length).toBe(55);
    for (const e of flipped) {
      expect(e.source).toBe(e.attrs._src);
      expect(e.target).toBe(e.attrs._tgt);
    }
    expect(graph.nodes.size).toBe(144);
    expect(graph.edges.size).toBe(330);
  });

  it("falls back to the id when a node has no label (karpathy-repos)", () => {
    const graph = parseGraphifyJson(readData("graphify", "karpathy-repos", "graph.json"));
    const unlabeled = [...graph.nodes.values()].filter((n) => n.attrs.label === undefined);
    expect(unlabeled.length).toBe(33);
    for (const n of unlabeled) expect(n.label).toBe(n.id);
  });

  it("keeps hyperedges, context and unknown top-level fields (rsl-siege-manager)", () => {
    const graph = parseGraphifyJson(readData("graphify", "rsl-siege-manager", "graph.json"));
    expect(graph.nodes.size).toBe(1886);
    expect(graph.edges.size).toBe(3876);
    expect(Object.keys(graph.meta.top)).toEqual(["directed", "multigraph", "graph", "nodes", "links", "hyperedges", "built_at_commit"]);
    expect([...graph.edges.values()].filter((e) => e.attrs.context !== undefined).length).toBe(1652);
  });

  it("accepts `edges` instead of `links`, string and null communities, and keeps parallel links", () => {
    const text = JSON.stringify(
      {
        directed: false,
        nodes: [
          { id: "a", community: "core" },
          { id: "b", label: "B", community: null },
          { id: "c", community: 3, extra: { deep: [1.5] } },
        ],
        edges: [
          { source: "a", target: "b", relation: "calls" },
          { source: "a", target: "b", relation: "calls" },
          { source: "b", target: "c", _src: "c", _tgt: "b", relation: "uses" },
        ],
      },
      null,
      2,
    );
    const graph = parseGraphifyJson(text);
    expect(graph.edges.size).toBe(3);
    expect(graph.getNode("a")?.community).toBe("core");
    expect(graph.getNode("b")?.community).toBeNull();
    expect(graph.getNode("c")?.community).toBe(3);
    expect(graph.toTriple([...graph.edges.values()][2]!)).toEqual({
      subject: "c",
      relation: "uses",
      object: "B",
      subject_id: "c",
      object_id: "b",
    });
    expect(exportGraphifyJson(graph)).toBe(text);
  });

  it("rejects bad input with the file and the record named", () => {
    expectError(() => parseGraphifyJson("", { source: "g.json" }), "PARSE_ERROR", "g.json: line 1, column 1");
    expectError(() => parseGraphifyJson('{"nodes": [', { source: "g.json" }), "PARSE_ERROR", "g.json");
    expectError(() => parseGraphifyJson("[]", { source: "g.json" }), "INVALID_INPUT", 'g.json: expected a JSON object');
    expectError(() => parseGraphifyJson('{"nodes": {}}', { source: "g.json" }), "INVALID_INPUT", '"nodes" must be an array');
    expectError(() => parseGraphifyJson('{"nodes": [{"label": "x"}], "links": []}', { source: "g.json" }), "INVALID_INPUT", 'nodes[0] has no string "id"');
    expectError(
      () => parseGraphifyJson('{"nodes": [{"id": "a"}, {"id": "a"}], "links": []}', { source: "g.json" }),
      "INVALID_INPUT",
      'nodes[1]: duplicate node id "a"',
    );
    expectError(
      () => parseGraphifyJson('{"nodes": [{"id": "a"}], "links": [{"source": "a", "target": "zz"}]}', { source: "g.json" }),
      "INVALID_INPUT",
      'links[0] refers to unknown node "zz"',
    );
    expectError(
      () => parseGraphifyJson('{"nodes": [{"id": "a", "label": 5}], "links": []}', { source: "g.json" }),
      "INVALID_INPUT",
      '"label" must be a string',
    );
    expectError(
      () => parseGraphifyJson('{"nodes": [{"id": "a", "community": [1]}], "links": []}', { source: "g.json" }),
      "INVALID_INPUT",
      '"community" must be an integer, a string or null',
    );
  });
});
