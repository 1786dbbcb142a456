import { describe, expect, it } from "vitest";
import type { AppError } from "../errors";
import { readData } from "../test/data";
import { parseBundle } from "./parse-bundle";

describe("JSONL bundle", () => {
  it("imports the MuSiQue bundle with its corpus and questions", () => {
    const bundle = parseBundle({
      corpus: { name: "corpus.jsonl", text: readData("musique", "corpus.jsonl") },
      triples: { name: "triples.jsonl", text: readData("musique", "triples.jsonl") },
      questions: { name: "questions.jsonl", text: readData("musique", "questions.jsonl") },
    });
    expect(bundle.documents.length).toBe(1890);
    expect(bundle.graph.edges.size).toBe(17234);
    expect(bundle.questions.length).toBe(50);
    const edge = bundle.graph.outEdges("Journal of Mathematical Physics").find((e) => e.relation === "published by");
    expect(edge?.attrs.source_passage).toBe("musique-p0000");
    expect(bundle.documents[0]).toMatchObject({ docId: "musique-p0000", kind: "passage", title: "Journal of Mathematical Physics" });
  });

  it.each([
    [{ triples: { name: "t.jsonl", text: '{"subject": "a"}\n' } }, "INVALID_INPUT", 't.jsonl: line 1: field "relation"'],
    [{ triples: { name: "t.jsonl", text: '{"subject": "a", \n' } }, "PARSE_ERROR", "t.jsonl: line 1: invalid JSON"],
    [{ triples: { name: "t.jsonl", text: "\n\n" } }, "PARSE_ERROR", "no triples found"],
    [
      {
        corpus: { name: "c.jsonl", text: '{"id": "p1", "text": "x"}\n' },
        triples: { name: "t.jsonl", text: '{"subject": "a", "relation": "r", "object": "b", "source": "p9"}\n' },
      },
      "INVALID_INPUT",
      'cites passage "p9", which is not in c.jsonl',
    ],
  ])("rejects bad bundles (%#)", (files, code, message) => {
    try {
      parseBundle(files);
      expect.unreachable();
    } catch (e) {
      expect((e as AppError).code).toBe(code);
      expect((e as AppError).message).toContain(message);
    }
  });
});
