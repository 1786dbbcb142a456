/**
 * Answers the heuristic reads from quoted passages (the corpus fallback): the names a quote
 * states besides those the question already names. A name the graph knows is returned with its
 * node; a capitalised name the graph lacks is returned as text (id null). Each answer carries
 * the passage that states it: no passage, no answer.
 *
 * Ranked by passage rank, then by the kind of thing asked for (a question word among the
 * candidate's hypernyms in the lexicon, "what country" ~ Zimbabwe: "african country, country";
 * or the object end of a relation the question names), then by closeness to the question's own
 * words in the quote (the answer of "who published X" stands next to "published" and X).
 */
import type { KnowledgeGraph } from "../graph/model";
import { normalizeLabel } from "../graph/normalize";
import { findQuestionEntities } from "../providers/heuristic/question-entities";
import { isStopword, stem, wordTokens } from "../providers/heuristic/text";
import { getDefaultLexicon, getRelationRanker, type Lexicon } from "../retrieve/rank-relations";
import type { AskPassage } from "./types";

export interface PassageAnswer {
  id: string | null;
  label: string;
  score: number;
  passage: { docId: string; quote: string };
}

export interface ExtractPassageAnswersOptions {
  graph: KnowledgeGraph;
  question: string;
  passages: readonly AskPassage[];
  /** Node ids the question is about: never an answer. */
  exclude?: ReadonlySet<string>;
  limit?: number;
  /** Hypernyms for the answer's kind (default: the relation ranker's process-wide lexicon). */
  lexicon?: Lexicon | null;
}

/** What a wh-word asks for, in the lexicon's hypernym vocabulary. */
const CUE_KINDS: Record<string, readonly string[]> = {
  who: ["person", "organization", "social group"],
  whom: ["person", "organization", "social group"],
  where: ["location", "region", "geographical area"],
};

/** Whether the lexicon says the candidate is of a kind the question names (its head noun counts). */
function isKindAsked(lexicon: Lexicon | null, label: string, asked: ReadonlySet<string>): boolean {
  const words = wordTokens(label).map((t) => t.norm);
  const head = words[words.length - 1];
  if (!head) return false;
  if (asked.has(head) || asked.has(stem(head))) return true;
  if (!lexicon?.kinds) return false;
  for (const key of [words.join("_"), head]) for (const k of lexicon.kinds(key)) if (asked.has(k)) return true;
  return false;
}

/** Questions that ask for a number or a date; the others never take one as their answer. */
const ASKS_NUMBER = /\b(when|what year|which year|how many|how much|how long|how old|what date|which date)\b/i;
const NUMBERISH = /^[\p{N}\s,.:/–-]+$|^(?:\d{1,2} )?(?:january|february|march|april|may|june|july|august|september|october|november|december)\b/iu;
const MAX_ANSWER_WORDS = 8;
/** Distinct incoming relations looked at per candidate (a hub has hundreds). */
const MAX_KIND_RELATIONS = 50;

export function extractPassageAnswers({ graph, question, passages, exclude = new Set(), limit = 5, lexicon = getDefaultLexicon() }: ExtractPassageAnswersOptions): PassageAnswer[] {
  const questionNorm = normalizeLabel(question);
  const asked = new Set<string>();
  for (const t of wordTokens(question)) {
    for (const k of CUE_KINDS[t.norm] ?? []) asked.add(k);
    if (!isStopword(t.norm) && t.norm.length > 2) asked.add(t.norm).add(stem(t.norm));
  }
  // The names in the question are what it asks about, not the kind it asks for ("Bubye River": not a river).
  const named = findQuestionEntities({ graph, question });
  for (const m of [...named.mentions, ...named.missing]) {
    for (const t of wordTokens(m.text)) {
      asked.delete(t.norm);
      asked.delete(stem(t.norm));
    }
  }
  for (const id of exclude) for (const t of wordTokens(graph.getNode(id)?.label ?? "")) asked.delete(t.norm);
  const questionStems = new Set(wordTokens(question).filter((t) => !isStopword(t.norm)).map((t) => stem(t.norm)));
  const asksNumber = ASKS_NUMBER.test(question);
  // The kind of answer, from the graph: a node that is elsewhere the object of a relation the
  // question names ("country" → `located in country`) is the kind of thing asked for.
  const ranker = getRelationRanker(graph);
  const relationScores = new Map<string, number>();
  const relationScore = (relation: string): number => {
    let v = relationScores.get(relation);
    if (v === undefined) relationScores.set(relation, (v = ranker.score(question, relation)));
    return v;
  };
  const kindOf = (id: string): number => {
    let best = 0;
    const seen = new Set<string>();
    graph.forEachIncident(id, (e) => {
      if (e.target !== id || seen.has(e.relation) || seen.size >= MAX_KIND_RELATIONS) return;
      seen.add(e.relation);
      best = Math.max(best, relationScore(e.relation));
    });
    return best > 0 ? 1 : 0;
  };
  const excludedLabels = [...exclude].map((id) => graph.getNode(id)?.normLabel).filter((l): l is string => !!l);
  const out = new Map<string, PassageAnswer>();
  passages.forEach((p, rank) => {
    const quoteNorm = normalizeLabel(p.quote);
    // A passage about the question's own entity states its facts; others only share words.
    const aboutTopic = excludedLabels.some((l) => quoteNorm.includes(l)) ? 1 : 0.5;
    const found = findQuestionEntities({ graph, question: p.quote });
    const tokens = wordTokens(p.quote);
    const anchors = tokens.filter((t) => questionStems.has(stem(t.norm))).map((t) => t.start);
    const candidates = [
      ...found.mentions.filter((m) => m.strong).map((m) => ({ text: m.text, start: m.start, id: m.nodeIds[0] ?? null, ids: m.nodeIds })),
      ...found.missing.map((m) => ({ text: m.text, start: m.start, id: null, ids: [] as string[] })),
    ];
    for (const c of candidates) {
      const norm = normalizeLabel(c.text);
      if (norm.length < 2 || questionNorm.includes(norm)) continue;
      if (c.ids.some((id) => exclude.has(id))) continue;
      if (!asksNumber && NUMBERISH.test(norm)) continue;
      if (wordTokens(c.text).length > MAX_ANSWER_WORDS) continue;
      const distance = anchors.length ? Math.min(...anchors.map((a) => Math.abs(a - c.start))) : 1000;
      const kind = (c.id ? kindOf(c.id) : 0) + (isKindAsked(lexicon, c.text, asked) ? 1 : 0);
      const score = (aboutTopic / (rank + 1)) * (1 + kind + 1 / (1 + distance / 20));
      const key = c.id ?? `text:${norm}`;
      const prev = out.get(key);
      if (!prev || prev.score < score) {
        const label = c.id ? (graph.getNode(c.id)?.label ?? c.text) : c.text;
        out.set(key, { id: c.id, label, score: Math.round(score * 1000) / 1000, passage: { docId: p.docId, quote: p.quote } });
      }
    }
  });
  return [...out.values()].sort((a, b) => b.score - a.score).slice(0, limit);
}
