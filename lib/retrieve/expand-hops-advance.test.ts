/**
 * The hubs' relation groups expansion keeps per graph version, advanced with the version, equal
 * grouping afresh, on random changesets over MetaQA (genres and years are hubs of thousands).
 */
import { describe, expect, it } from "vitest";
import type { GraphEdge, KnowledgeGraph } from "../graph/model";
import { derivedVersions } from "../graph/test-derived-versions";
import { metaqa } from "../loop/test-support";
import { cachedRelationGroups } from "./expand-hops";

function groupsAfresh(graph: KnowledgeGraph, id: string): [string, string[]][] {
  const groups = new Map<string, string[]>();
  graph.forEachIncident(id, (e) => {
    const list = groups.get(e.relation);
    if (list) list.push(e.key);
    else groups.set(e.relation, [e.key]);
  });
  return [...groups];
}

const keysOf = (groups: ReadonlyMap<string, readonly GraphEdge[]> | undefined) => (groups ? [...groups].map(([r, list]) => [r, list.map((e) => e.key)]) : null);

describe("relation groups advanced with MetaQA", () => {
  it("equal grouping afresh for every hub after every random changeset", () => {
    let regrouped = 0;
    let shared = 0;
    let before: ReadonlyMap<string, unknown> | null = null;
    for (const { advanced, fresh } of derivedVersions(metaqa(), { rounds: 6, seed: 61, touch: (g) => void (before = cachedRelationGroups(g)) })) {
      const cached = cachedRelationGroups(advanced);
      const hubs = [...advanced.nodes.keys()].filter((id) => advanced.degree(id) > 200);
      expect(hubs.length).toBeGreaterThan(10);
      expect([...cached.keys()].sort()).toEqual([...cachedRelationGroups(fresh).keys()].sort());
      for (const id of hubs) expect(keysOf(cached.get(id))).toEqual(groupsAfresh(advanced, id));
      // Hubs the change touched were grouped again; the others' groups are shared with the version before.
      const previous = before;
      regrouped += hubs.filter((id) => previous?.get(id) !== cached.get(id)).length;
      shared += hubs.filter((id) => previous?.get(id) === cached.get(id)).length;
      before = cached;
    }
    expect(regrouped).toBeGreaterThan(0);
    expect(shared).toBeGreaterThan(regrouped);
  });
});
