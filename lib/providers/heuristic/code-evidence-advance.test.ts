/**
 * The code statistics the heuristic provider's code edits read (code relations by the shapes of
 * their endpoints), advanced with the graph version, equal the statistics counted over the whole
 * graph, on random changesets over graphify code graphs (renames turn `f()` into a symbol).
 */
import { describe, expect, it } from "vitest";
import { derivedVersions } from "../../graph/test-derived-versions";
import { parseGraphifyJson } from "../../import/parse-graphify";
import { readData } from "../../test/data";
import { graphCodeStats } from "./code-evidence-edits";

const viewOf = (stats: ReturnType<typeof graphCodeStats>) => ({
  relations: [...stats.relations].map(([r, v]) => [r, v.kind, v.count]).sort(),
  byShape: [...stats.byShape].map(([k, m]) => [k, [...m].sort()]).sort(),
});

describe.each(["httpx", "rsl-siege-manager"])("code statistics advanced with graphify %s", (name) => {
  it("equal the counts over the whole graph after every random changeset", () => {
    const base = parseGraphifyJson(readData("graphify", name, "graph.json"));
    expect(graphCodeStats(base).relations.size).toBeGreaterThan(0);
    for (const { advanced, fresh } of derivedVersions(base, { rounds: 18, seed: 97, touch: (g) => void graphCodeStats(g) })) {
      expect(viewOf(graphCodeStats(advanced))).toEqual(viewOf(graphCodeStats(fresh)));
    }
  });
});
