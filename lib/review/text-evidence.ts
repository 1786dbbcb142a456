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

/** The first occurrence of any of the terms that does not overlap `span` (longest term first). */
function firstHitOutside(text: string, terms: readonly string[], span: TermHit, code: boolean): TermHit | null {
  for (const term of [...terms].sort((a, b) => b.length - a.length)) {
    const at = findTerm(text, term, code).find((i) => i >= span.end || i + term.length <= span.start);
    if (at !== undefined) return { term, start: at, end: at + term.length };
  }
  return null;
}

/**
 * One mention of each name that do not overlap. When the first mention of the shorter name is
 * inside the longer one ("Missouri" in "Missouri's 8th Congressional District"), a later mention
 * of its own counts ("… one of eight congressional districts in the state of Missouri").
 */
function separateHits(text: string, termsA: readonly string[], termsB: readonly string[], code: boolean): { a: TermHit | null; b: TermHit | null } {
  const a = firstHit(text, termsA, code);
  const b = firstHit(text, termsB, code);
  if (!a || !b || !(a.start < b.end && b.start < a.end)) return { a, b };
  const otherB = firstHitOutside(text, termsB, a, code);
  if (otherB) return { a, b: otherB };
  const otherA = firstHitOutside(text, termsA, b, code);
  return otherA ? { a: otherA, b } : { a, b };
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

// ---------------------------------------------------------------------------------------------
// Statements (issue #10): does a text state the relation, or only name both ends?

/**
 * How a text bears on a relation between two names, strongest first:
 * - `stated`: one sentence (or line of prose) names both and carries the relation's words (or a
 *   lexical variant) between them, and is not a list or metadata line;
 * - `clause`: the two names stand close with the relation's words just around them, or, for a
 *   relation with no content words to look for ("is", "has", "in"), in one clause;
 * - `across`: the names are in adjacent sentences, the second refers back (a pronoun or "the"
 *   phrase) and carries the relation's words; or the passage's title is one name and a sentence
 *   names the other with the relation's words;
 * - `co_mention`: one sentence names both, without the relation's words;
 * - `list` / `metadata`: both are items of one enumeration ("an investor in: Graphite, OpenAI,
 *   Anthropic"), a `key: value` header ("**Scoring reason:** …") or a table row: not statements.
 */
export type StatementKind = "stated" | "clause" | "across" | "co_mention" | "list" | "metadata";

export interface TextStatement {
  kind: StatementKind;
  doc: CorpusDocument;
  /** The sentence / line quoted (for `across`, the two sentences joined; for a title, the sentence). */
  quote: string;
  line: number | null;
  highlights: string[];
  /** Relation words (or variants) the quote carries. */
  relationWords: string[];
  /** Where the other name came from when it is not in the quote: "title" or "previous sentence". */
  via?: "title" | "previous sentence";
  /** Words between the two names when one unit names both (null otherwise). */
  gapWords: number | null;
  /**
   * Why a sentence with the relation's words between the names is not `stated` (the words attach
   * to another pair, another preposition, two clauses): shown in the reason.
   */
  note?: string;
}

/** Derivational kin that a suffix stripper cannot join (general English, no data set's names). */
const VARIANTS: ReadonlyArray<readonly string[]> = [
  ["born", "birth", "native", "birthplace"],
  ["die", "died", "death", "dead"],
  ["marri", "married", "marry", "wife", "husband", "spouse", "wed", "wedding"],
  ["locat", "located", "location", "situated", "lies", "based", "seat", "headquarter", "headquartered"],
  ["found", "founder", "founded", "established", "establish", "created", "started"],
  ["child", "children", "son", "daughter", "father", "mother", "parent"],
  ["direct", "director", "directed"],
  ["write", "writer", "written", "wrote", "author", "authored"],
  ["compose", "composer", "composed"],
  ["produc", "producer", "produced"],
  ["play", "played", "player", "plays", "starred", "star", "actor", "actress"],
  ["member", "membership", "joined", "belongs"],
  ["own", "owner", "owned", "owns"],
  ["lead", "leader", "led", "head", "headed"],
  ["win", "won", "winner", "awarded"],
  ["capital", "capitol"],
  ["part", "within", "component"],
  ["border", "bordering", "neighbor", "neighbour", "adjacent"],
  ["citizen", "nationality", "national"],
  ["study", "studied", "student", "educated", "graduated", "alumnus", "attended"],
  ["work", "worked", "employed", "employee", "employer"],
  ["release", "released", "publish", "published", "publisher"],
  ["invest", "investor", "investment", "invested"],
  ["overtake", "overtaking", "overtook", "surpass", "surpassed", "outpace"],
];

const VARIANT_OF = new Map<string, number>();
VARIANTS.forEach((group, i) => {
  for (const w of group) VARIANT_OF.set(stem(w), i);
});

/** Whether two words meet: same stem, one stem (≥ 5 letters) a prefix of the other word, or lexical kin. */
export function wordsMeet(a: string, b: string): boolean {
  const sa = stem(a);
  const sb = stem(b);
  if (sa === sb) return true;
  if ((sa.length >= 5 && b.startsWith(sa)) || (sb.length >= 5 && a.startsWith(sb))) return true;
  const ga = VARIANT_OF.get(sa);
  return ga !== undefined && ga === VARIANT_OF.get(sb);
}

function tokensOf(norm: string): string[] {
  return norm.match(/[\p{L}\p{N}_]+/gu) ?? [];
}

/** The relation's words (or variants) found among a text's tokens. */
export function relationWordsFound(norm: string, words: readonly string[]): string[] {
  if (words.length === 0) return [];
  const tokens = tokensOf(norm);
  return words.filter((w) => tokens.some((t) => wordsMeet(w, t)));
}

/** `key: value` headers (markdown bold or not), table rows, bullet items that start with a label. */
export function isMetadataLine(text: string): boolean {
  const t = text.trim();
  if (/^\|.*\|/.test(t) || (t.match(/\|/g)?.length ?? 0) >= 2 || t.includes("\t")) return true;
  // A short label before the first colon ("**Scoring reason:** …", "Investors: …"), not a
  // colon inside brackets ("The Renaissance (UK: /…/) is a period …").
  return /^(?:[-*+•]\s+|#+\s+)?(?:\*\*|__)?[\p{L}\p{N}][\p{L}\p{N} /_'-]{0,40}(?:\*\*|__)?\s*:(?:\*\*|__)?(?:\s|$)/u.test(t) && (t.split(":")[0] ?? "").split(/\s+/).length <= 5;
}

/** Words a long unit needs before it reads as a table run together rather than a sentence. */
const TABLE_MIN_WORDS = 20;
/** Share of capitalised or numeric words above which a verb-less unit is a table. */
const TABLE_CAPITAL_SHARE = 0.55;
/** Share of function words below which it is no sentence (prose runs at 20–40%). */
const TABLE_FUNCTION_SHARE = 0.08;
const FUNCTION_WORDS = new Set("the a an of in on at to by for from with and or into that when then".split(" "));

/**
 * An infobox or table flattened into one line ("… Host country Australia City Gold Coast Dates 5
 * -- 14 April 2018 Teams 10 Venue (s) Gold Coast Hockey Centre Top three teams …"): long, most
 * words capitalised or numbers, hardly any function words, and no form of "be" or "have" to make
 * it a sentence. It may name a fact (a "Host country" cell) but states none in words, so at most a
 * co-mention (never HIGH).
 */
export function isFlattenedTable(text: string): boolean {
  const words = text.match(/[\p{L}\p{N}]+/gu) ?? [];
  if (words.length < TABLE_MIN_WORDS) return false;
  if (words.some((w) => /^(?:is|was|are|were|has|had|have|be|been)$/.test(w))) return false;
  const capital = words.filter((w) => /^[\p{Lu}\p{N}]/u.test(w)).length;
  const functional = words.filter((w) => FUNCTION_WORDS.has(w.toLowerCase())).length;
  return capital / words.length >= TABLE_CAPITAL_SHARE && functional / words.length < TABLE_FUNCTION_SHARE;
}

/**
 * Whether the two hits are items of one enumeration: what stands between them is only
 * separators and other short items, with no relation word, and the run is a list — it follows a
 * colon ("an investor in: Graphite, OpenAI, Anthropic") or is closed by "and" / "or" ("A, B and
 * C", "A, X, and B"). Comma chains without a conjunction are appositions or addresses ("Crane
 * Township, Wyandot County, Ohio"), and "A and B" alone is a pair: neither is a list.
 */
export function isEnumeration(norm: string, a: TermHit, b: TermHit, words: readonly string[]): boolean {
  const [first, second] = a.start <= b.start ? [a, b] : [b, a];
  const gap = norm.slice(first.end, second.start);
  if (relationWordsFound(gap, words).length > 0) return false;
  const items = gap.split(/\s*(?:,|;|\/|&|\band\b|\bor\b)\s*/u).filter((x) => x.trim() !== "");
  const onlySeparators = /^[\s,;/&]*(?:\b(?:and|or)\b)?[\s,;/&]*$/u.test(gap);
  const shortItems = /[,;]/.test(gap) && items.every((x) => tokensOf(x).length <= 4) && !/\b(?:is|was|are|were|has|had|by|of|in|to|from|as)\b/u.test(gap);
  if (!onlySeparators && !shortItems) return false;
  const before = norm.slice(0, first.start);
  const after = norm.slice(second.end);
  const colonList = /:\s*(?:[^:.()]{0,80}[,;]\s*)?$/u.test(before) && /[,;]/.test(gap + after.slice(0, 2) + before.slice(-2));
  const commaRun = /[,;]/.test(gap);
  const coordinated = /(?:^|[,;\s])(?:and|or)\s*$/u.test(gap.trimEnd() + " ") && /[,;]/.test(gap + before.slice(-2));
  const closedAfter = commaRun && /^\s*,?\s*(?:and|or)\s+[^,.;]{1,40}/u.test(after);
  return colonList || (commaRun && coordinated) || closedAfter || (/[,;]\s*$/.test(before) && /\b(?:and|or)\s*$/u.test(gap));
}

/**
 * "A and B", "A or B", "A/B": two names coordinated with nothing else between them. Says they
 * go together, not how: a statement only when the sentence also carries the relation's words
 * ("Rafael Núñez and Soledad Román married in 1877").
 */
export function isCoordinatedPair(norm: string, a: TermHit, b: TermHit): boolean {
  const [first, second] = a.start <= b.start ? [a, b] : [b, a];
  return /^\s*(?:,\s*)?(?:and|or|&|\/|nor)\s*$/u.test(norm.slice(first.end, second.start));
}

const PRONOUN_START = /^(?:he|she|it|they|his|her|its|their|this|these|that|the\s+\p{L}+|there)\b/u;

/**
 * Every statement-like text in the documents for two names, best first (kind, then relation
 * words, then nearness). Every unit of every document is read, and each document's title.
 */
export function findStatements({
  documents,
  a,
  b,
  relation,
  relationScore,
  limit = 5,
}: {
  documents: readonly CorpusDocument[];
  a: MatchTerms;
  b: MatchTerms;
  relation: string;
  /** A paraphrase test beyond lexical variants (the relation ranker), > 0 when the text speaks of it. */
  relationScore?: (text: string) => number;
  limit?: number;
}): TextStatement[] {
  const words = relationWordsOf(relation);
  const found: Array<TextStatement & { order: number; distance: number }> = [];
  let order = 0;
  const relWords = (norm: string): string[] => {
    const lexical = relationWordsFound(norm, words);
    if (lexical.length || !relationScore || words.length === 0) return lexical;
    return relationScore(norm) > 0 ? ["(paraphrase)"] : [];
  };
  for (const doc of documents) {
    const index = documentIndex(doc);
    if (index.code) continue;
    const termsA = a.prose;
    const termsB = b.prose;
    if (termsA.length === 0 || termsB.length === 0) continue;
    const hasA = termsA.some((t) => index.norm.includes(t));
    const hasB = termsB.some((t) => index.norm.includes(t));
    const title = doc.title ? proseKey(doc.title) : "";
    const titleA = title !== "" && termsA.includes(title);
    const titleB = title !== "" && termsB.includes(title);
    if (!((hasA && hasB) || (titleA && hasB) || (titleB && hasA))) continue;
    const units = index.units;
    for (let i = 0; i < units.length; i++) {
      const unit = units[i] as TextUnit;
      const { a: hitA, b: hitB } = separateHits(unit.norm, termsA, termsB, false);
      const gapWords = hitA && hitB ? tokensOf(unit.norm.slice(Math.min(hitA.end, hitB.end), Math.max(hitA.start, hitB.start))).length : null;
      const push = (kind: StatementKind, quote: string, hl: string[], rw: string[], distance: number, via?: TextStatement["via"], note?: string) =>
        found.push({ kind, doc, quote: quote.trim(), line: unit.line, highlights: hl, relationWords: rw, order: order++, distance, gapWords: via ? null : gapWords, ...(via ? { via } : {}), ...(note ? { note } : {}) });
      if (hitA && hitB && !(hitA.start < hitB.end && hitB.start < hitA.end)) {
        const hl = [highlightIn(unit.text, hitA.term, false), highlightIn(unit.text, hitB.term, false)];
        const distance = Math.abs(hitA.start - hitB.start);
        if (isMetadataLine(unit.text)) {
          push("metadata", unit.text, hl, [], distance);
          continue;
        }
        if (isFlattenedTable(unit.text)) {
          push("co_mention", unit.text, hl, [], distance, undefined, "a table run together into one line: it names both, no sentence states it");
          continue;
        }
        // A semicolon or a spaced dash between the names starts another statement ("Olga
        // Havlová, born Šplíchalová (11 July 1933 in Prague – 27 January 1996 in Prague)" does not
        // say she was born on the later date). Read in the raw text: proseKey tightens dashes.
        const span = clauseBreakBetween(unit.text, hitA, hitB) ? { text: null, gap: null } : statementSpan(unit.norm, hitA, hitB);
        const rw = span.text === null ? [] : relWords(span.text);
        // Only words between the names state it outright; words just around two close names
        // ("… founded in 1901, the Presbyterian Church of Australia …") are one clause at most:
        // measured on musique-hard, they are right about one time in three.
        const between = span.gap === null || rw.length === 0 ? [] : relWords(span.gap);
        if (isEnumeration(unit.norm, hitA, hitB, words) || (isCoordinatedPair(unit.norm, hitA, hitB) && rw.length === 0)) {
          push("list", unit.text, hl, [], distance);
          continue;
        }
        const fault = between.length ? attachmentFault(unit.norm, hitA, hitB, words, relation, unit.text) : null;
        if (fault) push(fault.kind, unit.text, hl, rw, distance, undefined, fault.note);
        else if (between.length) push("stated", unit.text, hl, rw, distance);
        else if (rw.length) push("clause", unit.text, hl, rw, distance);
        else if (words.length === 0 && inOneClause(unit.norm, hitA, hitB)) push("clause", unit.text, hl, [], distance);
        else push("co_mention", unit.text, hl, [], distance);
        continue;
      }
      // One name here, the other in the previous sentence (referred back to) or the title.
      const here = hitA ?? hitB;
      if (!here || isMetadataLine(unit.text)) continue;
      const otherTerms = hitA ? termsB : termsA;
      const otherIsTitle = hitA ? titleB : titleA;
      const rw = relWords(unit.norm);
      if (rw.length === 0 && words.length > 0) continue;
      const prev = i > 0 ? (units[i - 1] as TextUnit) : null;
      const prevHit = prev && unit.line === null ? firstHit(prev.norm, otherTerms, false) : null;
      if (prev && prevHit && PRONOUN_START.test(unit.norm) && !isMetadataLine(prev.text)) {
        push("across", `${prev.text.trim()} ${unit.text.trim()}`, [highlightIn(prev.text, prevHit.term, false), highlightIn(unit.text, here.term, false)], rw, 1000, "previous sentence");
      } else if (otherIsTitle && (rw.length > 0 || PRONOUN_START.test(unit.norm))) {
        push("across", unit.text, [highlightIn(unit.text, here.term, false)], rw, 2000, "title");
      }
    }
  }
  const rank: Record<StatementKind, number> = { stated: 0, clause: 1, across: 2, co_mention: 3, list: 4, metadata: 5 };
  found.sort((x, y) => rank[x.kind] - rank[y.kind] || y.relationWords.length - x.relationWords.length || x.distance - y.distance || x.order - y.order);
  return found.slice(0, limit).map(({ order: _o, distance: _d, ...rest }) => rest);
}

/** Tokens either side of the two names that still belong to "around them". */
const AROUND_TOKENS = 4;
/** More words than this between the names and the words between them are another statement. */
const MAX_STATEMENT_GAP = 25;
/** With the relation's words only around the names, the names must stand this close. */
const MAX_AROUND_GAP = 6;

/**
 * The text where the relation's words must be for one unit to state the relation: between the
 * two names ("… journal published monthly by the American Institute …"), or a few words around
 * them when they stand close ("Carl Rogers' person-centered therapy, developed …"). Relation
 * words elsewhere in a long sentence belong to another clause. null: the names are too far apart.
 */
function statementSpan(norm: string, a: TermHit, b: TermHit): { text: string | null; gap: string | null } {
  const [first, second] = a.start <= b.start ? [a, b] : [b, a];
  const gap = norm.slice(first.end, second.start);
  const gapTokens = tokensOf(gap).length;
  if (gapTokens > MAX_STATEMENT_GAP) return { text: null, gap: null };
  if (gapTokens > MAX_AROUND_GAP) return { text: gap, gap };
  const before = tokensOf(norm.slice(0, first.start)).slice(-AROUND_TOKENS);
  const after = tokensOf(norm.slice(second.end)).slice(0, AROUND_TOKENS);
  return { text: [...before, gap, ...after].join(" "), gap };
}

/**
 * Whether a semicolon or a spaced en / em dash separates every mention of one name from the
 * other. Read on the raw text, since proseKey tightens dashes; MuSiQue spaces its hyphens
 * ("Person - centered"), so a hyphen never breaks a clause.
 */
function clauseBreakBetween(text: string, a: TermHit, b: TermHit): boolean {
  const segments = text.split(/;|\s[\u2013\u2014]\s/u);
  if (segments.length === 1) return false;
  return !segments.some((seg) => {
    const norm = proseKey(seg);
    return findTerm(norm, a.term, false).length > 0 && findTerm(norm, b.term, false).length > 0;
  });
}

/** Both hits in one clause: close, with no clause break (`;`, `:`, a dash, "but", "while", "which") between. */
function inOneClause(norm: string, a: TermHit, b: TermHit): boolean {
  const [first, second] = a.start <= b.start ? [a, b] : [b, a];
  const gap = norm.slice(first.end, second.start);
  if (tokensOf(gap).length > 8) return false;
  return !/[;:()]|\b(?:but|while|whereas|which|who|although)\b/u.test(gap);
}

// ---------------------------------------------------------------------------------------------
// Attachment (issue #10): the relation's words between two names may still belong to another pair

const RELATIVE_PRONOUNS = new Set(["who", "whom", "whose", "which", "where"]);
const PREPOSITIONS = new Set(
  "in on at by of to from with for as into onto over under near about through during within between against after before across along around behind beside beyond upon toward towards via".split(" "),
);
const COPULA = new Set(["is", "was", "are", "were", "be", "been", "being"]);
const DETERMINERS = new Set(["a", "an", "the"]);
const AUXILIARIES = new Set(["has", "have", "had"]);
/** Lowercase words inside a proper name. */
const NAME_CONNECTORS = new Set(["of", "for", "the", "and", "de", "del", "la", "le", "von", "van", "da", "du"]);

interface Token {
  t: string;
  start: number;
  end: number;
}

function tokenSpans(norm: string): Token[] {
  return [...norm.matchAll(/[\p{L}\p{N}_]+|[,()]/gu)].map((m) => ({ t: m[0], start: m.index, end: m.index + m[0].length }));
}

/** Tokens outside brackets ("Kim Young-chul (born June 30, 1976) is a …"), brackets dropped. */
function withoutBrackets(tokens: readonly Token[]): Token[] {
  let depth = 0;
  const out: Token[] = [];
  for (const x of tokens) {
    if (x.t === "(") depth++;
    else if (x.t === ")") depth = Math.max(0, depth - 1);
    else if (depth === 0) out.push(x);
  }
  return out;
}

/**
 * The index of the first `want` bracket in `tokens` not matched by an `other` one, walking from
 * the end (step −1) or the start (step 1); −1 when there is none.
 */
function unmatched(tokens: readonly Token[], want: string, other: string, step: 1 | -1): number {
  let depth = 0;
  for (let k = step === 1 ? 0 : tokens.length - 1; k >= 0 && k < tokens.length; k += step) {
    const t = (tokens[k] as Token).t;
    if (t === other) depth++;
    else if (t === want) {
      if (depth === 0) return k;
      depth--;
    }
  }
  return -1;
}

/**
 * Which word tokens of the normalised sentence are capitalised as written, when the sentence's
 * own words line up with them one to one (null otherwise: no reading of case then).
 */
function capitalised(raw: string, tokens: readonly Token[]): Map<Token, boolean> | null {
  const written = [...raw.matchAll(/[\p{L}\p{N}_]+|[,()]/gu)].map((m) => m[0]);
  const words = written.flatMap((x) => {
    const norm = normalizeLabel(x).match(/[\p{L}\p{N}_]+|[,()]/gu) ?? [];
    return norm.length === 1 ? [{ t: norm[0], upper: /^\p{Lu}/u.test(x) }] : norm.map((t) => ({ t, upper: false }));
  });
  if (words.length !== tokens.length) return null;
  const out = new Map<Token, boolean>();
  for (let i = 0; i < tokens.length; i++) {
    const x = words[i] as { t: string; upper: boolean };
    if (x.t !== (tokens[i] as Token).t) return null;
    out.set(tokens[i] as Token, x.upper);
  }
  return out;
}

/**
 * Why one sentence with the relation's words between the two names still does not state the
 * relation of *these* two, or null when it does. `a` is the subject's hit, `b` the object's.
 * Read on the normalised sentence, with no word lists keyed to any relation: only the relation's
 * own words and its closing preposition, and English function words.
 * - a relative clause: the relation's words belong to another noun's clause ("some earlier Polish
 *   kings had been elected with help from bodies such as that which put Casimir II on the
 *   throne"), or the far name sits in a relative clause of its own ("refers to the body of work by
 *   writers in India who write in the English language");
 * - another preposition: "Glade Farms is located on West Virginia Route 26" does not say
 *   "located in"; "head of the country's parliament, Kim Yong Nam" takes its own object, so it
 *   does not say Kim Yong Nam is head of the event named before it;
 * - another verb's agent: "released to cinemas in Sweden on 31 October 1997, directed by Daniel
 *   Alfredson": the name is the agent of "directed", not of "released".
 * Each is partial evidence at most: `clause` for another preposition (the verb still attaches),
 * `co_mention` when the words belong to another pair. Measured over all 17,234 MuSiQue triples
 * against the same subject and relation with another entity of the same passage, each fires for
 * 0.1–2.5% of true triples whose sentence would otherwise be `stated` and 1–13% of made-up ones.
 * A contrast clause (", while …") was tried and dropped: it fired as often for true triples.
 */
export function attachmentFault(
  norm: string,
  a: TermHit,
  b: TermHit,
  words: readonly string[],
  relation: string,
  raw?: string,
): { kind: "clause" | "co_mention"; note: string } | null {
  const [first, second] = a.start <= b.start ? [a, b] : [b, a];
  const tokens = tokenSpans(norm);
  const capital = raw === undefined ? null : capitalised(raw, tokens);
  const gap = tokens.filter((x) => x.start >= first.end && x.end <= second.start);
  const isRelationWord = (t: string) => words.some((w) => wordsMeet(w, t));
  const ws = gap.filter((x) => isRelationWord(x.t));
  // Only lexical relation words can be placed; a paraphrase (the ranker) is taken as it is.
  if (ws.length === 0) return null;
  const relTokens = tokenize(relation.replace(/_/g, " "));
  const last = relTokens.at(-1) ?? "";
  const closing = relTokens.length > 1 && PREPOSITIONS.has(last) ? last : null;
  // The word the closing preposition belongs to ("expanded" in "mandate extended and expanded in").
  const head = closing ? (relTokens.at(-2) ?? "") : "";
  let fault: { kind: "clause" | "co_mention"; note: string } | null = null;
  // The relation's argument slot is the phrase's, not one word's: "received full independence
  // from France on August 15, 1960" says nothing of August 15 whatever "received" attaches to.
  // Unless the far name is the argument of the relation's own last word or preposition
  // ("… one of the charter members of the National Association in 1871, and of the National League").
  const lead = gap.filter((x) => !DETERMINERS.has(x.t));
  const beforeFar = lead.at(-1);
  const lastRelationWord = relTokens.at(-1) ?? "";
  // The preposition is the relation's when its head comes right before it, or a coordination
  // repeats it ("…, and also to the …"); "during its maiden voyage in 1930" is another noun's.
  const beforePrep = lead.at(-2)?.t ?? "";
  const ownPrep = /^(?:,|and|or|also|but)$/.test(beforePrep) || wordsMeet(head, beforePrep);
  const farIsArgument = second === b && beforeFar !== undefined && ((beforeFar.t === closing && ownPrep) || (!closing && wordsMeet(lastRelationWord, beforeFar.t)));
  // The relation's head and its preposition come only after the far name: "published by
  // Wiley-Blackwell on behalf of the International Council …" does not say published on behalf
  // of Wiley-Blackwell; "located in the South Pacific Ocean, east of the Australian mainland" does
  // not say east of the ocean. "behalf of", "east of" take what follows them.
  if (closing && second === b && !gap.some((x) => wordsMeet(head, x.t))) {
    const after = tokens.filter((x) => x.start >= second.end).slice(0, 4);
    const h = after.findIndex((x) => wordsMeet(head, x.t));
    if (h !== -1 && after[h + 1]?.t === closing) return { kind: "co_mention", note: `"${phrase(after.slice(h, h + 2))}" comes after the other name and takes its own object` };
  }
  for (const w of farIsArgument ? [] : ws) {
    const i = tokens.indexOf(w);
    const next = closing && wordsMeet(head, w.t) ? tokens[i + 1] : undefined;
    const taken = slotTakenByName(w, next, gap.filter((x) => x.start >= w.end));
    if (taken) return taken;
  }
  for (const w of ws) {
    const f = faultAt(w);
    if (!f) return null; // one occurrence that attaches is enough
    // Prefer the weaker reading's reason: co_mention over clause.
    if (!fault || (fault.kind === "clause" && f.kind === "co_mention")) fault = f;
  }
  return fault;

  /** A few words of the sentence for a reason, as they read. */
  function phrase(span: readonly Token[]): string {
    const from = span[0];
    const to = span.at(-1);
    return from && to ? norm.slice(from.start, to.end) : "";
  }

  /**
   * The relation's words take a proper name (or a number, a date) of their own, and the far name
   * comes with another preposition after it: "composed by Arnold Schoenberg in 1909" does not say
   * composed by 1909, "released in 1998 by Nitro Records" does not say released in Nitro Records,
   * "published by Wiley-Blackwell on behalf of the International Council …" does not say
   * published by the Council. A name (capitalised in the sentence as written) is a whole
   * argument; a common noun may still be extended ("graduated from the pharmacy program at the
   * University of Toronto"). The same preposition again ("born in Honolulu in 1961") or "of" may
   * still be the relation's: no fault then.
   */
  function slotTakenByName(w: Token, next: Token | undefined, right: readonly Token[]): { kind: "co_mention"; note: string } | null {
    if (!capital || second !== b) return null;
    const lastWord = relTokens.at(-1) ?? "";
    // Where the relation's argument starts: after its closing preposition, or right after its last word.
    let from: Token | undefined;
    if (closing) from = next && next.t === closing ? next : undefined;
    else from = wordsMeet(lastWord, w.t) ? w : undefined;
    if (!from) return null;
    const slot = right.filter((x) => x.start >= from.end);
    let k = 0;
    while (k < slot.length && DETERMINERS.has((slot[k] as Token).t)) k++;
    const cap = (x: Token | undefined) => x !== undefined && capital.get(x) === true;
    const num = (x: Token | undefined) => x !== undefined && /^\p{N}/u.test(x.t);
    // A number or a date is as whole an argument as a name: "Nasser's government of Egypt that
    // had taken power in 1952, and … that Sudan would be granted …" says nothing of Sudan.
    const arg = (x: Token | undefined) => cap(x) || num(x);
    if (!arg(slot[k])) return null;
    // After a number, the relation's own preposition again may still be the relation's
    // ("released in 1993 on Permanent Records in the UK and by Matador Records in the US").
    if (num(slot[k]) && beforeFar?.t === closing) return null;
    // A series of numbers goes on with the relation's argument ("has reached 27.6 % in
    // Azerbaijan, 25.7 % in Tadzhikistan"): the far number after a comma or "and" is the next item.
    if (num(slot[k]) && num(tokens.find((x) => x.start >= b.start)) && /^(?:,|and|or)$/.test(beforeFar?.t ?? "")) return null;
    let j = k;
    // A name may hold lowercase connectors ("Forum for Democratic Change", "Church of Scotland"),
    // a date a comma ("August 15, 1960").
    while (j < slot.length && (arg(slot[j]) || (NAME_CONNECTORS.has((slot[j] as Token).t) && cap(slot[j + 1])) || ((slot[j] as Token).t === "," && num(slot[j + 1]) && arg(slot[j - 1])))) j++;
    if (j === k) return null;
    // After the name, directly or after a comma: another preposition, a relative pronoun or
    // (after a comma) a new predicate introduces the far name elsewhere. A name or a number goes
    // on with a list; "and" with a lowercase word is a coordinated noun ("by Kellee Riley and
    // illustrator Glen Hanson").
    let q = j;
    const comma = slot[q]?.t === ",";
    if (comma) q++;
    while (comma && q < slot.length && /^(?:and|or)$/.test((slot[q] as Token).t)) q++;
    while (q < slot.length && DETERMINERS.has((slot[q] as Token).t)) q++;
    const after = slot[q];
    if (!after || cap(after) || /^\p{N}/u.test(after.t)) return null;
    const prep = PREPOSITIONS.has(after.t) && after.t !== "of" && after.t !== closing;
    // A participle right after the name starts a clause of its own ("JDS Architects based in …").
    const participle = q === j && after.t.length > 4 && /(?:ed|ing)$/.test(after.t) && norm[after.start - 1] !== "-";
    const predicate = !PREPOSITIONS.has(after.t) && (RELATIVE_PRONOUNS.has(after.t) || after.t === "that" || comma || participle);
    if (!prep && !predicate) return null;
    // Named by its own preposition where it has one ("fought on 6 June 1813 during the War of 1812
    // near present-day Stoney Creek": "near", not "during").
    const own = (prep && slot.slice(q).findLast((x) => PREPOSITIONS.has(x.t) && x.t !== "of" && x.t !== closing)?.t) || after.t;
    return { kind: "co_mention", note: `"${phrase([w, from])}" takes "${phrase(slot.slice(k, j))}"; the other name comes ${prep ? "with" : "after"} "${own}"` };
  }

  /**
   * The bracketed aside holding w, when it opens and closes between the two names (its tokens,
   * brackets left out), and holds more than the relation's words ("(NSB)" is a name's
   * abbreviation, not an aside).
   */
  function bracketAround(w: Token, left: readonly Token[], right: readonly Token[]): Token[] | null {
    const open = unmatched(left, "(", ")", -1);
    const close = open === -1 ? -1 : unmatched(right, ")", "(", 1);
    if (close === -1) return null;
    const inside = [...left.slice(open + 1), w, ...right.slice(0, close)];
    return inside.some((x) => !isRelationWord(x.t) && !/^[,()]$/.test(x.t)) ? inside : null;
  }

  function faultAt(w: Token): { kind: "clause" | "co_mention"; note: string } | null {
    const left = gap.filter((x) => x.end <= w.start);
    const right = gap.filter((x) => x.start >= w.end);
    // Brackets opened between the names and closed before the far one: an aside about the near
    // name ("Barry Jarvis Wesson (born April 6, 1977 in Tupelo, Mississippi) is an American …"
    // does not say he was born an American).
    const aside = bracketAround(w, left, right);
    if (aside) return { kind: "co_mention", note: `the relation's words are in brackets ("${phrase(aside.slice(0, 6))}${aside.length > 6 ? " …" : ""}") that name neither` };
    const relRight = right.findIndex((x) => RELATIVE_PRONOUNS.has(x.t));
    if (relRight !== -1 && !right.slice(relRight + 1).some((x) => isRelationWord(x.t))) {
      return { kind: "co_mention", note: `the relation's words are outside the relative clause ("${phrase(right.slice(relRight, relRight + 4))} …") that names one of them` };
    }
    const relLeft = left.findIndex((x) => RELATIVE_PRONOUNS.has(x.t));
    if (relLeft !== -1) {
      // "A, which was founded by B", "A and C, which were …", "A (…) is a film which was
      // released …" attach to A; "A kings had been elected with help from bodies such as that
      // which put …" is another noun's clause: a clause of its own (be / have) stands between.
      const before = withoutBrackets(left.slice(0, relLeft)).filter((x) => x.t !== ",");
      const finite = before.filter((x) => COPULA.has(x.t) || AUXILIARIES.has(x.t));
      // One copula and nothing else finite: the relative clause belongs to the name's own
      // predicate ("Santa Maria in Vallicella, also called Chiesa Nuova, is a church in Rome,
      // Italy, which today faces onto …").
      const copular = finite.length === 1 && COPULA.has(finite[0]?.t ?? "");
      if (finite.length > 0 && !copular) {
        return { kind: "co_mention", note: `the relation's words belong to the clause of another noun ("${phrase(left.slice(Math.max(0, relLeft - 2), relLeft + 1))} …")` };
      }
    }
    const i = tokens.indexOf(w);
    const next = closing && wordsMeet(head, w.t) ? tokens[i + 1] : undefined;
    if (closing && next && PREPOSITIONS.has(next.t) && next.t !== closing && !right.some((x) => x.t === closing)) {
      return { kind: "clause", note: `it says "${w.t} ${next.t}", not "${relation.replace(/_/g, " ")}"` };
    }
    if (closing && next && next.t === closing && b.start < w.start && next.end <= second.start) {
      // The phrase "w P" is there, and the object is named before it: P takes another object.
      const taken = right.filter((x) => x.start >= next.end);
      const own = taken.filter((x) => !DETERMINERS.has(x.t) && !/^[,()]$/.test(x.t));
      if (own.length > 0) return { kind: "co_mention", note: `"${w.t} ${next.t}" takes another object here ("${phrase(taken.slice(0, 4))}")` };
    }
    if (closing && second === b && wordsMeet(head, w.t)) {
      // "fought on 6 June 1813 during the War of 1812 near present-day Stoney Creek": the
      // relation's preposition has its own object, and the name comes with another one ("of"
      // only extends a noun: "located in the city of Y").
      const own = right.findIndex((x) => x.t === closing);
      const lastPrep = right.reduce((at, x, k) => (PREPOSITIONS.has(x.t) ? k : at), -1);
      const last = right[lastPrep];
      // One phrase after the object may still belong to it ("graduated from the pharmacy program
      // at the University of Toronto"): only a comma or a second phrase between says the name
      // hangs off the verb.
      const hops = right.slice(own + 1, lastPrep).filter((x) => x.t === "," || (PREPOSITIONS.has(x.t) && x.t !== "of")).length;
      if (own !== -1 && last && lastPrep > own + 1 && last.t !== closing && last.t !== "of" && hops > 0) {
        const stop = right.findIndex((x, k) => k > own + 1 && (PREPOSITIONS.has(x.t) || x.t === ","));
        return { kind: "co_mention", note: `"${w.t} ${closing}" takes "${phrase(right.slice(own + 1, Math.min(stop, own + 5)))}"; the other name comes with "${last.t}"` };
      }
    }
    // The far name introduced by another verb: "…, directed by Daniel Alfredson".
    const tail = right.filter((x) => !/^[,()]$/.test(x.t) && !DETERMINERS.has(x.t));
    const prep = tail.at(-1);
    const verb = tail.at(-2);
    if (prep && verb && PREPOSITIONS.has(prep.t) && /^\p{L}+$/u.test(verb.t) && !isRelationWord(verb.t) && !PREPOSITIONS.has(verb.t) && !COPULA.has(verb.t)) {
      const participle = prep.t === "by" || /(?:ed|en)$/.test(verb.t);
      // "…, directed by" or "… and written by" after other words: another predicate. "owned and
      // operated by" shares its agent: nothing but "and" between the two verbs.
      const between = right.filter((x) => x.end <= verb.start);
      const broken = between.some((x) => x.t === "," || x.t === "and") && between.some((x) => !/^(?:,|and|or)$/.test(x.t));
      if (participle && broken) return { kind: "co_mention", note: `the other name belongs to "${verb.t} ${prep.t}", not to the relation's words` };
    }
    // Last, as the weaker reading: the name comes with another preposition than the relation's
    // ("born 9 August 1986 in Windhoek" for "born on"), which never comes between.
    if (closing && second === b && next && wordsMeet(head, w.t) && beforeFar && beforeFar.start >= w.end && PREPOSITIONS.has(beforeFar.t) && beforeFar.t !== closing && beforeFar.t !== "of" && !right.some((x) => x.t === closing)) {
      return { kind: "clause", note: `it says "${w.t} … ${beforeFar.t}", not "${relation.replace(/_/g, " ")}"` };
    }
    return null;
  }
}
