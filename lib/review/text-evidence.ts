/**
 * Text evidence: the sentences (passages) or lines (files) of the documents behind an action's
 * endpoints that mention both names. Splits are cached per document object, so reviewing many
 * actions over the same passages splits each passage once.
 */
import type { GraphNode } from "../graph/model";
import { normalizeLabel, stripCallSuffix, tokenize } from "../graph/normalize";
import type { CorpusDocument } from "../import/corpus";

/** A sentence of a passage or a line of a file. */
export interface TextUnit {
  text: string;
  /** proseKey(text): what names are matched against in prose. */
  norm: string;
  /** 1-based line for files; null for passage sentences. */
  line: number | null;
}

interface DocumentIndex {
  units: TextUnit[];
  /** Whole-document forms for a cheap "could any unit match?" test before scanning units. */
  norm: string;
  raw: string;
  code: boolean;
}

const CODE_EXTENSIONS = /\.(py|pyi|ts|tsx|mts|cts|js|jsx|mjs|cjs)$/i;

/** Whether a document is source code (matched as case-sensitive identifiers), by its extension. */
export function isCodeDocument(doc: CorpusDocument): boolean {
  return doc.kind === "file" && CODE_EXTENSIONS.test(doc.path ?? doc.docId);
}

const indexCache = new WeakMap<CorpusDocument, DocumentIndex>();

/**
 * The form prose is matched in: normalizeLabel plus dashes without surrounding spaces, because
 * MuSiQue's passages are tokenised ("Person - centered therapy") while its triples are not
 * ("Person-centered therapy").
 */
export function proseKey(text: string): string {
  return normalizeLabel(text).replace(/\s*[-\u2010-\u2014]\s*/g, "-");
}

export function documentIndex(doc: CorpusDocument): DocumentIndex {
  let index = indexCache.get(doc);
  if (index) return index;
  const code = isCodeDocument(doc);
  const units: TextUnit[] =
    doc.kind === "file"
      ? doc.text.split(/\r?\n/).map((text, i) => ({ text, norm: code ? "" : proseKey(text), line: i + 1 }))
      : splitSentences(doc.text).map((text) => ({ text, norm: proseKey(text), line: null }));
  index = { units, norm: code ? "" : proseKey(doc.text), raw: doc.text, code };
  indexCache.set(doc, index);
  return index;
}

/** Lines of a file document (cached with its index). */
export function documentLines(doc: CorpusDocument): string[] {
  return documentIndex(doc).units.map((u) => u.text);
}

// ---------------------------------------------------------------------------------------------
// Sentences

/**
 * Words after which a period does not end a sentence. Initials ("G. Stanley Hall") are handled
 * separately; MuSiQue's Wikipedia passages are full of both, and a split inside a name would
 * hide exactly the sentences that mention it.
 */
const ABBREVIATIONS = new Set(
  (
    "mr mrs ms dr prof st jr sr vs etc inc ltd co corp no nos mt ft gen col lt sgt capt cmdr adm gov sen rep rev hon " +
    "jan feb mar apr jun jul aug sep sept oct nov dec approx est fig al e.g i.e cf ca op vol pp ed eds dept univ"
  ).split(" "),
);

/**
 * Sentences of a passage: split after `.`, `!`, `?` (and closing quotes/brackets) followed by
 * whitespace and an upper-case letter, digit or opening quote, except after initials and
 * common abbreviations; line breaks always split.
 */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const para of text.split(/\n+/)) {
    let start = 0;
    const re = /[.!?…]+["'”’)\]]*(?=\s+["'“‘([]?[\p{Lu}\p{N}])/gu;
    for (const m of para.matchAll(re)) {
      const end = m.index + m[0].length;
      if (m[0].startsWith(".") && !endsSentence(para.slice(start, m.index))) continue;
      const sentence = para.slice(start, end).trim();
      if (sentence) out.push(sentence);
      start = end;
    }
    const rest = para.slice(start).trim();
    if (rest) out.push(rest);
  }
  return out;
}

function endsSentence(before: string): boolean {
  const word = /([\p{L}.]+)$/u.exec(before)?.[1] ?? "";
  if (/^\p{Lu}$/u.test(word)) return false; // an initial: "G."
  if (/^(\p{L}\.)+\p{L}$/u.test(word)) return false; // "U.S", "e.g"
  return !ABBREVIATIONS.has(word.toLowerCase());
}

// ---------------------------------------------------------------------------------------------
// Names

/** How one endpoint is looked for: normalised phrases in prose, bare identifiers in code. */
export interface MatchTerms {
  /** Shown in summaries. */
  display: string;
  prose: string[];
  code: string[];
}

const FILE_NAME = /^[\w.-]+\.(py|pyi|ts|tsx|mts|cts|js|jsx|mjs|cjs|md|txt|json|ya?ml)$/i;

/** The bare identifier of a graphify label: no `()`, no leading `.`, a file's stem. */
export function bareIdentifier(label: string): string {
  const bare = stripCallSuffix(label.trim());
  return FILE_NAME.test(bare) ? bare.replace(/\.[^.]+$/, "") : bare;
}

/** The part after the last `::` of a qualified name (`client.py::Client` → `Client`). */
export function unqualified(name: string): string {
  const i = name.lastIndexOf("::");
  return i === -1 ? name.trim() : name.slice(i + 2).trim();
}

/** Terms for an endpoint: its node's label and aliases when resolved, else the name as written. */
export function matchTerms({ name, node }: { name: string; node?: GraphNode | null }): MatchTerms {
  const labels = node ? [node.label, ...node.aliases] : [unqualified(name)];
  const prose = new Set<string>();
  const code = new Set<string>();
  for (const label of labels) {
    const norm = proseKey(label);
    if (norm.length >= 2) prose.add(norm);
    const bareNorm = proseKey(bareIdentifier(label));
    if (bareNorm.length >= 2) prose.add(bareNorm);
    const ident = bareIdentifier(label);
    if (/^[A-Za-z_$][\w$]*$/.test(ident)) code.add(ident);
  }
  return { display: node?.label ?? unqualified(name), prose: [...prose], code: [...code] };
}

function isWordChar(c: string | undefined): boolean {
  return c !== undefined && /[\p{L}\p{N}]/u.test(c);
}

function isIdentChar(c: string | undefined): boolean {
  return c !== undefined && /[\w$]/.test(c);
}

/** Start offsets of `term` in `text` at word (prose) or identifier (code) boundaries. */
export function findTerm(text: string, term: string, code: boolean): number[] {
  const out: number[] = [];
  if (!term) return out;
  const boundary = code ? isIdentChar : isWordChar;
  for (let i = text.indexOf(term); i !== -1; i = text.indexOf(term, i + 1)) {
    if (boundary(term[0]) && boundary(text[i - 1])) continue;
    if (boundary(term[term.length - 1]) && boundary(text[i + term.length])) continue;
    out.push(i);
  }
  return out;
}

export interface TermHit {
  term: string;
  start: number;
  end: number;
}

/** The first occurrence of any of the terms (longest term first, so "G. Stanley Hall" beats "Hall"). */
function firstHit(text: string, terms: readonly string[], code: boolean): TermHit | null {
  for (const term of [...terms].sort((a, b) => b.length - a.length)) {
    const at = findTerm(text, term, code)[0];
    if (at !== undefined) return { term, start: at, end: at + term.length };
  }
  return null;
}

/** The name as it is written inside the quote (case kept), for highlighting; falls back to the term. */
function highlightIn(quote: string, term: string, code: boolean): string {
  if (code) return term;
  const escaped = term
    .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    .replace(/\s+/g, "\\s+")
    .replace(/-/g, "\\s*[-\\u2010-\\u2014]\\s*");
  return new RegExp(escaped, "iu").exec(quote)?.[0] ?? term;
}

export interface CoMention {
  doc: CorpusDocument;
  unit: TextUnit;
  code: boolean;
  a: TermHit;
  b: TermHit;
  highlights: string[];
  /** Words of the relation (content words) that the unit also contains. */
  relationWords: string[];
}

const STOP = new Set(
  "a an the of in on at by to for from with as is are was were be been has have had its it this that and or not into onto"
    .split(" "),
);

/** Content words of a relation phrase, for "does the sentence also say the relation?". */
export function relationWordsOf(relation: string): string[] {
  return [...new Set(tokenize(relation.replace(/_/g, " ")).filter((w) => w.length > 2 && !STOP.has(w)))];
}

const SUFFIXES = ["ations", "ation", "ings", "ing", "ied", "ies", "ers", "er", "ed", "es", "s", "y", "e"];

/**
 * A light suffix stripper so "studied" meets "study", "founded" "founder", "borders"
 * "bordering"; it keeps four letters at least, so "contested" never meets "contemporary".
 */
export function stem(word: string): string {
  let w = word;
  for (let changed = true; changed; ) {
    changed = false;
    for (const suffix of SUFFIXES) {
      if (w.length - suffix.length >= 4 && w.endsWith(suffix)) {
        w = w.slice(0, -suffix.length);
        changed = true;
        break;
      }
    }
  }
  return w;
}

function relationWordsIn(norm: string, words: readonly string[]): string[] {
  if (words.length === 0) return [];
  const tokens = new Set((norm.match(/[\p{L}\p{N}_]+/gu) ?? []).map(stem));
  return words.filter((w) => tokens.has(stem(w)));
}

/**
 * Units of the documents that mention both endpoints, best first: units that also carry the
 * relation's words, then units where the names stand closer, then document order.
 */
export function findCoMentions({
  documents,
  a,
  b,
  relation = "",
  limit = 3,
}: {
  documents: readonly CorpusDocument[];
  a: MatchTerms;
  b: MatchTerms;
  relation?: string;
  limit?: number;
}): CoMention[] {
  const words = relationWordsOf(relation);
  const found: Array<CoMention & { order: number }> = [];
  let order = 0;
  for (const doc of documents) {
    const index = documentIndex(doc);
    const code = index.code;
    const termsA = code ? a.code : a.prose;
    const termsB = code ? b.code : b.prose;
    if (termsA.length === 0 || termsB.length === 0) continue;
    const whole = code ? index.raw : index.norm;
    if (!termsA.some((t) => whole.includes(t)) || !termsB.some((t) => whole.includes(t))) continue;
    for (const unit of index.units) {
      const text = code ? unit.text : unit.norm;
      const hitA = firstHit(text, termsA, code);
      if (!hitA) continue;
      const hitB = firstHit(text, termsB, code);
      if (!hitB) continue;
      // One name inside the other ("Client" within "BaseClient" is excluded by boundaries; a
      // prose name inside a longer one, "Hall" in "G. Stanley Hall", is not a second mention).
      if (hitA.start < hitB.end && hitB.start < hitA.end) continue;
      found.push({
        doc,
        unit,
        code,
        a: hitA,
        b: hitB,
        highlights: [highlightIn(unit.text, hitA.term, code), highlightIn(unit.text, hitB.term, code)],
        relationWords: code ? [] : relationWordsIn(unit.norm, words),
        order: order++,
      });
    }
  }
  found.sort(
    (x, y) =>
      y.relationWords.length - x.relationWords.length ||
      distance(x) - distance(y) ||
      x.order - y.order,
  );
  return found.slice(0, limit).map(({ order: _order, ...rest }) => rest);
}

function distance(m: CoMention): number {
  return Math.abs(m.a.start - m.b.start);
}

/**
 * Whether a document mentions a name anywhere (used to test an edge's own cited source); null
 * when the name has no form to look for in this kind of document (a graphify rationale label is
 * no identifier), which must not count as "never mentioned".
 */
export function documentMentions(doc: CorpusDocument, terms: MatchTerms): boolean | null {
  const index = documentIndex(doc);
  const list = index.code ? terms.code : terms.prose;
  if (list.length === 0) return null;
  const whole = index.code ? index.raw : index.norm;
  return list.some((t) => findTerm(whole, t, index.code).length > 0);
}

// ---------------------------------------------------------------------------------------------
// Alias patterns (replace_node)

const ALIAS_KEYWORDS =
  "also known as|better known as|formerly known as|known as|also called|commonly called|called|a\\.?k\\.?a\\.?|aka|formerly|" +
  "born|nee|née|short for|abbreviated as|abbreviated|officially|renamed|later renamed|now|i\\.e\\.?|or";
const PROSE_ALIAS_GAP = new RegExp(`^\\s*[,(;:]?\\s*(?:${ALIAS_KEYWORDS})\\b`, "u");
const BRACKET_GAP = /^\s*\(\s*["'“‘]?\s*$/u;

/**
 * Whether a co-mention states that the two names are one thing: "A, also known as B",
 * "A (B)", "A, formerly B", "B, or A" (either order); in code `A = B`, `import B as A`,
 * `{ B as A }`.
 */
export function isAliasStatement(m: CoMention): boolean {
  const [first, second] = m.a.start <= m.b.start ? [m.a, m.b] : [m.b, m.a];
  const text = m.code ? m.unit.text : m.unit.norm;
  const gap = text.slice(first.end, second.start);
  if (m.code) {
    // `A = B` must end there or close a list (`A = B(...)` is an instance, `A = B.x` a member).
    const rest = m.unit.text.slice(second.end);
    return /^\s*(=|as)\s*$/.test(gap) && /^\s*(?:[;,)}\]].*|#.*|\/\/.*)?$/.test(rest);
  }
  if (gap.length > 120) return false;
  return PROSE_ALIAS_GAP.test(gap) || BRACKET_GAP.test(gap);
}
