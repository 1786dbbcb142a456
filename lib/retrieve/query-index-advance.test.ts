/**
 * The query index advanced with the graph version equals the index built from scratch, on random
 * changesets over real graphs; and advancing leaves the older version's index as it was.
 */
import { describe, expect, it } from "vitest";
import type { KnowledgeGraph } from "../graph/model";
import { tokenize } from "../graph/normalize";
import { identifierWords } from "../graph/resolve-name";
import { derivedVersions } from "../graph/test-derived-versions";
import { parseGraphifyJson } from "../import/parse-graphify";
import { parseTriples } from "../import/parse-triples";
import { readData } from "../test/data";
import { type QueryIndex, getQueryIndex, nodeEntry, queryGraph, queryIndexStats, termStats } from "./query-graph";

const GRAPHS: [string, () => KnowledgeGraph][] = [
  ["graphify httpx", () => parseGraphifyJson(readData("graphify", "httpx", "graph.json"))],
  ["countries_S1", () => parseTriples(readData("countries_S1", "graph.txt"), { source: "graph.txt" })],
];

/** Label words, phrases and substrings of the labels of the graphs, the terms the index is probed with. */
function probesOf(graphs: KnowledgeGraph[]): { words: string[]; phrases: string[]; terms: string[] } {
  const words = new Set<string>();
  const phrases = new Set<string>();
  for (const graph of graphs) {
    for (const node of graph.nodes.values()) {
      for (const w of identifierWords(node.label)) words.add(w);
      const tokens = tokenize(node.label);
      if (tokens.length > 1) phrases.add(tokens.join(" "));
    }
  }
  const list = [...words].sort();
  // Substrings too: the text search finds a term anywhere in a label or path.
  const terms = [...list.filter((_, i) => i % 3 === 0), ...list.filter((w) => w.length > 4).map((w) => w.slice(1, 4)), "renamed", "http", "py"];
  return { words: list, phrases: [...phrases].sort(), terms: [...new Set(terms)] };
}

/** Everything retrieval reads from an index, by node id (entry numbers differ: removed nodes leave holes). */
function viewOf(graph: KnowledgeGraph, index: QueryIndex, probes: ReturnType<typeof probesOf>) {
  const idOf = (i: number) => {
    const entry = index.entries[i];
    if (!entry) throw new Error(`entry ${i} is a hole but was returned`);
    return entry.node.id;
  };
  const ids = (list: readonly number[] | undefined) => (list ?? []).map(idOf).sort();
  return {
    entries: [...graph.nodes.keys()].sort().map((id) => {
      const e = nodeEntry(index, id);
      return e && [id, e.node.label, e.norm, e.bare, e.core, e.words, e.degree];
    }),
    live: index.entries.filter((e) => e !== undefined).length,
    nodeCount: index.nodeCount,
    hubDegree: index.hubDegree,
    edgeKinds: [...index.edgeKinds].sort(),
    relationStemSet: [...index.relationStemSet].sort(),
    words: probes.words.map((w) => [w, ids(index.words.get(w))]),
    phrases: probes.phrases.map((p) => [p, ids(index.phrases.get(p))]),
    terms: probes.terms.map((t) => {
      const s = termStats(index, t);
      return [t, s.idf, ids(s.labelHits), ids(s.fileHits)];
    }),
  };
}

function questionsOf(graph: KnowledgeGraph, round: number): string[] {
  const nodes = [...graph.nodes.values()];
  const edges = [...graph.edges.values()];
  return [0, 1, 2].map((i) => {
    const e = edges[(round * 31 + i * 97) % edges.length];
    const n = nodes[(round * 17 + i * 53) % nodes.length];
    return `What is the ${e?.relation ?? "relation"} of ${n?.label ?? ""}?`;
  });
}

describe.each(GRAPHS)("the query index advanced with %s", (_, read) => {
  it("equals the index built whole after every random changeset, and older versions keep theirs", () => {
    const base = read();
    const seen: { advanced: KnowledgeGraph; fresh: KnowledgeGraph }[] = [];
    const before = queryIndexStats();
    let probes = probesOf([base]);
    for (const { round, advanced, fresh } of derivedVersions(base, { rounds: 18, seed: 29, touch: (g) => void getQueryIndex(g) })) {
      probes = probesOf([base, fresh]);
      const got = viewOf(advanced, getQueryIndex(advanced), probes);
      const want = viewOf(fresh, getQueryIndex(fresh), probes);
      expect(got).toEqual(want);
      // A phrase-length bound that never shrinks: at least the built one.
      expect(getQueryIndex(advanced).maxPhraseWords).toBeGreaterThanOrEqual(getQueryIndex(fresh).maxPhraseWords);
      // The visited nodes as a set: an advanced graph lists a node's edges in another order than
      // a fresh copy does (a changed edge goes last), which orders traversal ties; not the index.
      const answer = (graph: KnowledgeGraph, question: string) => {
        const result = queryGraph({ graph, question, limit: 20 });
        return { ...result, nodes: [...result.nodes].sort() };
      };
      for (const question of questionsOf(fresh, round)) expect(answer(advanced, question)).toEqual(answer(fresh, question));
      seen.push({ advanced, fresh });
    }
    const after = queryIndexStats();
    // Every version checked was advanced, none built whole (the fresh copies were).
    expect(after.advanced - before.advanced).toBe(seen.length);
    // The older versions' indexes, read again after the later advances: still their own.
    probes = probesOf([base, ...seen.map((v) => v.fresh)]);
    for (const { advanced, fresh } of seen) expect(viewOf(advanced, getQueryIndex(advanced), probes)).toEqual(viewOf(fresh, getQueryIndex(fresh), probes));
    expect(queryIndexStats().advanced).toBe(after.advanced);
  });
});
