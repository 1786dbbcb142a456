/** The tools of Ask on the real graphs: names with commas, both directions, caps, set operations, the corpus index. */
import { describe, expect, it } from "vitest";
import { metaqa, musique } from "../loop/test-support";
import { combineAnswerSets } from "./combine-answer-sets";
import { findGraphRelation, resolveAskHead, splitToolArguments } from "./resolve-ask-head";
import { getCorpusIndex, searchText, splitSentences } from "./search-corpus";
import { formatNeighbors, searchNeighbors } from "./search-neighbors";
import { formatRelations, searchRelations } from "./search-relations";
import type { AskEntity } from "./types";

describe("resolve-ask-head", () => {
  it("splits h, r where the right part is a relation and the left part a node, keeping commas", () => {
    const graph = metaqa();
    expect(splitToolArguments({ graph, argsText: "Truth or Consequences, N.M., starred_actors", stepAnswers: {} })).toEqual({ head: "Truth or Consequences, N.M.", relation: "starred_actors" });
    // A relation written in words still splits at the right comma.
    expect(splitToolArguments({ graph, argsText: "Truth or Consequences, N.M., starred actors", stepAnswers: {} })).toEqual({ head: "Truth or Consequences, N.M.", relation: "starred actors" });
    expect(findGraphRelation({ graph, name: "Starred Actors" })).toBe("starred_actors");
    expect(findGraphRelation({ graph, name: "director" })).toBeNull();
  });

  it("a one-letter title is a name like any other; Ans_i is the earlier step's set", () => {
    const graph = metaqa();
    expect(resolveAskHead({ graph, head: "O", stepAnswers: {} })).toEqual({ ok: true, entities: [{ id: "O", label: "O" }], ref: null });
    const set: AskEntity[] = [{ id: "Kismet", label: "Kismet" }, { id: null, label: "text only" }];
    expect(resolveAskHead({ graph, head: "ans1", stepAnswers: { Ans1: set } })).toEqual({ ok: true, entities: [set[0]], ref: "Ans1" });
    expect(resolveAskHead({ graph, head: "Ans2", stepAnswers: {} })).toEqual({ ok: false, error: "Ans2 has not been answered yet" });
  });
});

describe("neighbor and relation search", () => {
  it("walks a relation in both directions and ranks 2-hop answers by support", () => {
    const graph = metaqa();
    const films = searchNeighbors({ graph, heads: [{ id: "John Krasinski", label: "John Krasinski" }], relation: "starred_actors" });
    expect(films.entities.map((e) => e.label)).toEqual(expect.arrayContaining(["Leatherheads", "Away We Go"]));
    expect(films.triples.every((t) => t.object === "John Krasinski")).toBe(true);
    const genres = searchNeighbors({ graph, heads: films.entities, relation: "has_genre" });
    const supports = genres.entities.map((e) => e.support);
    expect([...supports].sort((a, b) => b - a)).toEqual(supports);
    expect(formatNeighbors({ heads: films.entities, relation: "has_genre", result: genres })).toMatch(/\| has_genre \|[\s\S]*Neighbors \(\d+\): /);
  });

  it("caps a hub's neighbours and says how many were left out", () => {
    const graph = metaqa();
    const r = searchNeighbors({ graph, heads: [{ id: "English", label: "English" }], relation: "in_language", limit: 20 });
    expect(r.entities.length).toBe(20);
    expect(r.truncated).toBeGreaterThan(100);
    expect(formatNeighbors({ heads: [{ id: "English", label: "English" }], relation: "in_language", result: r })).toMatch(/… \d+ more$/);
  });

  it("lists the relations of h, the ranker's choice first, the rest by frequency", () => {
    const graph = metaqa();
    const heads = [{ id: "Kismet", label: "Kismet" }];
    const relations = searchRelations({ graph, heads, text: "starred" });
    expect(relations[0]?.relation).toBe("starred_actors");
    expect(relations[0]?.outgoing).toBeGreaterThan(0);
    expect(relations.map((r) => r.relation)).toEqual(expect.arrayContaining(["directed_by", "written_by", "release_year"]));
    expect(formatRelations({ heads, relations })).toContain("1. starred_actors (");
  });
});

describe("combineAnswerSets", () => {
  const a: AskEntity[] = [{ id: "x", label: "X" }, { id: "y", label: "Y" }, { id: null, label: "Zed" }];
  const b: AskEntity[] = [{ id: "y", label: "Y" }, { id: null, label: "zed" }, { id: "w", label: "W" }];
  it("intersects, unites and negates by node, or by name for text answers", () => {
    const sets = { Ans1: a, Ans2: b };
    expect(combineAnswerSets({ step: { id: "Ans3", op: "intersect", args: ["Ans1", "Ans2"] }, stepAnswers: sets })).toEqual({ ok: true, entities: [a[1], a[2]] });
    expect(combineAnswerSets({ step: { id: "Ans3", op: "union", args: ["Ans1", "Ans2"] }, stepAnswers: sets })).toEqual({ ok: true, entities: [...a, b[2]] });
    expect(combineAnswerSets({ step: { id: "Ans3", op: "negation", main: "Ans1", args: ["Ans2"] }, stepAnswers: sets })).toEqual({ ok: true, entities: [a[0]] });
    expect(combineAnswerSets({ step: { id: "Ans3", op: "union", args: ["Ans1", "Ans9"] }, stepAnswers: sets })).toEqual({ ok: false, error: "Ans3: Ans9 has not been answered" });
  });
});

describe("corpus search", () => {
  it("finds the passage with a full-text index and quotes its best sentences verbatim", async () => {
    const { graph, documents } = musique();
    const hits = await searchText({ graph, documents, query: "Who was the first president of the American Psychological Association?" });
    expect(hits.length).toBeGreaterThan(0);
    const hall = hits.find((h) => h.quote.includes("G. Stanley Hall"));
    expect(hall).toBeDefined();
    const doc = documents.find((d) => d.docId === hall?.docId);
    for (const part of hall?.quote.split(" … ") ?? []) expect(doc?.text).toContain(part);
    // Built once per graph and corpus.
    expect(getCorpusIndex({ graph, documents })).toBe(getCorpusIndex({ graph, documents: [...documents] }));
  });

  it("falls back to a configured web search only when the corpus has nothing", async () => {
    const { graph, documents } = musique();
    const queries: string[] = [];
    const webSearch = {
      name: "test-web",
      search: async (query: string) => {
        queries.push(query);
        return [{ url: "https://example.org/x", title: "X", snippet: "xyzzy is a word." }];
      },
    };
    expect((await searchText({ graph, documents, webSearch, query: "American Psychological Association" }))[0]?.origin).toBe("corpus");
    const web = await searchText({ graph, documents, webSearch, query: "qwxzv" });
    expect(web).toEqual([{ docId: "https://example.org/x", url: "https://example.org/x", title: "X", quote: "xyzzy is a word.", score: 1, origin: "web" }]);
    expect(queries).toEqual(["qwxzv"]);
  });

  it("splits sentences but not at initials or titles", () => {
    expect(splitSentences("G. Stanley Hall was its first president. Mr. Cool is a film.\nline two")).toEqual(["G. Stanley Hall was its first president.", "Mr. Cool is a film.", "line two"]);
  });
});
