import { describe, expect, it } from "vitest";
import type { AppError } from "../errors";
import { readData } from "../test/data";
import type { RawTriple } from "./parse-triples";
import { createTripleLineReader, parseLabelFile, parseTripleLines, parseTriples } from "./parse-triples";

describe("plain triples", () => {
  it("imports MetaQA's s|r|o knowledge base", () => {
    const graph = parseTriples(readData("metaqa", "kb.txt"), { source: "kb.txt" });
    expect(graph.edges.size).toBe(128185);
    const kismet = graph.outEdges("Kismet").map((e) => graph.toTriple(e));
    expect(kismet).toContainEqual({
      subject: "Kismet",
      relation: "directed_by",
      object: "William Dieterle",
      subject_id: "Kismet",
      object_id: "William Dieterle",
    });
  });

  it("imports Countries' tab-separated file", () => {
    const graph = parseTriples(readData("countries_S1", "graph.txt"));
    expect(graph.outEdges("palau").map((e) => e.relation)).toContain("locatedIn");
  });

  it("tolerates CRLF, a BOM, blank lines and comments, keeps parallel edges", () => {
    const graph = parseTriples("\uFEFF# comment\r\na\tr\tb\r\n\r\na\tr\tb\r\n");
    expect(graph.nodes.size).toBe(2);
    expect(graph.edges.size).toBe(2);
    expect(graph.getNode("a")?.label).toBe("a");
  });

  it("reads fields and line numbers as a split of each line would", () => {
    const text = "  \t \n a \t r1\t b \r\n#x\ty\tz\n\t\t\nc\tr2\td\n   \n";
    expect(parseTripleLines(text)).toEqual([
      { subject: "a", relation: "r1", object: "b", line: 2 },
      { subject: "c", relation: "r2", object: "d", line: 5 },
    ]);
    expect(parseTripleLines("x|y|z")).toEqual([{ subject: "x", relation: "y", object: "z", line: 1 }]);
    expect(() => parseTripleLines("a\tb\tc\td\n")).toThrow("line 1: expected 3 tab-separated fields (subject, relation, object), found 4");
  });

  it("uses a label map (FB15k-237 entity2text)", () => {
    const labels = parseLabelFile("/m/1\tJeremy Irons\r\n/m/2\tLondon\r\n");
    const graph = parseTriples("/m/1\t/people/person/place_of_birth\t/m/2\r\n", { labels });
    expect(graph.toTriple([...graph.edges.values()][0]!)).toMatchObject({ subject: "Jeremy Irons", object: "London", subject_id: "/m/1" });
  });

  it.each([
    ["", "no triples found"],
    ["a|b\n", "line 1: expected 3 '|'-separated fields"],
    ["a\tb\tc\nd\te\n", "line 2: expected 3 tab-separated fields"],
    ["a| |c\n", "line 1: empty subject, relation or object"],
  ])("rejects %j", (text, message) => {
    try {
      parseTriples(text, { source: "t.txt" });
      expect.unreachable();
    } catch (e) {
      expect((e as AppError).code).toBe("PARSE_ERROR");
      expect((e as AppError).message).toContain(`t.txt: ${message}`);
    }
  });
});

describe("the incremental line reader (a streamed import)", () => {
  const read = (pieces: string[], source = "t.txt") => {
    const rows: RawTriple[] = [];
    const reader = createTripleLineReader(source, (subject, relation, object, line) => rows.push({ subject, relation, object, line }));
    for (const p of pieces) reader.push(p);
    reader.end();
    return rows;
  };

  it("gives the whole-text rows whatever the chunks (split anywhere, even inside a CRLF or the BOM's line)", () => {
    const text = "\uFEFF# c\r\n a \t r1\t b \r\n\r\n#x\ty\tz\n\t\t\nc\tr2\td\n   \ne\tr3\tf";
    const whole = parseTripleLines(text);
    expect(whole).toHaveLength(3);
    for (let i = 0; i <= text.length; i++) expect(read([text.slice(0, i), text.slice(i)])).toEqual(whole);
    expect(read([...text])).toEqual(whole);
  });

  it("gives the whole-text rows of a real file read in 64 KiB pieces", () => {
    const text = readData("metaqa", "kb.txt");
    const pieces: string[] = [];
    for (let i = 0; i < text.length; i += 65_536) pieces.push(text.slice(i, i + 65_536));
    expect(pieces.length).toBeGreaterThan(10);
    expect(read(pieces, "kb.txt")).toEqual(parseTripleLines(text, "kb.txt"));
  });

  it("names the same line as the whole-text parser when a bad line comes late", () => {
    const good = Array.from({ length: 5000 }, (_, i) => `s${i}|r|o${i}\n`).join("");
    const text = `${good}a|b\n`;
    expect(() => parseTripleLines(text, "t.txt")).toThrow("t.txt: line 5001: expected 3 '|'-separated fields (subject, relation, object), found 2");
    expect(() => read([text.slice(0, 30_001), text.slice(30_001)])).toThrow("t.txt: line 5001: expected 3 '|'-separated fields (subject, relation, object), found 2");
    expect(() => read(["", "\n", "  \n"])).toThrow("t.txt: no triples found (the file is empty)");
  });
});
