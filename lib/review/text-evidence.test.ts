import { beforeAll, describe, expect, it } from "vitest";
import type { KnowledgeGraph } from "../graph/model";
import type { CorpusDocument } from "../import/corpus";
import { musique } from "../loop/test-support";
import {
  bareIdentifier,
  documentIndex,
  documentMentions,
  findCoMentions,
  findStatements,
  findTerm,
  isAliasStatement,
  isFlattenedTable,
  isMetadataLine,
  matchTerms,
  proseKey,
  splitSentences,
  stem,
  wordsMeet,
} from "./text-evidence";

const file = (path: string, text: string): CorpusDocument => ({ docId: path, kind: "file", title: null, path, text });
const passage = (docId: string, text: string): CorpusDocument => ({ docId, kind: "passage", title: null, path: null, text });

describe("splitSentences", () => {
  it("keeps initials, abbreviations and quoted ends in MuSiQue's passages", () => {
    const doc = musique().documents.find((d) => d.docId === "musique-p0010");
    const sentences = splitSentences(doc?.text ?? "");
    expect(sentences[0]).toBe('The formal study of adolescent psychology began with the publication of G. Stanley Hall\'s "Adolescence in 1904."');
    expect(sentences[1]).toMatch(/^Hall, who was the first president of the American Psychological Association/);
    expect(sentences).toHaveLength(9);
  });

  it("does not split after Dr., U.S. or e.g., and splits at line breaks", () => {
    expect(splitSentences("Dr. Smith served in the U.S. Army. He retired.\nNew line, e.g. this")).toEqual([
      "Dr. Smith served in the U.S. Army.",
      "He retired.",
      "New line, e.g. this",
    ]);
    expect(splitSentences("It rose 3.5 m. 2010 was next!  Then? yes.")).toEqual(["It rose 3.5 m.", "2010 was next!", "Then? yes."]);
  });
});

describe("names", () => {
  it("matches prose at word boundaries and code at identifier boundaries", () => {
    expect(findTerm("halle and hall", "hall", false)).toEqual([10]);
    expect(findTerm("class Client(BaseClient):", "Client", true)).toEqual([6]);
    expect(findTerm("self._client = client", "client", true)).toEqual([15]);
    expect(findTerm("6'11\" center", "6'11\"", false)).toEqual([0]);
  });

  it("turns graphify labels into identifiers and keeps dashes tight in prose", () => {
    expect(bareIdentifier(".__init__()")).toBe("__init__");
    expect(bareIdentifier("client.py")).toBe("client");
    expect(bareIdentifier("Client")).toBe("Client");
    expect(matchTerms({ name: "client.py::._build_request()" })).toEqual({
      display: "._build_request()",
      prose: ["._build_request()", "_build_request"],
      code: ["_build_request"],
    });
    expect(proseKey("Person - centered  Therapy")).toBe("person-centered therapy");
  });

  it("stems lightly", () => {
    expect(stem("studied")).toBe(stem("study"));
    expect(stem("borders")).toBe(stem("bordering"));
    expect(stem("contested")).not.toBe(stem("contemporary"));
  });
});

describe("findCoMentions", () => {
  let graph: KnowledgeGraph;
  let docs: CorpusDocument[];
  beforeAll(() => {
    ({ graph } = musique());
    docs = musique().documents.filter((d) => ["musique-p0006", "musique-p0010"].includes(d.docId));
  });

  it("finds the sentence naming both and ranks the one that also says the relation first", () => {
    const hall = matchTerms({ name: "G. Stanley Hall", node: graph.getNode("G. Stanley Hall") });
    const apa = matchTerms({ name: "American Psychological Association", node: graph.getNode("American Psychological Association") });
    const found = findCoMentions({ documents: docs, a: hall, b: apa, relation: "first president of" });
    // Sentence 2 says "Hall, who was the first president": the full name is not in it.
    expect(found).toEqual([]);
    const anna = matchTerms({ name: "Anna Freud", node: graph.getNode("Anna Freud") });
    const erik = matchTerms({ name: "Erik Erikson", node: graph.getNode("Erik Erikson") });
    const both = findCoMentions({ documents: docs, a: anna, b: erik, relation: "formulated" });
    expect(both).toHaveLength(1);
    expect(both[0]).toMatchObject({ code: false, relationWords: ["formulated"], highlights: ["Anna Freud", "Erik Erikson"] });
    expect(both[0]?.doc.docId).toBe("musique-p0010");
  });

  it("matches code case-sensitively, line by line, with line numbers", () => {
    const doc = file("a.py", "import client\n\nclass Client(BaseClient):\n    pass\n");
    const found = findCoMentions({ documents: [doc], a: matchTerms({ name: "Client" }), b: matchTerms({ name: "BaseClient" }) });
    expect(found.map((m) => m.unit.line)).toEqual([3]);
    expect(found[0]?.code).toBe(true);
  });

  it("says whether a document mentions a name, or that it cannot tell", () => {
    const code = file("a.py", "class Client(BaseClient):\n    pass\n");
    expect(documentMentions(code, matchTerms({ name: "BaseClient" }))).toBe(true);
    expect(documentMentions(code, matchTerms({ name: "Client" }))).toBe(true);
    expect(documentMentions(code, matchTerms({ name: "client" }))).toBe(false);
    // A rationale label has no identifier form: unknown, not absent.
    expect(documentMentions(code, matchTerms({ name: "initial schema  Revision ID: 0001" }))).toBeNull();
  });

  it("caches each document's split on the document object", () => {
    const doc = docs[0] as CorpusDocument;
    expect(documentIndex(doc)).toBe(documentIndex(doc));
  });
});

describe("isAliasStatement", () => {
  it("reads 'also known as' across a list (MuSiQue p0001)", () => {
    const doc = musique().documents.find((d) => d.docId === "musique-p0001") as CorpusDocument;
    const [m] = findCoMentions({ documents: [doc], a: matchTerms({ name: "Person-centered therapy" }), b: matchTerms({ name: "Rogerian psychotherapy" }) });
    expect(m && isAliasStatement(m)).toBe(true);
    const [not] = findCoMentions({ documents: [doc], a: matchTerms({ name: "Person-centered therapy" }), b: matchTerms({ name: "Carl Rogers" }) });
    expect(not && isAliasStatement(not)).toBe(false);
  });

  it("reads brackets in prose and assignments / `as` in code", () => {
    const prose: CorpusDocument = { docId: "p", kind: "passage", title: null, path: null, text: "The International Railways of Central America (IRCA) ran trains." };
    const [p] = findCoMentions({ documents: [prose], a: matchTerms({ name: "IRCA" }), b: matchTerms({ name: "International Railways of Central America" }) });
    expect(p && isAliasStatement(p)).toBe(true);
    const code = file("m.ts", 'export const Client = HttpClient;\nimport { Base as Root } from "./base";\nconst c = Client(HttpClient);\n');
    const pairs: Array<[string, string, boolean]> = [
      ["Client", "HttpClient", true],
      ["Base", "Root", true],
    ];
    for (const [a, b, want] of pairs) {
      const found = findCoMentions({ documents: [code], a: matchTerms({ name: a }), b: matchTerms({ name: b }) });
      expect(found.some(isAliasStatement), `${a} ~ ${b}`).toBe(want);
      expect(found.find(isAliasStatement)?.unit.line).toBe(a === "Client" ? 1 : 2);
    }
    const call = findCoMentions({ documents: [file("n.ts", "const c = Client(HttpClient);")], a: matchTerms({ name: "Client" }), b: matchTerms({ name: "HttpClient" }) });
    expect(call[0] && isAliasStatement(call[0])).toBe(false);
  });
});

describe("findStatements (issue #10): a statement, not a co-mention", () => {
  let docs: Map<string, CorpusDocument>;
  beforeAll(() => {
    docs = new Map(musique().documents.map((d) => [d.docId, d]));
  });
  const kinds = (docId: string, a: string, relation: string, b: string) =>
    findStatements({ documents: [docs.get(docId) as CorpusDocument], a: matchTerms({ name: a }), b: matchTerms({ name: b }), relation }).map((x) => x.kind);

  it("the relation's words between the names state it; a colon inside brackets is no metadata header", () => {
    // "The Renaissance (UK: / rɪˈneɪsəns /, …) is a period in European history, …"
    expect(kinds("musique-p1369", "Renaissance", "is a period in", "European history")).toEqual(["stated"]);
    // "Metamora Township, Township 27 North, Range 2 West, is located in Woodford County, Illinois."
    expect(kinds("musique-p0906", "Metamora Township", "located in", "Woodford County")).toEqual(["stated"]);
  });

  it("a semicolon or a spaced dash between the names starts another statement", () => {
    // "Olga Havlová, born Šplíchalová (11 July 1933 in Prague – 27 January 1996 in Prague) was …"
    expect(kinds("musique-p1030", "Olga Havlová", "born on", "27 January 1996")).toEqual(["co_mention"]);
  });

  it("an address chain without a conjunction is no list; a coordinated pair without the relation's words is", () => {
    // "… in Crane Township, Wyandot County, Ohio, United States."
    expect(kinds("musique-p0567", "Wyandot County", "located in", "Ohio")).toEqual(["co_mention"]);
    // "… psychologists such as Erik Erikson and Anna Freud started to formulate …"
    expect(kinds("musique-p0010", "Anna Freud", "contemporary of", "Erik Erikson")).toEqual(["list"]);
  });

  it("relation words elsewhere in a long sentence do not make it a statement of this pair", () => {
    const doc: CorpusDocument = {
      docId: "x",
      kind: "passage",
      title: null,
      path: null,
      text: "Carol founded a bakery in Leeds in 1990 with her savings, and years later Alice met Bob there.",
    };
    const st = findStatements({ documents: [doc], a: matchTerms({ name: "Bob" }), b: matchTerms({ name: "Alice" }), relation: "founded" });
    expect(st.map((x) => x.kind)).toEqual(["co_mention"]);
  });

  it("enumerations after a colon and `key: value` headers are not statements (the lines of issue #10)", () => {
    const doc: CorpusDocument = {
      docId: "p1",
      kind: "passage",
      title: "Dan Gross",
      path: null,
      text: "Dan Gross is an investor in: Graphite, OpenAI, Anthropic.\n**Scoring reason:** mentions anthropic and OpenAI with funding figures.",
    };
    const st = findStatements({ documents: [doc], a: matchTerms({ name: "anthropic" }), b: matchTerms({ name: "OpenAI" }), relation: "overtaking" });
    expect(st.map((x) => x.kind)).toEqual(["list", "metadata"]);
    expect(isMetadataLine("**Scoring reason:** mentions anthropic")).toBe(true);
    expect(isMetadataLine("| OpenAI | Anthropic |")).toBe(true);
    expect(isMetadataLine("The swan song (ancient Greek: κύκνειον ᾆσμα) is a metaphorical phrase")).toBe(false);
  });

  it("a name in the previous sentence referred back to, or the passage's title, is a statement across sentences", () => {
    // p0006, titled "Journal of Psychotherapy Integration": "… The editor-in-chief is Jennifer Callahan …"
    const st = findStatements({
      documents: [docs.get("musique-p0006") as CorpusDocument],
      a: matchTerms({ name: "Jennifer Callahan" }),
      b: matchTerms({ name: "Journal of Psychotherapy Integration" }),
      relation: "editor of",
    });
    expect(st[0]).toMatchObject({ kind: "across", via: "title", relationWords: ["editor"], quote: "The editor-in-chief is Jennifer Callahan (University of North Texas)." });
    // The other name in the previous sentence, referred back to ("It …").
    const doc: CorpusDocument = { docId: "y", kind: "passage", title: null, path: null, text: "Mount Monadnock rises in Jaffrey. It is the source of the Contoocook River." };
    const back = findStatements({ documents: [doc], a: matchTerms({ name: "Contoocook River" }), b: matchTerms({ name: "Mount Monadnock" }), relation: "source" });
    expect(back[0]).toMatchObject({ kind: "across", via: "previous sentence", quote: "Mount Monadnock rises in Jaffrey. It is the source of the Contoocook River." });
  });

  it("lexical variants meet: located/location, born/birth, wrote/author; unrelated words do not", () => {
    expect(wordsMeet("located", "location")).toBe(true);
    expect(wordsMeet("born", "birthplace")).toBe(true);
    expect(wordsMeet("wrote", "author")).toBe(true);
    expect(wordsMeet("contested", "contemporary")).toBe(false);
    expect(wordsMeet("part", "particular")).toBe(false);
  });
});

describe("findStatements: the relation's words must attach to this pair (issue #10, musique-hard's made-up HIGHs)", () => {
  let docs: Map<string, CorpusDocument>;
  beforeAll(() => {
    docs = new Map(musique().documents.map((d) => [d.docId, d]));
  });
  const best = (docId: string, a: string, relation: string, b: string) =>
    findStatements({ documents: [docs.get(docId) as CorpusDocument], a: matchTerms({ name: a }), b: matchTerms({ name: b }), relation, limit: 1 })[0];
  const expectFault = (st: ReturnType<typeof best>, kind: string, note: string) => {
    expect(st?.kind).toBe(kind);
    expect(st?.note).toContain(note);
  };

  it("a name inside a relative clause, or relation words in another noun's clause, state nothing of the pair", () => {
    // "Indian English Literature (IEL) refers to the body of work by writers in India who write in the English language …"
    expectFault(best("musique-p0498", "Indian English Literature", "refers to", "English language"), "co_mention", "relative clause");
    // "(To be sure, some earlier Polish kings had been elected with help from bodies such as that which put Casimir II on the throne, …)"
    expectFault(best("musique-p1082", "Casimir II", "put on the throne by", "Polish"), "co_mention", "another noun");
    // The relative clause of the name's own predicate or of a coordination with it still attaches.
    // "Santa Maria in Vallicella, also called Chiesa Nuova, is a church in Rome, Italy, which today faces onto … the Corso Vittorio Emanuele …"
    expect(best("musique-p0058", "Santa Maria in Vallicella", "faces onto", "Corso Vittorio Emanuele")?.kind).toBe("stated");
    // "… the Triple Entente and the Triple Alliance (already formed in 1882), which were in part a cause of World War I."
    expect(best("musique-p0767", "Triple Entente", "caused", "World War I")?.kind).toBe("stated");
    // "Kim Young-chul (born June 30, 1976) is a South Korean former footballer who recently played as a defender for Bucheon FC …"
    expect(best("musique-p0551", "Kim Young-chul", "played for", "Bucheon FC")?.kind).toBe("stated");
  });

  it("another preposition after the relation's word is partial evidence, not a statement", () => {
    // "Glade Farms is located on West Virginia Route 26 north-northeast of Brandonville."
    expect(best("musique-p0563", "Glade Farms", "located in", "West Virginia Route 26")).toMatchObject({ kind: "clause", note: 'it says "located on", not "located in"' });
    // "… his deep interest in the work of Ernst Mach, inspired Hayek's first intellectual project, eventually published as The Sensory Order (1952)."
    expect(best("musique-p0700", "The Sensory Order", "published in", "Ernst Mach")).toMatchObject({ kind: "clause", note: 'it says "published as", not "published in"' });
    // The preposition of another relation word does not count: "In 2003 the mandate of the … (ISAF), under the command of NATO, was extended and expanded …"
    expect(best("musique-p1294", "NATO", "mandate extended and expanded in", "2003")?.kind).toBe("stated");
  });

  it("the relation's preposition with its own object, or the name as another verb's agent, is not this pair", () => {
    // "The event was presided over by the head of the country's parliament, Kim Yong Nam."
    expectFault(best("musique-p0539", "Kim Yong Nam", "head of", "the event"), "co_mention", "takes another object");
    // "The Battle of Stoney Creek was fought on 6 June 1813 during the War of 1812 near present - day Stoney Creek, Ontario."
    expectFault(best("musique-p1448", "Battle of Stoney Creek", "was fought on", "Stoney Creek"), "co_mention", 'comes with "near"');
    expect(best("musique-p1448", "Battle of Stoney Creek", "was fought on", "6 June 1813")?.kind).toBe("stated");
    // "Tic Tac is a Swedish thriller film which was released to cinemas in Sweden on 31 October 1997, directed by Daniel Alfredson …"
    expect(best("musique-p0810", "Tic Tac", "released on", "Daniel Alfredson")?.kind).toBe("co_mention");
    // One phrase after the object may belong to it: "Gurion Hyman graduated from the pharmacy program at the University of Toronto"
    expect(best("musique-p1188", "Gurion Hyman", "graduated from", "University of Toronto")?.kind).toBe("stated");
    // Coordinated verbs share their agent: "WPAQ is owned and operated by WPAQ Radio, Inc."
    expect(best("musique-p0741", "WPAQ", "owned by", "WPAQ Radio, Inc.")?.kind).toBe("stated");
  });

  it("relation words in brackets that name neither side are an aside about the near name", () => {
    // "Kenji Treschuk (born December 26, 1982 in Honolulu, Hawaii) is an American soccer player, …"
    expectFault(best("musique-p0199", "Kenji Treschuk", "born on", "American soccer player"), "co_mention", 'in brackets ("born december 26');
    // Inside the brackets it is stated.
    expect(best("musique-p0199", "Kenji Treschuk", "born in", "Honolulu")?.kind).toBe("stated");
    // "NSB El 13 is … used by Norwegian State Railways (NSB) for both passenger and freight trains.": an
    // abbreviation in brackets is no aside.
    expect(best("musique-p0882", "Norwegian State Railways", "used NSB El 13 for", "freight trains")?.kind).toBe("stated");
    // Brackets inside brackets: "(Köppen climate classifion, with five seasons: Winter (Nov − Feb), Spring (March − April), …"
    expect(best("musique-p0965", "Islamabad", "has seasons", "Summer")?.kind).toBe("stated");
  });

  it("the far name that comes with another preposition than the relation's, which the text never uses, is named in a clause, not stated", () => {
    // "Alexis Lecaye (born August 22, 1951 in Alexandria, Egypt) is French author …"
    expectFault(best("musique-p0373", "Alexis Lecaye", "born on", "Alexandria, Egypt"), "clause", 'it says "born … in", not "born on"');
    expect(best("musique-p0373", "Alexis Lecaye", "born in", "Alexandria, Egypt")?.kind).toBe("stated");
    expect(best("musique-p0373", "Alexis Lecaye", "born on", "August 22, 1951")?.kind).toBe("stated");
    // "Nigeria Airways Flight 825 … crashed while on approach to Lagos International Airport": not "near".
    expectFault(best("musique-p0323", "Nigeria Airways Flight 825", "crashed near", "Lagos International Airport"), "clause", '"crashed … to"');
    // "of" extends a noun, and the relation's own preposition anywhere before the name keeps it stated ("born in Pyongyang in 1933").
    expect(best("musique-p0542", "He", "born in", "1933")?.kind).toBe("stated");
  });

  it("the relation's words with a name of their own, and the far name with another preposition, are not this pair", () => {
    // "The Five Pieces for Orchestra (Fünf Orchesterstücke), Op. 16, were composed by Arnold Schoenberg in 1909."
    expectFault(best("musique-p1652", "Five Pieces for Orchestra", "composed by", "1909"), "co_mention", '"composed by" takes "arnold schoenberg"; the other name comes with "in"');
    expect(best("musique-p1652", "Five Pieces for Orchestra", "composed by", "Arnold Schoenberg")?.kind).toBe("stated");
    // "… a quarterly peer-reviewed academic journal published by Wiley-Blackwell on behalf of the International Council for Small Business."
    expectFault(best("musique-p0002", "Journal of Small Business Management", "published by", "International Council for Small Business"), "co_mention", 'comes with "on"');
    // The same preposition again may still be the relation's: "He was born in Pyongyang in 1933."
    expect(best("musique-p0542", "He", "born in", "1933")?.kind).toBe("stated");
    // The phrase's slot, whichever of its words attaches: "The Republic of the Congo received full independence from France on August 15, 1960."
    expectFault(best("musique-p0102", "Republic of the Congo", "received independence from", "August 15, 1960"), "co_mention", '"independence from" takes "france"');
    // A new predicate after a comma, or a relative pronoun, after the name.
    // "… film directed by Goran Marković, starring Rade Marković, Bogdan Diklić, Dragan Nikolić, …"
    expectFault(best("musique-p1185", "Sabirni centar", "directed by", "Dragan Nikolić"), "co_mention", 'comes after "starring"');
    // "Monster Squad is a television series produced by D'Angelo Productions that aired … on NBC from 1976 to 1977."
    expectFault(best("musique-p1843", "Monster Squad", "is produced by", "1976"), "co_mention", 'comes after "that"');
    // "… film written and directed by Jim Kouf starring James Belushi, …, Lela Rochon, …": a participle right after the name.
    expectFault(best("musique-p0236", "Gang Related", "written and directed by", "Lela Rochon"), "co_mention", 'comes after "starring"');
    // "… the R101 airship, crashing in France during its maiden overseas voyage in 1930.": the last "in" is the voyage's.
    expectFault(best("musique-p1263", "R101", "crashing in", "1930"), "co_mention", '"crashing in" takes "france"');
    // "It was designed by Atlanta-based architect William Augustus Edwards …": a hyphenated word is no participle.
    expect(best("musique-p1856", "Hernando County Courthouse", "designed by", "William Augustus Edwards")?.kind).toBe("stated");
    // Still stated: a coordinated noun ("by Kellee Riley and illustrator Glen Hanson"), a name with
    // lowercase words in a list ("members from Forum for Democratic Change, Democratic Party, …"),
    // the relation's own preposition again ("members of the National Association in 1871, and of
    // the National League"), the relation's word again ("Portugal explored the Atlantic Ocean, …, explored the African coast").
    expect(best("musique-p1842", "Monster High", "illustrated by", "Glen Hanson")?.kind).toBe("stated");
    expect(best("musique-p1045", "Opposition in Uganda", "made up of members from", "Democratic Party")?.kind).toBe("stated");
    expect(best("musique-p0665", "Red Stockings", "was a charter member of", "National League")?.kind).toBe("stated");
    expect(best("musique-p1360", "Portugal", "explored", "African coast")?.kind).toBe("stated");
  });

  it("a number or a date is the relation's argument as much as a name is", () => {
    // "… Nasser's new revolutionary government of Egypt that had taken power in 1952, and the
    // following year it was agreed that … Sudan would be granted self-determination by 1955 …"
    expectFault(best("musique-p0602", "Egypt", "had taken power in", "Sudan"), "co_mention", 'takes "1952"');
    // "… the seventh studio album by … The Vandals, released in 1998 by Nitro Records."
    expectFault(best("musique-p0127", "Hitler Bad, Vandals Good", "released in", "Nitro Records"), "co_mention", '"released in" takes "1998"; the other name comes with "by"');
    expect(best("musique-p0127", "Hitler Bad, Vandals Good", "released in", "1998")?.kind).toBe("stated");
    // The relation's own preposition again after the number may still be the relation's:
    // "… released in 1993 on Permanent Records in the UK and by Matador Records in the US …".
    expect(best("musique-p1223", "The Infotainment Scan", "released in", "US")?.kind).toBe("stated");
    // A date with its comma is one argument: "… received full independence from France on August 15, 1960."
    expect(best("musique-p0102", "Republic of the Congo", "received independence on", "August 15, 1960")?.kind).toBe("stated");
    // A series of numbers goes on with the argument: the far number after a comma or "and" is the next item.
    const series = passage("series", "Unemployment has reached 27.6 % in Azerbaijan, 25.7 % in Tadzhikistan and 16.3 % in Kirgizia, the newspaper said.");
    for (const n of ["25.7 %", "16.3 %"]) {
      expect(findStatements({ documents: [series], a: matchTerms({ name: "Unemployment" }), b: matchTerms({ name: n }), relation: "has reached", limit: 1 })[0]?.kind).toBe("stated");
    }
  });

  it("the relation's head and preposition only after the far name take their own object", () => {
    // "… journal published by Wiley-Blackwell on behalf of the International Council for Small Business."
    expectFault(best("musique-p0002", "Journal of Small Business Management", "published on behalf of", "Wiley-Blackwell"), "co_mention", '"behalf of" comes after the other name');
    expect(best("musique-p0002", "Journal of Small Business Management", "published on behalf of", "International Council for Small Business")?.kind).toBe("stated");
    expect(best("musique-p0002", "Journal of Small Business Management", "published by", "Wiley-Blackwell")?.kind).toBe("stated");
    // "Norfolk Island is located in the South Pacific Ocean, east of the Australian mainland."
    expectFault(best("musique-p0389", "Norfolk Island", "located east of", "South Pacific Ocean"), "co_mention", '"east of" comes after the other name');
    expect(best("musique-p0389", "Norfolk Island", "located in", "South Pacific Ocean")?.kind).toBe("stated");
  });

  it("an infobox run together into one line names both but states nothing", () => {
    // "2018 Commonwealth Games -- Men's hockey Tournament details Host country Australia City Gold Coast Dates 5 -- 14 April 2018 Teams 10 Venue (s) Gold Coast Hockey Centre …"
    expectFault(best("musique-p1656", "2018 Commonwealth Games", "hosted in", "Gold Coast Hockey Centre"), "co_mention", "table");
    const atonement = "When Atonement merged with the Lutheran Church of Our Saviour, Atonement's congregation moved into Our Saviour's building at 525 West 179th Street and then 580 West 187th Street.";
    expect(isFlattenedTable(atonement)).toBe(false);
    expect(best("musique-p1249", "Atonement's congregation", "moved into", "Our Saviour's building at 525 West 179th Street")?.kind).toBe("stated");
  });

  it("a later mention of a name counts when its first one is inside the other name", () => {
    // "Missouri's 8th Congressional District is one of 435 congressional districts … and one of eight congressional districts in the state of Missouri."
    expect(best("musique-p1627", "Missouri's 8th Congressional District", "is located in", "Missouri")?.kind).toBe("co_mention");
    // "Duyvis Point () is the point forming the southeast side of the entrance to Urovene Cove …"
    expect(best("musique-p1350", "Duyvis Point", "is", "point")?.kind).toBe("co_mention");
  });
});
