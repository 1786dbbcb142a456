/**
 * The relation ranker's statistics advanced with the graph version equal the statistics counted
 * over the whole graph, and the rankers on top rank alike, on random changesets over real graphs
 * (MetaQA's year nodes make relabels that turn an object into a number and back).
 */
import { describe, expect, it } from "vitest";
import { advanceGraph } from "../changes/advance-graph";
import { applyChangeset } from "../changes/changeset";
import { planActions } from "../changes/plan-actions";
import type { KnowledgeGraph } from "../graph/model";
import { derivedVersions } from "../graph/test-derived-versions";
import { parseGraphifyJson } from "../import/parse-graphify";
import { parseTriples } from "../import/parse-triples";
import { metaqa } from "../loop/test-support";
import { readData } from "../test/data";
import { NUMERIC_OBJECT, getRelationRanker, getRelationStatistics, relationStatisticsStats } from "./rank-relations";

const GRAPHS: [string, () => KnowledgeGraph][] = [
  ["graphify httpx", () => parseGraphifyJson(readData("graphify", "httpx", "graph.json"))],
  ["countries_S1", () => parseTriples(readData("countries_S1", "graph.txt"), { source: "graph.txt" })],
];

const sorted = (stats: ReadonlyMap<string, { n: number; numeric: number }>) => [...stats].map(([r, s]) => [r, s.n, s.numeric]).sort();

function rankings(graph: KnowledgeGraph): unknown[] {
  const ranker = getRelationRanker(graph);
  const relations = [...getRelationStatistics(graph).keys()];
  const texts = ["when was it released", "who directed the film", "what year", "which country is it located in", "what calls send", ...relations.slice(0, 5).map((r) => `what is the ${r}`)];
  return texts.map((t) => ranker.rank(t, undefined, 30));
}

describe.each(GRAPHS)("relation statistics advanced with %s", (_, read) => {
  it("equal the counts over the whole graph after every random changeset, and rank alike", () => {
    const before = relationStatisticsStats();
    let checked = 0;
    for (const { advanced, fresh } of derivedVersions(read(), { rounds: 18, seed: 53, touch: (g) => void getRelationRanker(g) })) {
      expect(sorted(getRelationStatistics(advanced))).toEqual(sorted(getRelationStatistics(fresh)));
      expect(rankings(advanced)).toEqual(rankings(fresh));
      checked++;
    }
    expect(relationStatisticsStats().advanced - before.advanced).toBe(checked);
  });
});

describe("relation statistics advanced over MetaQA", () => {
  it("recount the edges into a node relabelled to or from a year", () => {
    let graph = metaqa();
    getRelationRanker(graph);
    const year = [...graph.nodes.values()].find((n) => NUMERIC_OBJECT.test(n.label) && graph.inEdges(n.id).length > 3);
    const word = [...graph.nodes.values()].find((n) => !NUMERIC_OBJECT.test(n.label) && graph.inEdges(n.id).length > 3);
    if (!year || !word) throw new Error("MetaQA without year nodes");
    const checks: [string, string][] = [
      [year.id, "Nineteen-something"],
      [word.id, "1234"],
    ];
    for (const [id, label] of checks) {
      const { changeset } = planActions({ graph, actions: [{ type: "replace_node", old: id, new: label }], edgeKeyPrefix: "y." });
      const fresh = applyChangeset(graph, changeset);
      const next = advanceGraph({ graph, changesets: [changeset] });
      const stats = getRelationStatistics(next);
      expect(sorted(stats)).toEqual(sorted(getRelationStatistics(fresh)));
      // The relabel moved some relation's count of numeric objects, or the check is empty.
      const moved = graph.inEdges(id).map((e) => e.relation);
      expect(moved.some((r) => stats.get(r)?.numeric !== getRelationStatistics(graph).get(r)?.numeric)).toBe(true);
      expect(rankings(next)).toEqual(rankings(fresh));
      graph = next;
    }
  });
});
