/**
 * The heuristic provider's index advanced with the graph version equals the index built from
 * scratch (lists in the same order), on random changesets over real graphs.
 */
import { describe, expect, it } from "vitest";
import type { KnowledgeGraph } from "../../graph/model";
import { derivedVersions } from "../../graph/test-derived-versions";
import { parseGraphifyJson } from "../../import/parse-graphify";
import { parseTriples } from "../../import/parse-triples";
import { readData } from "../../test/data";
import { type HeuristicIndex, coreKey, findNearDuplicates, getHeuristicIndex, heuristicIndexStats, setKey } from "./graph-index";
import { findQuestionEntities } from "./question-entities";
import { wordTokens } from "./text";

const GRAPHS: [string, () => KnowledgeGraph][] = [
  ["graphify httpx", () => parseGraphifyJson(readData("graphify", "httpx", "graph.json"))],
  ["countries_S1", () => parseTriples(readData("countries_S1", "graph.txt"), { source: "graph.txt" })],
];

function viewOf(index: HeuristicIndex, graphs: KnowledgeGraph[]) {
  const keys = new Set<string>();
  const cores = new Set<string>();
  const sets = new Set<string>();
  const ids = new Set<string>();
  for (const graph of graphs) {
    for (const node of graph.nodes.values()) {
      ids.add(node.id);
      for (const text of [node.label, ...node.aliases]) keys.add(wordTokens(text).map((t) => t.norm).join(" "));
      const core = coreKey(node.label);
      if (core) cores.add(core);
      const set = setKey(node.label);
      if (set) sets.add(set);
    }
  }
  const sorted = (s: Set<string>) => [...s].sort();
  return {
    byKey: sorted(keys).map((k) => [k, index.byKey.get(k) ?? null]),
    byCore: sorted(cores).map((k) => [k, index.byCore.get(k) ?? null]),
    bySet: sorted(sets).map((k) => [k, index.bySet.get(k) ?? null]),
    coreOf: sorted(ids).map((id) => [id, index.coreOf.get(id) ?? null]),
    setOf: sorted(ids).map((id) => [id, index.setOf.get(id) ?? null]),
    relationStyle: index.relationStyle,
  };
}

describe.each(GRAPHS)("the heuristic index advanced with %s", (_, read) => {
  it("equals the index built whole after every random changeset", () => {
    const base = read();
    const before = heuristicIndexStats();
    let checked = 0;
    for (const { advanced, fresh } of derivedVersions(base, { rounds: 18, seed: 41, touch: (g) => void getHeuristicIndex(g) })) {
      const got = getHeuristicIndex(advanced);
      const want = getHeuristicIndex(fresh);
      expect(viewOf(got, [base, fresh])).toEqual(viewOf(want, [base, fresh]));
      // The word-count bounds never shrink when advancing: at least what a build finds.
      expect(got.maxKeyWords).toBeGreaterThanOrEqual(want.maxKeyWords);
      for (const node of fresh.nodes.values()) {
        const first = wordTokens(node.label)[0]?.norm;
        if (first) expect(got.maxWordsFrom.get(first) ?? 0).toBeGreaterThanOrEqual(want.maxWordsFrom.get(first) ?? 0);
      }
      const nodes = [...fresh.nodes.values()];
      for (let i = 0; i < nodes.length; i += Math.ceil(nodes.length / 40)) {
        const node = nodes[i];
        if (!node) continue;
        expect(findNearDuplicates(advanced, node.id)).toEqual(findNearDuplicates(fresh, node.id));
        const question = `What does ${node.label} have to do with ${nodes[(i * 7) % nodes.length]?.label ?? ""}?`;
        expect(findQuestionEntities({ graph: advanced, question })).toEqual(findQuestionEntities({ graph: fresh, question }));
      }
      checked++;
    }
    expect(heuristicIndexStats().advanced - before.advanced).toBe(checked);
  });
});
