/**
 * The relation names Ask resolves against, advanced with the graph version, resolve as the names
 * built from scratch do, on random changesets over real graphs; and the corpus index is shared
 * by the versions of a graph with the same documents.
 */
import { describe, expect, it } from "vitest";
import type { KnowledgeGraph } from "../graph/model";
import { derivedVersions } from "../graph/test-derived-versions";
import { parseGraphifyJson } from "../import/parse-graphify";
import { parseTriples } from "../import/parse-triples";
import { musique } from "../loop/test-support";
import { readData } from "../test/data";
import { findGraphRelation } from "./resolve-ask-head";
import { getCorpusIndex } from "./search-corpus";

const GRAPHS: [string, () => KnowledgeGraph][] = [
  ["graphify httpx", () => parseGraphifyJson(readData("graphify", "httpx", "graph.json"))],
  ["countries_S1", () => parseTriples(readData("countries_S1", "graph.txt"), { source: "graph.txt" })],
  ["MuSiQue", () => musique().graph],
];

function names(graphs: KnowledgeGraph[]): string[] {
  const out = new Set<string>();
  for (const graph of graphs) for (const e of graph.edges.values()) for (const n of [e.relation, e.relation.toUpperCase(), e.relation.replace(/[_ ]/g, "-")]) out.add(n);
  return [...out].sort();
}

describe.each(GRAPHS)("relation names advanced with %s", (_, read) => {
  it("resolve as the names built whole after every random changeset", () => {
    const base = read();
    for (const { advanced, fresh } of derivedVersions(base, { rounds: 15, seed: 71, touch: (g) => void findGraphRelation({ graph: g, name: "x" }) })) {
      const all = names([base, fresh]);
      expect(all.map((name) => findGraphRelation({ graph: advanced, name }))).toEqual(all.map((name) => findGraphRelation({ graph: fresh, name })));
    }
  });
});

describe("the corpus index across versions", () => {
  it("is shared by a version advanced from one indexed with the same documents", () => {
    const bundle = musique();
    const base = parseTriples(readData("countries_S1", "graph.txt"), { source: "graph.txt" });
    const index = getCorpusIndex({ graph: base, documents: bundle.documents });
    const versions = [...derivedVersions(base, { rounds: 3, seed: 5, touch: () => {} })];
    for (const { advanced } of versions) expect(getCorpusIndex({ graph: advanced, documents: bundle.documents })).toBe(index);
    // Other documents: built anew.
    expect(getCorpusIndex({ graph: versions[0]?.advanced as KnowledgeGraph, documents: bundle.documents.slice(1) })).not.toBe(index);
  });
});
