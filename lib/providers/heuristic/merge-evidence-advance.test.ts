/**
 * The role sets merge judging reads (the nodes that are subject or object of each relation),
 * advanced with the graph version, equal the sets built from scratch on random changesets.
 */
import { describe, expect, it } from "vitest";
import type { KnowledgeGraph } from "../../graph/model";
import { derivedVersions } from "../../graph/test-derived-versions";
import { parseGraphifyJson } from "../../import/parse-graphify";
import { parseTriples } from "../../import/parse-triples";
import { readData } from "../../test/data";
import { nodesByRole } from "./merge-evidence";

const GRAPHS: [string, () => KnowledgeGraph][] = [
  ["graphify httpx", () => parseGraphifyJson(readData("graphify", "httpx", "graph.json"))],
  ["countries_S1", () => parseTriples(readData("countries_S1", "graph.txt"), { source: "graph.txt" })],
];

const viewOf = (roles: ReadonlyMap<string, ReadonlySet<string>>) => [...roles].map(([role, ids]) => [role, [...ids].sort()]).sort();

describe.each(GRAPHS)("role sets advanced with %s", (_, read) => {
  it("equal the sets built whole after every random changeset, and older versions keep theirs", () => {
    const seen: [KnowledgeGraph, KnowledgeGraph][] = [];
    for (const { advanced, fresh } of derivedVersions(read(), { rounds: 18, seed: 83, touch: (g) => void nodesByRole(g) })) {
      expect(viewOf(nodesByRole(advanced))).toEqual(viewOf(nodesByRole(fresh)));
      seen.push([advanced, fresh]);
    }
    for (const [advanced, fresh] of seen) expect(viewOf(nodesByRole(advanced))).toEqual(viewOf(nodesByRole(fresh)));
  });
});
