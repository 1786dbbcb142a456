import { gunzipSync } from "node:zlib";
import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import type { KnowledgeGraph } from "../graph/model";
import { parseBundle } from "../import/parse-bundle";
import { parseGraphifyJson } from "../import/parse-graphify";
import { parseLabelFile, parseTriples } from "../import/parse-triples";
import { dataPath, readData } from "../test/data";
import { testWordnet } from "../test/lexicon";
import { configureRelationRanker, getRelationRanker, type Lexicon } from "./rank-relations";

let metaqa: KnowledgeGraph;
let lexicon: Lexicon;
beforeAll(() => {
  metaqa = parseTriples(readData("metaqa", "kb.txt"));
  lexicon = testWordnet().lexicon;
});

const top = (graph: KnowledgeGraph, text: string, lex: Lexicon | null = lexicon) =>
  getRelationRanker(graph, { lexicon: lex }).rank(text, undefined, 3).map((r) => r.relation);

describe("relation ranker on MetaQA's relations", () => {
  it("meets question words through morphology: director/directed, stars/starred", () => {
    expect(top(metaqa, "who is the director of", null)[0]).toBe("directed_by");
    expect(top(metaqa, "what films did she star in", null)[0]).toBe("starred_actors");
    expect(top(metaqa, "what year was it released", null)[0]).toBe("release_year");
  });

  it("reaches relations no word of the question shares through WordNet", () => {
    // Without the lexicon "screenwriter" and "wrote" share no stem with written_by.
    expect(top(metaqa, "which screenwriter", null)).toEqual([]);
    const ranked = getRelationRanker(metaqa, { lexicon }).rank("which screenwriter wrote it");
    expect(ranked[0]?.relation).toBe("written_by");
    expect(ranked[0]?.matches.map((m) => m.via)).toContain("lexicon");
    expect(top(metaqa, "who acted in it")[0]).toBe("starred_actors");
  });

  it("asks for a person with who, and finds it on agent and person-named relations", () => {
    const who = getRelationRanker(metaqa, { lexicon });
    expect(who.score("who", "directed_by")).toBeGreaterThan(0);
    expect(who.score("who", "starred_actors")).toBeGreaterThan(0);
    expect(who.score("who", "has_genre")).toBe(0);
    // "when" is answered by relations whose objects are years: mined from the graph.
    expect(who.explain("when was it", "release_year")).toEqual([{ word: "when", relationWord: "(numeric objects)", via: "statistics" }]);
  });

  it("keeps the names-only relevance for the baseline", () => {
    expect(getRelationRanker(metaqa, { lexicon, mode: "names" }).rank("which screenwriter wrote it")).toEqual([]);
  });
});

describe("relation ranker on other graphs", () => {
  it("ranks FB15k-237's path-like relation names, with relation2text descriptions", () => {
    const graph = parseTriples(gunzipSync(fs.readFileSync(dataPath("fb15k237", "train.tsv.gz"))).toString("utf8"));
    const descriptions = parseLabelFile(readData("fb15k237", "relation2text.txt"));
    configureRelationRanker(graph, { lexicon, descriptions });
    const rank = (q: string) => getRelationRanker(graph).rank(q, undefined, 2).map((r) => r.relation);
    expect(rank("where was he born")[0]).toBe("/people/person/place_of_birth");
    expect(rank("what is the nationality of")[0]).toBe("/people/person/nationality");
    expect(rank("who wrote the screenplay")[0]).toBe("/film/film/written_by");
    // FB15k-237 has no directed_by: a director's films are /film/director/film.
    expect(rank("who directed the film")).toContain("/film/director/film");
  });

  it("ranks MuSiQue's free-text relations and graphify's code relations", () => {
    const musique = parseBundle({ triples: { name: "triples.jsonl", text: readData("musique", "triples.jsonl") } }).graph;
    expect(top(musique, "who wrote the song")).toContain("is a song written by");
    const httpx = parseGraphifyJson(readData("graphify", "httpx", "graph.json"));
    expect(top(httpx, "what calls send")[0]).toBe("calls");
    expect(top(httpx, "which modules import httpx")[0]).toBe("imports_from");
    expect(top(httpx, "what does Client inherit from")[0]).toBe("inherits");
  });

  it("ranks only the given relations, best first, and explains each score", () => {
    const ranked = getRelationRanker(metaqa, { lexicon }).rank("who directed it", ["has_genre", "written_by", "directed_by"]);
    expect(ranked.map((r) => r.relation)).toEqual(["directed_by", "written_by"]);
    expect(ranked[0]?.matches).toContainEqual({ word: "directed", relationWord: "directed", via: "exact" });
  });

  it("adds an embeddings endpoint's similarity when one is given", () => {
    const embeddings = { similarity: (_text: string, relation: string) => (relation === "has_tags" ? 0.9 : 0) };
    const ranked = getRelationRanker(metaqa, { lexicon: null, embeddings }).rank("what is it about", undefined, 1);
    expect(ranked[0]).toMatchObject({ relation: "has_tags", matches: [{ via: "embedding" }] });
  });
});
