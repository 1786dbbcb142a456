import { describe, expect, it } from "vitest";
import { HOSTILE_BIDI_LABEL, HOSTILE_IDS, HOSTILE_LONG_LABEL, hostileGraphJson } from "../test/hostile-graph";
import { readData } from "../test/data";
import { MAX_LABEL_CHARS, capLabel } from "./cap-label";
import { parseGraphifyJson } from "./parse-graphify";
import { parseLabelFile } from "./parse-triples";

describe("label cap at import", () => {
  it("shortens a 100k-character label to 1,000 characters, keeps the full text in the attributes and warns once", () => {
    const warnings: string[] = [];
    const graph = parseGraphifyJson(hostileGraphJson(), { source: "hostile.json", onWarning: (m) => warnings.push(m) });
    const node = graph.getNode(HOSTILE_IDS.long);
    expect(node?.label).toBe(`${"W".repeat(MAX_LABEL_CHARS)}…`);
    expect(node?.normLabel.length).toBeLessThanOrEqual(MAX_LABEL_CHARS + 3); // "…" normalises to "..."
    expect(node?.attrs.label).toBe(HOSTILE_LONG_LABEL);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^hostile\.json: 1 label longer than 1,000 characters shortened to that length \(nodes "long-label"\)/);
    // Search finds it by its (shortened) label.
    expect(graph.idsByNormLabel(node?.normLabel ?? "").has(HOSTILE_IDS.long)).toBe(true);
  });

  it("keeps Object.prototype names as ordinary ids and attributes, polluting nothing", () => {
    const graph = parseGraphifyJson(hostileGraphJson(), { source: "hostile.json" });
    for (const id of [HOSTILE_IDS.constructor, HOSTILE_IDS.proto, HOSTILE_IDS.toString]) {
      expect(graph.getNode(id)?.id).toBe(id);
      expect(graph.degree(id)).toBeGreaterThan(0);
    }
    const proto = graph.getNode(HOSTILE_IDS.proto);
    expect(Object.hasOwn(proto?.attrs ?? {}, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(graph.getNode(HOSTILE_IDS.bidi)?.label).toBe(HOSTILE_BIDI_LABEL);
  });

  it("leaves a real graph's labels alone (httpx, karpathy-repos: no label near the cap)", () => {
    for (const name of ["httpx", "karpathy-repos"]) {
      const warnings: string[] = [];
      const graph = parseGraphifyJson(readData("graphify", name, "graph.json"), { onWarning: (m) => warnings.push(m) });
      expect(warnings).toEqual([]);
      for (const node of graph.nodes.values()) if (typeof node.attrs.label === "string") expect(node.label).toBe(node.attrs.label);
    }
  });

  it("caps labels from an id<TAB>label file too, and counts them in one warning", () => {
    const warnings: string[] = [];
    const labels = parseLabelFile(`/m/1\t${"x".repeat(1_500)}\n/m/2\tshort\n/m/3\t${"y".repeat(1_001)}`, "entity2text.txt", { onWarning: (m) => warnings.push(m) });
    expect(labels.get("/m/1")).toHaveLength(MAX_LABEL_CHARS + 1);
    expect(labels.get("/m/2")).toBe("short");
    expect(warnings).toEqual([expect.stringMatching(/^entity2text\.txt: 2 labels longer than 1,000 characters shortened .*"\/m\/1", "\/m\/3"/)]);
  });

  it("never cuts inside a surrogate pair", () => {
    expect(capLabel("😀".repeat(5), 2)).toBe("😀😀…");
    expect(capLabel("short", 10)).toBe("short");
  });
});

describe("a top-level key named __proto__", () => {
  it("is kept as data in the graph's meta", () => {
    const graph = parseGraphifyJson('{"__proto__": {"x": 1}, "nodes": [{"id": "a"}], "links": []}');
    expect(Object.hasOwn(graph.meta.top, "__proto__")).toBe(true);
  });
});
