import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KnowledgeGraph, Triple } from "../../graph/model";
import { parseTriples } from "../../import/parse-triples";
import { setDefaultLexicon } from "../../retrieve/rank-relations";
import { readData } from "../../test/data";
import { testWordnet } from "../../test/lexicon";
import { askedRelations, judgeAnswerable } from "./judge";

let kb: KnowledgeGraph;
const triples = (keep: (t: Triple) => boolean): Triple[] => [...kb.edges.values()].map((e) => kb.toTriple(e)).filter(keep);

beforeAll(() => {
  kb = parseTriples(readData("metaqa", "kb.txt"));
  setDefaultLexicon(testWordnet().lexicon);
});
afterAll(() => setDefaultLexicon(null));

describe("heuristic judge with the relation ranker (MetaQA, no brackets)", () => {
  it("maps the question's words to the relation families it asks for", () => {
    const families = askedRelations(kb, ["which", "person", "directed", "the", "movies", "starred", "by"]);
    expect(families.map((f) => [...f.relations])).toEqual([["directed_by"], ["starred_actors"]]);
    expect(askedRelations(kb, ["screenwriter"]).map((f) => [...f.relations])).toEqual([["written_by"]]);
  });

  it("says No to a 2-hop question while only the first hop is retrieved, Yes once the second is", () => {
    const question = "which person directed the movies starred by John Krasinski";
    const films = triples((t) => t.object === "John Krasinski" && t.relation === "starred_actors");
    expect(films.length).toBeGreaterThan(3);
    expect(judgeAnswerable({ graph: kb, question, triples: films }).answerable).toBe(false);
    const directors = triples((t) => t.subject === "Away We Go" && t.relation === "directed_by");
    expect(judgeAnswerable({ graph: kb, question, triples: [...films, ...directors] })).toMatchObject({ answerable: true });
  });

  it("does not take a title word for a relation or an entity: \"acted together with\" and the film Together", () => {
    expect(kb.nodes.has("Together")).toBe(true);
    const question = "who acted together with Jeremy Northam";
    const film = triples((t) => t.object === "Jeremy Northam" && t.relation === "starred_actors").slice(0, 1);
    const together = triples((t) => t.subject === "Together");
    expect(judgeAnswerable({ graph: kb, question, triples: [...film, ...together] }).answerable).toBe(false);
    const coActors = triples((t) => t.subject === film[0]?.subject && t.relation === "starred_actors" && t.object !== "Jeremy Northam");
    expect(coActors.length).toBeGreaterThan(0);
    expect(judgeAnswerable({ graph: kb, question, triples: [...film, ...coActors] }).answerable).toBe(true);
  });

  it("answers a screenwriter question only from written_by, and a comma title as one entity", () => {
    const question = "who is the screenwriter of Same Time, Next Year";
    const film = triples((t) => t.subject === "Same Time, Next Year");
    const written = film.filter((t) => t.relation === "written_by");
    expect(written.length).toBeGreaterThan(0);
    expect(judgeAnswerable({ graph: kb, question, triples: film.filter((t) => t.relation !== "written_by") }).answerable).toBe(false);
    expect(judgeAnswerable({ graph: kb, question, triples: written }).answerable).toBe(true);
  });

  it("finds a one-letter title", () => {
    const question = "what does O star in";
    const starred = triples((t) => t.subject === "O" && t.relation === "starred_actors");
    expect(judgeAnswerable({ graph: kb, question, triples: starred }).answerable).toBe(true);
  });
});

describe("heuristic judge on a second data set (Countries, locatedIn)", () => {
  it("needs both countries joined by the relation the question asks for", () => {
    const graph = parseTriples(readData("countries_S1", "graph.txt"));
    const all = [...graph.edges.values()].map((e) => graph.toTriple(e));
    const toRegion = all.filter((t) => t.subject === "eritrea" && t.object === "eastern_africa");
    const toContinent = all.filter((t) => t.subject === "eastern_africa" && t.object === "africa");
    const question = "is eritrea located in africa";
    expect(judgeAnswerable({ graph, question, triples: [...toRegion, ...toContinent] }).answerable).toBe(true);
    expect(judgeAnswerable({ graph, question, triples: toRegion }).answerable).toBe(false);
  });
});
