/** Rows ⇄ nodes and edges: a record stored as null (derivable) reads back as the parsed one, on two real graphs. */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { nodeFromRecord } from "../../graph/model";
import { parseLabelFile, parseTriples } from "../../import/parse-triples";
import { dataPath } from "../../test/data";
import { edgeFromRow, edgeToRow, nodeFromRow, nodeToRow } from "./graph-rows";

describe("graph rows", () => {
  it.each([
    ["countries_S1", () => parseTriples(fs.readFileSync(dataPath("countries_S1", "graph.txt"), "utf8"))],
    [
      "FB15k-237 names on Countries-style ids",
      () => {
        const text = fs.readFileSync(dataPath("countries_S1", "graph.txt"), "utf8");
        const ids = [...new Set(text.split("\n").filter(Boolean).flatMap((l) => [l.split("\t")[0], l.split("\t")[2]]))] as string[];
        const labels = parseLabelFile(ids.map((id, i) => `${id}\t${i % 3 === 0 ? id : `Ünïcode  ${id.toUpperCase()}`}`).join("\n"));
        return parseTriples(text, { labels });
      },
    ],
  ])("reads derivable rows back as the parsed graph (%s)", (_name, parse) => {
    const graph = parse();
    let ord = 0;
    for (const node of graph.nodes.values()) {
      const row = nodeToRow(node, ord++);
      expect(row.data).toBeNull();
      const back = nodeFromRow(row);
      expect(back).toEqual(node);
      expect(back).toEqual({ ...nodeFromRecord(node.attrs), ord: node.ord });
    }
    ord = 0;
    for (const edge of graph.edges.values()) {
      const row = edgeToRow(edge, ord++);
      expect(row.data).toBeNull();
      expect(edgeFromRow(row)).toEqual(edge);
    }
  });
});
