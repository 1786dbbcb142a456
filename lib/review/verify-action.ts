/**
 * The optional LLM verification of one reviewed action (issue #10): a prompt that shows the model
 * the action in words and the candidate evidence (the sentences / lines the review quoted and the
 * documents behind the action, each with its id), a parser for its untrusted answer, and the
 * quote check that decides what the answer is worth.
 *
 * The model's word counts for nothing by itself. Each quote must appear verbatim (whitespace and
 * typographic quotes normalised) in the document it names, among those it was shown; a quote that
 * is not there is dropped and the signal says so. A verdict with no checked quote contributes
 * nothing ("claimed support but quoted nothing that is in the source"); checked quotes that do not
 * name both sides of the action, or are an enumeration / metadata line, contribute nothing either.
 * A checked quote is `strong` (what HIGH needs) only when it also passes the review's own
 * statement check (findStatements says "stated"), and not when it is the sentence the text check
 * already counted: the same sentence is not independent evidence twice.
 */
import { AppError } from "../errors";
import type { GraphNode, KnowledgeGraph } from "../graph/model";
import type { CorpusDocument } from "../import/corpus";
import { documentIdsOf } from "../import/corpus";
import type { ChatMessage } from "../loop/types";
import { ScoreCard, decideLabel, scoreOf } from "./score-action";
import type { MatchTerms, StatementKind } from "./text-evidence";
import { findStatements, findTerm, isCodeDocument, matchTerms, proseKey, splitSentences, unqualified } from "./text-evidence";
import type { ActionReview, EvidenceItem, LabelThresholds, ScoreSignal, WarningCode } from "./types";

export type Verdict = "supported" | "contradicted" | "unsupported";
export const VERDICTS: readonly Verdict[] = ["supported", "contradicted", "unsupported"];

export interface VerificationQuote {
  docId: string;
  text: string;
}

export interface ParsedVerification {
  verdict: Verdict;
  quotes: VerificationQuote[];
}

export type ParseVerificationResult = { ok: true; value: ParsedVerification } | { ok: false; error: AppError };

/** Documents shown to the model per action, and characters per document. */
const MAX_DOCUMENTS = 6;
const MAX_DOCUMENT_CHARS = 4000;
/** Quotes read from one answer; more are ignored (a model listing the whole passage proves nothing more). */
const MAX_QUOTES = 5;
/** Shorter quotes ("Hall", "in 1904") appear anywhere and show nothing. */
const MIN_QUOTE_WORDS = 3;
/** Lines of context either side of a quoted / named line in a file excerpt. */
const FILE_CONTEXT_LINES = 6;

/** Log-odds of a checked verdict: below a sentence the text check finds stated (3), above co-mention (1.2). */
const SUPPORTED_WEIGHT = 1.5;
const STATED_WEIGHT = 2;
const CONTRADICTED_WEIGHT = 1.5;

/**
 * Warnings that do not force LOW. A copy of review-actions.ts's NON_BLOCKING (not exported there):
 * the relabel here must gate exactly as the review does.
 */
const NON_BLOCKING: ReadonlySet<WarningCode> = new Set(["OUTSIDE_RETRIEVED", "PARALLEL_RELATION", "MERGE_EXISTING", "EDGE_EXISTS"]);

// ---------------------------------------------------------------------------------------------
// What is checked

interface Sides {
  a: MatchTerms;
  b: MatchTerms;
  relation: string;
  claim: string;
}

function nodeOf(graph: KnowledgeGraph, id: string | null | undefined): GraphNode | null {
  return id ? (graph.getNode(id) ?? null) : null;
}

function sidesOf(review: ActionReview, graph: KnowledgeGraph): Sides | null {
  const { action, resolved } = review;
  if (action.type === "replace_node") {
    if (!action.old || !action.new) return null;
    return {
      a: matchTerms({ name: action.old, node: nodeOf(graph, resolved.old?.nodeId) }),
      b: matchTerms({ name: action.new, node: nodeOf(graph, resolved.new?.nodeId) }),
      relation: "same as",
      claim: `"${unqualified(action.old)}" and "${unqualified(action.new)}" name the same thing (a proposed merge of the two nodes).`,
    };
  }
  if (!action.subject || !action.object) return null;
  const fact = `"${unqualified(action.subject)}" ${action.relation} "${unqualified(action.object)}"`;
  return {
    a: matchTerms({ name: action.subject, node: nodeOf(graph, resolved.subject?.nodeId) }),
    b: matchTerms({ name: action.object, node: nodeOf(graph, resolved.object?.nodeId) }),
    relation: action.relation,
    claim:
      action.type === "insert_edge"
        ? `${fact} (an edge proposed for the graph).`
        : `${fact} (an edge proposed for deletion: say whether the documents support or contradict the fact itself).`,
  };
}

/**
 * The documents to show for one action, at most MAX_DOCUMENTS: those the review quoted first, then
 * those behind the action's nodes and their edges (the ones the review read), among `documents`.
 */
export function documentsForVerification({
  review,
  graph,
  documents,
}: {
  review: ActionReview;
  graph: KnowledgeGraph;
  documents: ReadonlyMap<string, CorpusDocument>;
}): CorpusDocument[] {
  const quoted = new Set<string>();
  for (const e of review.evidence) if (e.source?.docId && (e.kind === "text" || e.kind === "code")) quoted.add(e.source.docId);
  const behind = new Set<string>();
  const { subject, object, old, new: replacement } = review.resolved;
  for (const r of [subject, object, old, replacement]) {
    const node = nodeOf(graph, r?.nodeId);
    if (!node) continue;
    for (const d of documentIdsOf(node)) behind.add(d);
    for (const e of graph.incidentEdges(node.id)) for (const d of documentIdsOf(e)) behind.add(d);
  }
  const sides = sidesOf(review, graph);
  // A busy node has many passages: those naming both sides come first, then those naming one.
  const rank = (doc: CorpusDocument): number => {
    if (!sides) return 0;
    const code = isCodeDocument(doc);
    const text = doc.title ? `${doc.title}\n${doc.text}` : doc.text;
    return (mentions(text, sides.a, code) ? 1 : 0) + (mentions(text, sides.b, code) ? 1 : 0);
  };
  const found = (ids: Iterable<string>) => [...ids].map((id) => documents.get(id)).filter((d): d is CorpusDocument => d !== undefined);
  const rest = found([...behind].filter((id) => !quoted.has(id)))
    .map((doc, i) => ({ doc, i, r: rank(doc) }))
    .sort((x, y) => y.r - x.r || x.i - y.i)
    .map((x) => x.doc);
  return [...found(quoted), ...rest].slice(0, MAX_DOCUMENTS);
}

// ---------------------------------------------------------------------------------------------
// Prompt

function mentions(text: string, terms: MatchTerms, code: boolean): boolean {
  if (code) return terms.code.some((t) => findTerm(text, t, true).length > 0);
  const norm = proseKey(text);
  return terms.prose.some((t) => findTerm(norm, t, false).length > 0);
}

/** A file's lines around what the review quoted and where the names occur; a passage as it is. */
function excerpt(doc: CorpusDocument, review: ActionReview, sides: Sides): string {
  if (doc.kind !== "file") return doc.text.length > MAX_DOCUMENT_CHARS ? `${doc.text.slice(0, MAX_DOCUMENT_CHARS)}…` : doc.text;
  const lines = doc.text.split(/\r?\n/);
  const code = isCodeDocument(doc);
  const keep = new Set<number>();
  const around = (i: number) => {
    for (let j = Math.max(0, i - FILE_CONTEXT_LINES); j <= Math.min(lines.length - 1, i + FILE_CONTEXT_LINES); j++) keep.add(j);
  };
  for (const e of review.evidence) if (e.source?.docId === doc.docId && typeof e.source.line === "number") around(e.source.line - 1);
  lines.forEach((line, i) => {
    if (mentions(line, sides.a, code) || mentions(line, sides.b, code)) around(i);
  });
  const parts: string[] = [];
  let previous = -2;
  let size = 0;
  for (const i of [...keep].sort((x, y) => x - y)) {
    const line = lines[i] ?? "";
    if (size + line.length > MAX_DOCUMENT_CHARS) break;
    if (i !== previous + 1 && parts.length > 0) parts.push("…");
    parts.push(line);
    size += line.length + 1;
    previous = i;
  }
  return parts.length ? parts.join("\n") : lines.slice(0, 40).join("\n").slice(0, MAX_DOCUMENT_CHARS);
}

const attr = (value: string) => value.replace(/[&"<>]/g, (c) => ({ "&": "&amp;", '"': "&quot;", "<": "&lt;", ">": "&gt;" })[c] ?? c);

const SYSTEM_PROMPT = [
  "You check one proposed change to a knowledge graph against source documents.",
  "Judge only from the documents given, never from what you know otherwise.",
  "Answer in exactly this format and nothing else:",
  "<verdict>supported</verdict> or <verdict>contradicted</verdict> or <verdict>unsupported</verdict>",
  '<quote doc="DOCUMENT_ID">a sentence or line copied character for character from that document</quote>',
  "Give one or more quotes for supported or contradicted (the words that state it, each from the document whose id you name); give none for unsupported.",
  "Do not paraphrase, shorten or join text inside a quote: quotes are checked against the documents, and a quote that is not in its document is discarded.",
].join("\n");

/** The verification prompt for one action: its claim in words, the review's quotes, the documents. */
export function buildVerifyPrompt({ review, graph, documents }: { review: ActionReview; graph: KnowledgeGraph; documents: readonly CorpusDocument[] }): ChatMessage[] {
  const sides = sidesOf(review, graph);
  const claim = sides?.claim ?? review.text;
  const found = review.evidence.filter((e) => e.quote && e.source?.docId && (e.kind === "text" || e.kind === "code"));
  const lines = [`Claim: ${claim}`, `Action: ${review.text}`, ""];
  if (found.length > 0) {
    lines.push("Sentences and lines an automatic check found (they may or may not state the claim):");
    for (const e of found) lines.push(`- [${e.source?.docId ?? ""}${typeof e.source?.line === "number" ? `:${e.source.line}` : ""}] ${e.quote ?? ""}`);
    lines.push("");
  }
  lines.push("Documents:");
  for (const doc of documents) {
    const title = doc.title ? ` title="${attr(doc.title)}"` : doc.path ? ` path="${attr(doc.path)}"` : "";
    lines.push(`<document id="${attr(doc.docId)}"${title}>`, sides ? excerpt(doc, review, sides) : doc.text.slice(0, MAX_DOCUMENT_CHARS), "</document>");
  }
  lines.push("", "Is the claim supported, contradicted, or not stated (unsupported) by these documents?");
  return [
    { role: "system", content: SYSTEM_PROMPT },
    { role: "user", content: lines.join("\n") },
  ];
}

// ---------------------------------------------------------------------------------------------
// Parser (the answer is untrusted input)

function formatError(reason: string, text: string): AppError {
  const shown = text.trim().slice(0, 200);
  return new AppError("LLM_FORMAT", `the verification answer is unusable: ${reason}`, { reason, body: shown });
}

const unescapeEntities = (s: string) => s.replace(/&(amp|lt|gt|quot|#39|apos);/g, (_m, e: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", apos: "'" })[e] ?? _m);

/** Read `<verdict>…</verdict>` and `<quote doc="…">…</quote>` tags; anything else is ignored. */
export function parseVerification(text: string): ParseVerificationResult {
  // Reasoning models think aloud first; a tag inside the thinking is not the answer.
  const body = text.replace(/<think>[\s\S]*?<\/think>/gi, "");
  const verdicts = [...body.matchAll(/<verdict>\s*([^<]*?)\s*<\/verdict>/gi)].map((m) => (m[1] ?? "").toLowerCase());
  if (verdicts.length === 0) return { ok: false, error: formatError("no <verdict> tag", text) };
  const distinct = [...new Set(verdicts)];
  if (distinct.length > 1) return { ok: false, error: formatError(`several verdicts (${distinct.join(", ")})`, text) };
  const verdict = VERDICTS.find((v) => v === distinct[0]);
  if (!verdict) return { ok: false, error: formatError(`unknown verdict "${(distinct[0] ?? "").slice(0, 40)}" (expected ${VERDICTS.join(", ")})`, text) };
  const quotes: VerificationQuote[] = [];
  for (const m of body.matchAll(/<quote\b([^>]*)>([\s\S]*?)<\/quote>/gi)) {
    const doc = /\bdoc\s*=\s*(?:"([^"]*)"|'([^']*)')/i.exec(m[1] ?? "");
    const docId = unescapeEntities((doc?.[1] ?? doc?.[2] ?? "").trim());
    const quote = (m[2] ?? "").trim();
    if (!docId) return { ok: false, error: formatError("a <quote> without doc=\"ID\"", text) };
    if (quote) quotes.push({ docId, text: quote });
    if (quotes.length === MAX_QUOTES) break;
  }
  return { ok: true, value: { verdict, quotes } };
}

// ---------------------------------------------------------------------------------------------
// Quote check

/** Whitespace collapsed, typographic quotes and dashes made plain: what "verbatim" compares. */
export function normalizeQuote(text: string): string {
  return text
    .normalize("NFKC")
    .replace(/[\u2018\u2019\u201A\u2032]/g, "'")
    .replace(/[\u201C\u201D\u201E\u2033]/g, '"')
    .replace(/[\u2010-\u2014]/g, "-")
    .replace(/\s+/g, " ")
    .trim();
}

/** The quote with wrapping quotation marks and trailing ellipses removed (models add them). */
function unwrapped(norm: string): string {
  return norm
    .replace(/^["'`]+|["'`]+$/g, "")
    .replace(/^(\.\.\.|…)\s*|\s*(\.\.\.|…)$/g, "")
    .trim();
}

export interface CheckedQuote {
  docId: string;
  /** As it stands in the document (normalised whitespace). */
  text: string;
  /**
   * The whole sentence(s) (passages) or line(s) (files) the quote lies in: what is judged, so a
   * fragment ("Erik Erikson and Anna Freud") counts for what its sentence says, no more.
   */
  context: string;
  doc: CorpusDocument;
  /** 1-based line for files. */
  line: number | null;
}

/** The sentences or lines of `doc` that the quote at [start, start + length) of its normalised text overlaps. */
function contextOf(doc: CorpusDocument, normText: string, start: number, length: number): { context: string; line: number | null } {
  const units = doc.kind === "file" ? doc.text.split(/\r?\n/) : splitSentences(doc.text);
  const picked: string[] = [];
  let line: number | null = null;
  let from = 0;
  units.forEach((unit, i) => {
    const norm = normalizeQuote(unit);
    if (!norm) return;
    const at = normText.indexOf(norm, from);
    if (at === -1) return;
    from = at + norm.length;
    if (at < start + length && at + norm.length > start) {
      picked.push(norm);
      if (doc.kind === "file" && line === null) line = i + 1;
    }
  });
  return { context: picked.length ? picked.join(doc.kind === "file" ? "\n" : " ") : normText.slice(start, start + length), line };
}

export interface DroppedQuote {
  docId: string;
  text: string;
  why: string;
}

/**
 * Keep the quotes that appear verbatim in the document they name, among `documents` (what the
 * model was shown); say why each other one was dropped.
 */
export function checkQuotes({ quotes, documents }: { quotes: readonly VerificationQuote[]; documents: readonly CorpusDocument[] }): {
  checked: CheckedQuote[];
  dropped: DroppedQuote[];
} {
  const byId = new Map(documents.map((d) => [d.docId, d]));
  const texts = new Map(documents.map((d) => [d.docId, normalizeQuote(d.text)]));
  const checked: CheckedQuote[] = [];
  const dropped: DroppedQuote[] = [];
  for (const q of quotes) {
    const raw = normalizeQuote(q.text);
    const candidates = [...new Set([raw, unwrapped(raw), normalizeQuote(unescapeEntities(q.text)), unwrapped(normalizeQuote(unescapeEntities(q.text)))])].filter(Boolean);
    const shown = raw.length > 80 ? `${raw.slice(0, 80)}…` : raw;
    const words = (unwrapped(raw).match(/[\p{L}\p{N}_]+/gu) ?? []).length;
    if (words < MIN_QUOTE_WORDS) {
      dropped.push({ docId: q.docId, text: raw, why: `"${shown}" is too short to show anything (fewer than ${MIN_QUOTE_WORDS} words)` });
      continue;
    }
    const doc = byId.get(q.docId);
    const docText = texts.get(q.docId);
    const found = docText !== undefined ? candidates.find((c) => docText.includes(c)) : undefined;
    if (doc && docText !== undefined && found) {
      const { context, line } = contextOf(doc, docText, docText.indexOf(found), found.length);
      checked.push({ docId: q.docId, text: found, context, doc, line });
      continue;
    }
    const elsewhere = [...texts].find(([, t]) => candidates.some((c) => t.includes(c)))?.[0];
    const why = !doc
      ? `"${shown}" names ${q.docId}, which is not one of the documents shown`
      : elsewhere
        ? `"${shown}" is not in ${q.docId} (it is in ${elsewhere})`
        : `"${shown}" is not in ${q.docId} verbatim`;
    dropped.push({ docId: q.docId, text: raw, why });
  }
  return { checked, dropped };
}

// ---------------------------------------------------------------------------------------------
// The signal

export interface VerificationOutcome {
  verdict: Verdict;
  checked: CheckedQuote[];
  dropped: DroppedQuote[];
  /** Contribution (log-odds), clamped and rounded like every signal. */
  signal: ScoreSignal;
  /** One line for the review's reasons. */
  reason: string;
}

/** The best statement kind the review's own text check finds in the checked quotes, per document. */
function statementKind(checked: readonly CheckedQuote[], sides: Sides): StatementKind | null {
  const byDoc = new Map<string, CheckedQuote[]>();
  for (const q of checked) byDoc.set(q.docId, [...(byDoc.get(q.docId) ?? []), q]);
  const docs: CorpusDocument[] = [...byDoc.values()].map((qs) => {
    const doc = (qs[0] as CheckedQuote).doc;
    return { docId: doc.docId, kind: doc.kind, title: doc.title, path: doc.path, text: [...new Set(qs.map((q) => q.context))].join(" ") };
  });
  const prose = docs.filter((d) => !isCodeDocument(d));
  if (prose.length === 0) return null;
  return findStatements({ documents: prose, a: sides.a, b: sides.b, relation: sides.relation, limit: 1 })[0]?.kind ?? null;
}

/** Whether a checked quote, or the title of its passage, names this side of the action. */
function namedIn(checked: readonly CheckedQuote[], terms: MatchTerms): boolean {
  return checked.some((q) => {
    const code = isCodeDocument(q.doc);
    return mentions(q.context, terms, code) || (!code && q.doc.title !== null && mentions(q.doc.title, terms, false));
  });
}

function namesBoth(checked: readonly CheckedQuote[], sides: Sides): boolean {
  return namedIn(checked, sides.a) && namedIn(checked, sides.b);
}

/** Whether a checked quote is (part of) a sentence the review's positive text signal already counted. */
function alreadyCounted(review: ActionReview, checked: readonly CheckedQuote[]): boolean {
  const counted = (review.signals ?? [])
    .filter((s) => s.kind === "text" && s.contribution > 0 && s.evidence !== undefined)
    .map((s) => review.evidence[s.evidence as number]?.quote)
    .filter((q): q is string => typeof q === "string")
    .map(normalizeQuote);
  return checked.some((q) => counted.some((c) => c.includes(q.context) || q.context.includes(c)));
}

/**
 * What a parsed answer is worth for this action: the quote check, then the signal. For a delete
 * the verdict is about the fact, so support speaks against the delete and contradiction for it.
 */
export function judgeVerification({
  review,
  graph,
  parsed,
  documents,
}: {
  review: ActionReview;
  graph: KnowledgeGraph;
  parsed: ParsedVerification;
  /** The documents the model was shown (documentsForVerification). */
  documents: readonly CorpusDocument[];
}): VerificationOutcome {
  const { checked, dropped } = checkQuotes({ quotes: parsed.quotes, documents });
  const card = new ScoreCard();
  const sides = sidesOf(review, graph);
  const droppedNote = dropped.length ? `; dropped ${dropped.length} quote${dropped.length === 1 ? "" : "s"}: ${dropped.map((d) => d.why).join("; ")}` : "";
  const where = [...new Set(checked.map((q) => (q.line !== null ? `${q.docId}:${q.line}` : q.docId)))].join(", ");
  const done = (contribution: number, summary: string, extra: { positive?: boolean; strong?: boolean } = {}): VerificationOutcome => {
    const signal = card.add("llm", contribution, `${summary}${droppedNote}`, extra);
    return { verdict: parsed.verdict, checked, dropped, signal, reason: `verification: ${signal.summary}` };
  };
  if (parsed.verdict === "unsupported") return done(0, "the model found no statement of it in the documents shown");
  const claimed = parsed.verdict === "supported" ? "claimed support" : "claimed a contradiction";
  if (checked.length === 0) {
    return done(0, `the model ${claimed} but quoted nothing that is in the source${parsed.quotes.length === 0 ? " (no quote)" : ""}`);
  }
  if (!sides) return done(0, `the model ${claimed} (${where}), but the action has no two sides to check the quotes against`);
  const isDelete = review.action.type === "delete_edge";
  const kind = statementKind(checked, sides);
  if (parsed.verdict === "contradicted") {
    // A contradiction quote need not name both: "X was born in Paris" contradicts "born in Lyon".
    const namesOne = namedIn(checked, sides.a) || namedIn(checked, sides.b);
    if (!namesOne) return done(0, `the model claimed a contradiction, but its checked quotes (${where}) name neither side`);
    const summary = `the model says the documents contradict it, quoting ${where}`;
    return isDelete ? done(CONTRADICTED_WEIGHT, `${summary} (checked verbatim): the delete removes a contradicted fact`, { positive: true }) : done(-CONTRADICTED_WEIGHT, `${summary} (checked verbatim)`);
  }
  if (!namesBoth(checked, sides)) return done(0, `the model claimed support, but its checked quotes (${where}) do not name both "${sides.a.display}" and "${sides.b.display}"`);
  if (kind === "list" || kind === "metadata") return done(0, `the model claimed support, but the quote in ${where} is ${kind === "list" ? "an enumeration" : "a metadata line"}, not a statement`);
  const counted = alreadyCounted(review, checked);
  const stated = kind === "stated" && !counted && review.action.type !== "replace_node";
  const weight = (stated ? STATED_WEIGHT : SUPPORTED_WEIGHT) * (counted ? 0.5 : 1);
  const how = stated ? "a quote that states it" : "a quote checked verbatim";
  const note = counted ? " — the sentence the text check already counted, so it adds little" : "";
  if (isDelete) return done(-weight, `the model says the documents support the edge, with ${how} in ${where}: deleting it removes a supported fact${note}`, { strong: stated });
  return done(weight, `the model says the documents support it, with ${how} in ${where}${note}`, { positive: true, strong: stated });
}

// ---------------------------------------------------------------------------------------------
// Relabel

/** Why the review capped this action at MEDIUM, recomputed from what it recorded. */
function capOf(review: ActionReview): string | null {
  if (review.warnings.some((w) => w.code === "EDGE_EXISTS")) return "the edge already exists, so applying it changes nothing";
  if (review.warnings.some((w) => w.code === "PARALLEL_RELATION" && w.message.includes("near-duplicate"))) return "a near-duplicate of an existing edge";
  if (review.action.type === "delete_edge" && review.reasons.some((r) => r.startsWith("the reverse edge exists too"))) {
    return "the reverse edge exists too: check which direction the source states";
  }
  return null;
}

function blockedOf(review: ActionReview): string | undefined {
  const blocking = [...new Set(review.warnings.filter((w) => !NON_BLOCKING.has(w.code)).map((w) => w.code))];
  return blocking.length ? `warning${blocking.length > 1 ? "s" : ""} ${blocking.join(", ")}` : undefined;
}

/** The reasons without the review's own final "LABEL: why" line. */
function reasonsBeforeLabel(review: ActionReview): string[] {
  const last = review.reasons.at(-1);
  return last?.startsWith(`${review.confidence}: `) ? review.reasons.slice(0, -1) : [...review.reasons];
}

/**
 * The review with the verification's signal and checked quotes added, its score recomputed from
 * all signals and its label decided by the same gates as the review (decideLabel): blocking
 * warnings stay LOW, no positive evidence is LOW, HIGH needs a strong signal.
 */
export function applyVerification({ review, outcome, thresholds }: { review: ActionReview; outcome: VerificationOutcome; thresholds?: LabelThresholds }): ActionReview {
  const evidence = [...review.evidence];
  const start = evidence.length;
  for (const q of outcome.checked) {
    const item: EvidenceItem = {
      kind: isCodeDocument(q.doc) ? "code" : "text",
      summary: `quoted by the verification (${outcome.verdict}), found verbatim in ${q.line !== null ? `${q.docId}:${q.line}` : q.docId}`,
      quote: q.context,
      source: { docId: q.docId, title: q.doc.title, path: q.doc.path, line: q.line },
    };
    evidence.push(item);
  }
  const signal: ScoreSignal = { ...outcome.signal, ...(outcome.checked.length > 0 ? { evidence: start } : {}) };
  const signals = [...(review.signals ?? []), signal];
  const score = scoreOf(signals);
  const { label, why } = decideLabel({ score, signals, blocked: blockedOf(review), cap: capOf(review), thresholds });
  return { ...review, confidence: label, score, signals, evidence, reasons: [...reasonsBeforeLabel(review), outcome.reason, `${label}: ${why}`] };
}

/** The review unchanged but for a neutral signal saying the verification could not be used. */
export function withFailedVerification(review: ActionReview, message: string): ActionReview {
  const summary = `verification failed: ${message.length > 300 ? `${message.slice(0, 300)}…` : message}`;
  const reasons = reasonsBeforeLabel(review);
  const last = review.reasons.length > reasons.length ? review.reasons.slice(-1) : [];
  return { ...review, signals: [...(review.signals ?? []), { kind: "llm", contribution: 0, summary }], reasons: [...reasons, summary, ...last] };
}

/** Whether an action is worth a verification call: parseable, not already LOW by a blocking warning, with signals. */
export function shouldVerify(review: ActionReview): boolean {
  return review.signals !== undefined && blockedOf(review) === undefined && sidesOfAction(review);
}

function sidesOfAction(review: ActionReview): boolean {
  const a = review.action;
  return a.type === "replace_node" ? Boolean(a.old && a.new) : Boolean(a.subject && a.object);
}
