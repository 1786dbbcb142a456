/**
 * Advancing a graph in place and rewinding it through inverses give what rebuilding gives
 * (applyChangeset, the full copy), on random changesets over two real graphs; and a graph object
 * keeps showing its own version however far the live graph moves on.
 */
import { describe, expect, it } from "vitest";
import type { KnowledgeGraph } from "../graph/model";
import { parseGraphifyJson } from "../import/parse-graphify";
import { parseTriples } from "../import/parse-triples";
import { readData } from "../test/data";
import { graphSnapshot, planRandom, randomSource, withPositions } from "../test/random-changesets";
import { advanceGraph, rewindGraph } from "./advance-graph";
import type { Changeset } from "./changeset";
import { applyChangeset, invertChangeset } from "./changeset";

const GRAPHS: [string, () => KnowledgeGraph][] = [
  ["graphify httpx", () => parseGraphifyJson(readData("graphify", "httpx", "graph.json"))],
  ["countries_S1", () => parseTriples(readData("countries_S1", "graph.txt"), { source: "graph.txt" })],
];

describe.each(GRAPHS)("advancing and rewinding %s", (_, read) => {
  it("equals rebuilding after every random changeset, and every older graph object keeps its version", () => {
    const random = randomSource(17);
    let live = read();
    const versions: { graph: KnowledgeGraph; snapshot: ReturnType<typeof graphSnapshot>; changeset: Changeset | null }[] = [
      { graph: live, snapshot: graphSnapshot(live, false), changeset: null },
    ];
    for (let round = 0; round < 25; round++) {
      // Some rounds revert the previous change (its inverse is the next changeset).
      const last = versions[versions.length - 1]?.changeset;
      const changeset = last && random(4) === 0 ? invertChangeset(last) : planRandom(live, random, round, `v${round}.`);
      const rebuilt = applyChangeset(live, changeset);
      const next = advanceGraph({ graph: live, changesets: [changeset] });
      // The newest version in order too (each node's edge lists as a rebuild gives them).
      expect(graphSnapshot(next)).toEqual(graphSnapshot(rebuilt));
      versions.push({ graph: next, snapshot: graphSnapshot(rebuilt, false), changeset: withPositions(changeset, next) });
      live = next;
      // Older objects read through the chain of newer ones: still their own version (their
      // edges; each node's list order is promised for the newest only).
      for (const v of versions.slice(-4)) expect(graphSnapshot(v.graph, false)).toEqual(v.snapshot);
    }
    // Rewinding the newest through the inverses since gives each older version.
    for (const back of [1, 3, 10, versions.length - 1]) {
      const target = versions[versions.length - 1 - back];
      const inverses = versions
        .slice(versions.length - back)
        .reverse()
        .map((v) => invertChangeset(v.changeset as Changeset));
      expect(graphSnapshot(rewindGraph({ graph: live, inverses }), false)).toEqual(target?.snapshot);
    }
    expect(graphSnapshot(versions[0]?.graph as KnowledgeGraph, false)).toEqual(versions[0]?.snapshot);
  });

  it("refuses to advance an older version, or to leave an edge without its node, changing nothing", () => {
    const live = read();
    const before = graphSnapshot(live);
    const node = [...live.nodes.values()].find((n) => live.degree(n.id) > 0);
    if (!node) throw new Error("graph without edges");
    expect(() => live.advance({ nodes: new Map([[node.id, null]]), edges: new Map() })).toThrow(/edge/);
    expect(graphSnapshot(live)).toEqual(before);
    const changeset = planRandom(live, randomSource(3), 0, "t.");
    live.advance({ nodes: new Map(), edges: new Map() });
    expect(() => advanceGraph({ graph: live, changesets: [changeset] })).toThrow(/newest/);
    expect(() => live.addNode({ ...node, id: "fresh" })).toThrow(/read-only/);
  });
});
