import { beforeAll, describe, expect, it } from "vitest";
import type { KnowledgeGraph } from "../graph/model";
import { parseGraphifyJson } from "../import/parse-graphify";
import { parseTriples } from "../import/parse-triples";
import { httpx } from "../loop/test-support";
import { readData } from "../test/data";
import { RelationIndex, edgesBetween, normalizeRelation, relationUsage, relationsBetweenSimilar, shortestPath } from "./graph-evidence";

/** Plain one-sided BFS distance, as the reference for the bidirectional search. */
function distance(graph: KnowledgeGraph, from: string, to: string, max: number): number | null {
  let frontier = [from];
  const seen = new Set([from]);
  for (let d = 1; d <= max; d++) {
    const next: string[] = [];
    for (const u of frontier) {
      for (const v of graph.neighborIds(u)) {
        if (v === to) return d;
        if (!seen.has(v)) {
          seen.add(v);
          next.push(v);
        }
      }
    }
    frontier = next;
  }
  return null;
}

describe("shortestPath", () => {
  let graph: KnowledgeGraph;
  beforeAll(() => {
    ({ graph } = httpx());
  });

  it("agrees with plain BFS on every pair of a sample of httpx nodes, for k = 1..3", () => {
    const ids = [...graph.nodes.keys()].filter((_, i) => i % 7 === 0);
    for (const k of [1, 2, 3]) {
      for (const a of ids) {
        for (const b of ids) {
          if (a === b) continue;
          const path = shortestPath({ graph, from: a, to: b, maxHops: k });
          expect(path?.length ?? null, `${a} → ${b} (k=${k})`).toBe(distance(graph, a, b, k));
          if (!path) continue;
          // Contiguous from a to b, each edge in its stored direction.
          let at = a;
          for (const e of path) {
            expect([e.source, e.target]).toContain(at);
            at = e.source === at ? e.target : e.source;
          }
          expect(at).toBe(b);
        }
      }
    }
  });

  it("returns nothing for a node and itself or between components", () => {
    expect(shortestPath({ graph, from: "client_client", to: "client_client", maxHops: 3 })).toBeNull();
    const mixed = parseGraphifyJson(readData("graphify", "mixed-corpus", "graph.json"));
    expect(shortestPath({ graph: mixed, from: "analyze_god_nodes", to: "cluster_score_all", maxHops: 10 })).toBeNull();
  });

  it("is deterministic", () => {
    const a = shortestPath({ graph, from: "client_timeout", to: "auth_digestauth", maxHops: 3 });
    const b = shortestPath({ graph, from: "client_timeout", to: "auth_digestauth", maxHops: 3 });
    expect(a?.map((e) => e.key)).toEqual(b?.map((e) => e.key));
  });
});

describe("edges and relations", () => {
  it("edgesBetween sees both directions", () => {
    const { graph } = httpx();
    expect(edgesBetween(graph, "client_baseclient", "client_client").map((e) => [e.source, e.relation, e.target])).toEqual([
      ["client_client", "inherits", "client_baseclient"],
    ]);
  });

  it("groups spellings of a relation and counts usage between similar nodes", () => {
    expect(normalizeRelation("Published_By")).toBe("published by");
    expect(normalizeRelation("née-in")).toBe("nee in");
    const g = parseTriples("a|published by|b\nc|published_by|d\ne|Published By|f\na|wrote|d\n");
    const index = new RelationIndex(g);
    expect(index.get("PUBLISHED-BY")).toMatchObject({ name: "published by" });
    expect(index.get("published by")?.edges).toHaveLength(3);
    const { graph } = httpx();
    const usage = relationUsage({ index: new RelationIndex(graph), relation: "inherits", subject: graph.getNode("client_client")!, object: graph.getNode("client_baseclient")! });
    expect(usage).toEqual({ relation: "inherits", total: 30, sameTypes: 30, sameCommunities: 2, subjectOut: 1, objectIn: 2 });
    const rels = relationsBetweenSimilar({ index: new RelationIndex(graph), subject: graph.getNode("client_client")!, object: null });
    expect(rels.map((r) => r.relation).sort()).toEqual(["calls", "contains", "imports_from", "inherits", "method", "uses"]);
  });
});
