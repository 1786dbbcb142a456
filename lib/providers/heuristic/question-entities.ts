/**
 * Which graph nodes a question is about.
 *
 * Rule (shared by judge, abduction and refinement):
 * 1. Every `[bracketed]` span (MetaQA's topic entity) is a mention, resolved as a whole with
 *    `resolveName`; one that resolves to nothing is a missing entity.
 * 2. Elsewhere, every run of up to N question words (N = the longest label in the graph, at
 *    most 10) is looked up by its words, ignoring punctuation and case ("Hello Love's" finds
 *    "Hello Love", "saudi arabia" finds `saudi_arabia`); runs made only of stopwords are
 *    skipped; a possessive may end a plural name ("Big Eye's" finds "Big Eyes"). When the
 *    run's own text also names a node to `resolveName` (exactly or ambiguously) its answer is
 *    used, so the resolver's tiers (exact case first) decide ties.
 * 3. Longer runs win: runs are taken longest first, then leftmost, never overlapping.
 * 4. A mention is strong when one of its words is capitalised or has a digit (the capital of
 *    a sentence's first word does not count unless the next word is capitalised too; "The",
 *    "Who" never count). When a question has any name in it, its weak mentions ("county",
 *    "president") are dropped: they name the relation asked about, not an entity. Questions
 *    without names (all lower case) keep their weak mentions.
 * 5. Missing entities: runs of capitalised words (joined by of/the/and/de/von…) and quoted
 *    titles that overlap no mention; a bare number is not reported.
 * The question words outside the kept mentions are the relation words the judge matches.
 */
import type { KnowledgeGraph } from "../../graph/model";
import { normalizeLabel } from "../../graph/normalize";
import { resolveName } from "../../graph/resolve-name";
import { getHeuristicIndex } from "./graph-index";
import { isStopword, startsSentence, type WordToken, wordTokens } from "./text";

export interface QuestionMention {
  /** The mention as written in the question. */
  text: string;
  start: number;
  end: number;
  /** Nodes it names (more than one: ambiguous); empty for a missing entity. */
  nodeIds: string[];
  strong: boolean;
  bracketed: boolean;
}

export interface QuestionEntities {
  /** Mentions that name nodes, in question order. */
  mentions: QuestionMention[];
  /** Entities the question names that the graph lacks, in question order. */
  missing: QuestionMention[];
  /** Question words outside the kept mentions and brackets, lower-cased. */
  relationWords: string[];
}

const CONNECTORS = new Set(["of", "the", "and", "de", "du", "des", "la", "le", "von", "van", "der", "den", "y", "da", "di", "del", "in", "on", "for", "&"]);

/**
 * Whether token `i` looks like part of a name: a digit, or a capital that is not just the
 * capital of a sentence's first word (that one counts when the next word is capitalised too,
 * as in "David Jones is …"). Stopwords never do ("The", "Who").
 */
function isMarked(text: string, tokens: readonly WordToken[], i: number): boolean {
  const t = tokens[i];
  if (!t) return false;
  const c = t.raw.charAt(0);
  if (/\p{N}/u.test(c)) return true;
  if (!/\p{Lu}/u.test(c) || isStopword(t.norm)) return false;
  if (!startsSentence(text, t.start)) return true;
  const next = tokens[i + 1];
  return next !== undefined && /\p{Lu}/u.test(next.raw.charAt(0)) && !isStopword(next.norm);
}

interface Candidate {
  i: number;
  n: number;
  chars: number;
  nodeIds: string[];
}

function lookupText(graph: KnowledgeGraph, text: string): string[] | null {
  const trimmed = text.trim();
  if (graph.idsByNormLabel(normalizeLabel(trimmed)).size === 0 && !graph.getNode(trimmed)) return null;
  // Only probe the resolver when an index hit guarantees it takes no fuzzy O(nodes) scan.
  const r = resolveName({ graph, name: trimmed, limit: 0 });
  if (r.status === "exact" && r.best) return [r.best.id];
  if (r.status === "ambiguous") {
    const top = r.candidates[0]?.score;
    return r.candidates.filter((c) => c.score === top).map((c) => c.id);
  }
  return null;
}

export function findQuestionEntities({ graph, question }: { graph: KnowledgeGraph; question: string }): QuestionEntities {
  const index = getHeuristicIndex(graph);
  const mentions: QuestionMention[] = [];
  const missing: QuestionMention[] = [];
  const bracketSpans: [number, number][] = [];

  for (const m of question.matchAll(/\[([^\]]+)\]/g)) {
    const inner = m[1] ?? "";
    const start = m.index + 1;
    bracketSpans.push([m.index, m.index + m[0].length]);
    const ids = lookupText(graph, inner) ?? index.byKey.get(wordTokens(inner).map((t) => t.norm).join(" ")) ?? [];
    const mention = { text: inner.trim(), start, end: start + inner.length, nodeIds: ids, strong: true, bracketed: true };
    (ids.length > 0 ? mentions : missing).push(mention);
  }
  const inBracket = (t: WordToken) => bracketSpans.some(([s, e]) => t.start >= s && t.end <= e);
  const tokens = wordTokens(question);
  const free = tokens.map((t) => !inBracket(t));

  const candidates: Candidate[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (!free[i]) continue;
    const most = index.maxWordsFrom.get(tokens[i]?.norm ?? "") ?? 0;
    for (let n = 1; n <= most && i + n <= tokens.length; n++) {
      if (!free[i + n - 1]) break;
      const run = tokens.slice(i, i + n);
      if (run.every((t) => isStopword(t.norm))) continue;
      // One letter names an entity only when written as a name: "what does O star in".
      if (n === 1 && (run[0]?.norm.length ?? 0) < 2 && !isMarked(question, tokens, i)) continue;
      const key = run.map((t) => t.norm).join(" ");
      const startChar = run[0]?.start ?? 0;
      const endChar = run[n - 1]?.end ?? 0;
      let ids = index.byKey.get(key);
      // "Big Eye's director": the possessive may be a misspelt plural name ("Big Eyes").
      const next = tokens[i + n];
      if (!ids && next?.norm === "s" && /^['’]$/.test(question.slice(endChar, next.start))) ids = index.byKey.get(`${key}s`);
      if (!ids) continue;
      const resolved = lookupText(graph, question.slice(startChar, endChar));
      const chosen = resolved?.filter((id) => ids.includes(id));
      candidates.push({ i, n, chars: endChar - startChar, nodeIds: chosen?.length ? chosen : ids });
    }
  }
  candidates.sort((a, b) => b.n - a.n || b.chars - a.chars || a.i - b.i);
  const taken = new Array<boolean>(tokens.length).fill(false);
  const found: QuestionMention[] = [];
  for (const c of candidates) {
    let clash = false;
    for (let k = c.i; k < c.i + c.n; k++) if (taken[k]) clash = true;
    if (clash) continue;
    let strong = false;
    for (let k = c.i; k < c.i + c.n; k++) {
      taken[k] = true;
      if (isMarked(question, tokens, k)) strong = true;
    }
    const start = tokens[c.i]?.start ?? 0;
    let end = tokens[c.i + c.n - 1]?.end ?? 0;
    // A name keeps its punctuation: "For a Good Time, Call...", "Monsters, Inc.".
    for (const id of c.nodeIds) {
      const label = graph.getNode(id)?.label ?? "";
      if (label.length > end - start && question.startsWith(label, start)) end = start + label.length;
    }
    found.push({ text: question.slice(start, end), start, end, nodeIds: c.nodeIds, strong, bracketed: false });
  }
  // Weak mentions ("county") stand in for entities only in questions without any name.
  const anyName = mentions.length > 0 || missing.length > 0 || tokens.some((_, i) => free[i] && isMarked(question, tokens, i));
  const kept = anyName ? found.filter((m) => m.strong) : found;
  mentions.push(...kept);
  mentions.sort((a, b) => a.start - b.start);

  const keptSpan = (t: WordToken) => mentions.some((m) => t.start >= m.start && t.end <= m.end);
  const relationWords = tokens.filter((t, i) => free[i] && !keptSpan(t)).map((t) => t.norm);

  // Missing entities: capitalised runs and quoted titles that no mention covers.
  const covered = (s: number, e: number) => mentions.some((m) => s < m.end && e > m.start);
  const runs: [number, number][] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (!free[i] || !isMarked(question, tokens, i)) continue;
    let j = i;
    for (;;) {
      let k = j + 1;
      while (k < tokens.length && free[k] && CONNECTORS.has(tokens[k]?.norm ?? "") && !isMarked(question, tokens, k)) k++;
      if (k < tokens.length && free[k] && isMarked(question, tokens, k) && k - j <= 3) j = k;
      else break;
    }
    runs.push([tokens[i]?.start ?? 0, tokens[j]?.end ?? 0]);
    i = j;
  }
  for (const m of question.matchAll(/["“]([^"”]{2,80})["”]/g)) runs.push([m.index + 1, m.index + 1 + (m[1]?.length ?? 0)]);
  for (const [s, e] of runs.sort((a, b) => a[0] - b[0])) {
    const text = question.slice(s, e).trim();
    if (!text || covered(s, e) || /^[\d\s.,]+$/.test(text)) continue;
    if (missing.some((m) => m.start === s)) continue;
    missing.push({ text, start: s, end: e, nodeIds: [], strong: true, bracketed: false });
  }
  missing.sort((a, b) => a.start - b.start);
  return { mentions, missing, relationWords };
}
