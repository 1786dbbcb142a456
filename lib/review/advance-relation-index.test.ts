/**
 * The review's relation index advanced with the graph version equals the index built from scratch
 * (groups, their names and their edges in the same order), on random changesets over real graphs
 * (MuSiQue's free-text relations have several spellings per group).
 */
import { describe, expect, it } from "vitest";
import type { KnowledgeGraph } from "../graph/model";
import { derivedVersions } from "../graph/test-derived-versions";
import { parseGraphifyJson } from "../import/parse-graphify";
import { parseTriples } from "../import/parse-triples";
import { musique } from "../loop/test-support";
import { readData } from "../test/data";
import { relationIndexes } from "./advance-relation-index";
import type { RelationIndex } from "./graph-evidence";

const GRAPHS: [string, () => KnowledgeGraph][] = [
  ["graphify httpx", () => parseGraphifyJson(readData("graphify", "httpx", "graph.json"))],
  ["countries_S1", () => parseTriples(readData("countries_S1", "graph.txt"), { source: "graph.txt" })],
  ["MuSiQue", () => musique().graph],
];

const viewOf = (index: RelationIndex) => [...index.byRelation].map(([group, info]) => [group, info.name, info.edges.map((e) => [e.key, e.relation, e.source, e.target])]);

describe.each(GRAPHS)("the review's relation index advanced with %s", (_, read) => {
  it("equals the index built whole after every random changeset", () => {
    const before = relationIndexes.stats();
    let checked = 0;
    for (const { advanced, fresh } of derivedVersions(read(), { rounds: 15, seed: 67, touch: (g) => void relationIndexes.get(g) })) {
      const got = relationIndexes.get(advanced);
      expect(got.graph).toBe(advanced);
      expect(viewOf(got)).toEqual(viewOf(relationIndexes.get(fresh)));
      checked++;
    }
    expect(relationIndexes.stats().advanced - before.advanced).toBe(checked);
  });
});
