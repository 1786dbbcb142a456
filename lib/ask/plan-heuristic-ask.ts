/**
 * The heuristic planner (no model): a Graph-RFT plan for a question from the graph alone.
 *
 * 1. Topic entities: the question's mentions (lib/providers/heuristic/question-entities: exact
 *    and longest matches win, punctuation and commas kept); up to three strong ones are tried.
 * 2. One hop: the topic's own relations (both directions) ranked against the question's other
 *    words by the one relation ranker.
 * 3. Two hops: the words are cut in two at every place: the part next to the mention names the
 *    first relation, the far part the second ("which person directed | the movies starred by X":
 *    starred_actors, then directed_by), each ranked among the relations that actually leave the
 *    topic and then the first hop's answers. A chain counts only when both parts name a relation;
 *    its score is the sum, so it wins over one hop exactly when the question names two relations.
 * 4. "The same", "co-", "together", "also", "fellow", "other" ask for the topic's siblings
 *    through one relation: r, then r back ("who appeared in the same movie with X").
 * The best-scoring chain over the tried mentions is the plan; ties go to the longer mention.
 */
import type { KnowledgeGraph } from "../graph/model";
import { findQuestionEntities } from "../providers/heuristic/question-entities";
import { STOPWORDS, type WordToken, wordTokens } from "../providers/heuristic/text";
import { getRelationRanker } from "../retrieve/rank-relations";
import { searchNeighbors } from "./search-neighbors";
import type { AskEntity, PlanStep } from "./types";

const MAX_MENTIONS = 3;
/** First-hop relations tried per cut: the ranker's best few, not every relation of a hub. */
const FIRST_HOP_TRIES = 3;
const SIBLING_MARKERS = new Set(["same", "co", "together", "also", "fellow", "other", "others", "share", "shares", "shared", "sharing"]);
/** A preposition right before the mention ("written by X") binds the words before it to X. */
const PREPOSITIONS = new Set(["by", "of", "with", "for", "in", "from", "about", "on", "at", "to"]);
/**
 * A second hop must be named about as well as the first: its words' score at least this share of
 * the first hop's. A weak lexical association (the answer's kind, "which movies", meeting
 * `release_year` through WordNet's "release") must not turn a one-hop question into two hops.
 */
const SECOND_HOP_MIN_SHARE = 2 / 3;
/** Tie-break weight of that binding: it decides between equally scored cuts, never against the ranker. */
const BINDING_TIE_BREAK = 0.02;

export interface HeuristicAskPlan {
  /** The topic mention as written, and its nodes. */
  topic: { text: string; entities: AskEntity[] } | null;
  steps: Array<Extract<PlanStep, { op: "search" }>>;
  /** The question words each search step serves: the `r` of its relation_search call. */
  stepWords: Record<string, string>;
  /** Why this plan, in words (the heuristic's <think>). */
  reason: string;
  score: number;
  /** Every node the question names (never an answer). */
  questionNodeIds: string[];
}

interface Chain {
  relations: string[];
  words: string[];
  score: number;
  kind: "one hop" | "two hops" | "siblings";
}

function relationCounts(graph: KnowledgeGraph, ids: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const id of ids) graph.forEachIncident(id, (e) => out.add(e.relation));
  return out;
}

function join(tokens: readonly WordToken[]): string {
  return tokens.map((t) => t.raw).join(" ");
}

/** Wh-words: the ranker matches them to a relation's answer type, which names no relation by itself. */
const ANSWER_CUES = new Set(["who", "whom", "when", "where"]);

/** Candidate chains of one mention, best first. */
function chainsForMention(graph: KnowledgeGraph, tokens: readonly WordToken[], mention: { start: number; end: number; nodeIds: string[] }): Chain[] {
  const ranker = getRelationRanker(graph);
  const left = tokens.filter((t) => t.end <= mention.start);
  const right = tokens.filter((t) => t.start >= mention.end);
  const all = [...left, ...right];
  const first = relationCounts(graph, mention.nodeIds);
  if (first.size === 0) return [];
  const scoreCache = new Map<string, Array<[string, number]>>();
  /** Relations the text names (a content word matches, not only the wh-word), best first. */
  const named = (text: string, relations: Set<string>, key: string): Array<[string, number]> => {
    const k = `${key}\u0000${text}`;
    let hit = scoreCache.get(k);
    if (!hit) {
      hit = ranker
        .rank(text, relations, relations.size)
        .filter((r) => r.score > 0 && ranker.explain(text, r.relation).some((m) => !ANSWER_CUES.has(m.word)))
        .map((r): [string, number] => [r.relation, r.score]);
      scoreCache.set(k, hit);
    }
    return hit;
  };

  const chains: Chain[] = [];
  const allText = join(all);
  const sibling = all.some((t) => SIBLING_MARKERS.has(t.norm));
  for (const [r, s] of named(allText, first, "first").slice(0, FIRST_HOP_TRIES)) {
    chains.push({ relations: [r], words: [allText], score: s, kind: "one hop" });
    // "The same X as", "co-starred": the topic's siblings through the relation, ranked above the plain hop.
    if (sibling) chains.push({ relations: [r, r], words: [allText, allText], score: s + 1e-6, kind: "siblings" });
  }

  const secondSets = new Map<string, Set<string>>();
  const secondRelations = (r1: string): Set<string> => {
    let set = secondSets.get(r1);
    if (!set) {
      const heads = mention.nodeIds.map((id) => ({ id, label: id }));
      const n1 = searchNeighbors({ graph, heads, relation: r1 }).entities.map((e) => e.id);
      secondSets.set(r1, (set = relationCounts(graph, n1)));
    }
    return set;
  };
  const cuts: Array<{ near: WordToken[]; far: WordToken[] }> = [];
  const isContent = (t: WordToken) => !STOPWORDS.has(t.norm);
  // A cut inside the left side must leave a content word next to the mention ("written | by X" is no cut).
  for (let k = 1; k <= left.length; k++) if (k === left.length || left.slice(k).some(isContent)) cuts.push({ far: left.slice(0, k), near: [...left.slice(k), ...right] });
  const binder = left[left.length - 1];
  const bound = right.length > 0 && binder !== undefined && PREPOSITIONS.has(binder.norm) ? binder : null;
  for (let k = 0; k < right.length; k++) cuts.push({ near: [...left, ...right.slice(0, k)], far: right.slice(k) });
  for (const { near, far } of cuts) {
    if (near.length === 0) continue;
    const nearText = join(near);
    const farText = join(far);
    for (const [r1, s1] of named(nearText, first, "first").slice(0, FIRST_HOP_TRIES)) {
      const r2 = named(farText, secondRelations(r1), `second:${r1}`)[0];
      if (!r2 || r2[1] < s1 * SECOND_HOP_MIN_SHARE) continue;
      const binds = bound !== null && near.includes(bound) && !near.includes(right[0] as WordToken);
      chains.push({ relations: [r1, r2[0]], words: [nearText, farText], score: (s1 + r2[1]) * (binds ? 1 + BINDING_TIE_BREAK : 1), kind: "two hops" });
    }
  }
  return chains.sort((a, b) => b.score - a.score);
}

/** Whether following the chain from the topic reaches anything but the question's own nodes. */
function reachesAnswer(graph: KnowledgeGraph, topic: readonly string[], relations: readonly string[], exclude: ReadonlySet<string>): boolean {
  let heads: AskEntity[] = topic.map((id) => ({ id, label: id }));
  for (const relation of relations) {
    heads = searchNeighbors({ graph, heads, relation, exclude: new Set(heads.map((h) => h.id ?? "")) }).entities;
    if (heads.length === 0) return false;
  }
  return heads.some((h) => h.id !== null && !exclude.has(h.id));
}

export function planHeuristicAsk({ graph, question }: { graph: KnowledgeGraph; question: string }): HeuristicAskPlan {
  const entities = findQuestionEntities({ graph, question });
  const named = entities.mentions.filter((m) => m.nodeIds.length > 0);
  const questionNodeIds = [...new Set(named.flatMap((m) => m.nodeIds))];
  const tried = [...named].sort((a, b) => Number(b.strong) - Number(a.strong) || b.end - b.start - (a.end - a.start) || a.start - b.start).slice(0, MAX_MENTIONS);
  const tokens = wordTokens(question);
  const exclude = new Set(questionNodeIds);
  const candidates = tried.flatMap((mention, order) => chainsForMention(graph, tokens, mention).map((chain) => ({ mention, chain, order })));
  candidates.sort((a, b) => b.chain.score - a.chain.score || a.order - b.order);
  // The best chain that leads somewhere: one that only returns to the topic answers nothing.
  const best = candidates.find((c) => reachesAnswer(graph, c.mention.nodeIds, c.chain.relations, exclude)) ?? null;
  const missing = entities.missing.map((m) => `"${m.text}"`);
  if (!best) {
    const why = named.length === 0
      ? `no entity of the graph is named in the question${missing.length ? ` (not in the graph: ${missing.join(", ")})` : ""}`
      : `no relation of ${named.map((m) => `"${m.text}"`).join(", ")} fits the question's words`;
    return { topic: named[0] ? { text: named[0].text, entities: named[0].nodeIds.map((id) => ({ id, label: graph.getNode(id)?.label ?? id })) } : null, steps: [], stepWords: {}, reason: why, score: 0, questionNodeIds };
  }
  const { mention, chain } = best;
  const topicEntities = mention.nodeIds.map((id) => ({ id, label: graph.getNode(id)?.label ?? id }));
  // The head as the graph spells it when the mention names one node, so the tool call resolves it exactly.
  const headName = topicEntities.length === 1 ? (topicEntities[0]?.label ?? mention.text) : mention.text;
  const steps: HeuristicAskPlan["steps"] = chain.relations.map((relation, i) => ({
    id: `Ans${i + 1}`,
    op: "search",
    targetType: "entity",
    head: i === 0 ? { entity: headName } : { ref: `Ans${i}` },
    relation,
  }));
  const stepWords: Record<string, string> = {};
  chain.words.forEach((w, i) => (stepWords[`Ans${i + 1}`] = w));
  const relationText = chain.relations.map((r, i) => `"${chain.words[i] ?? ""}" → ${r}`).join("; ");
  const reason = `Heuristic planner (not an LLM). Topic entity: "${mention.text}"${topicEntities.length > 1 ? ` (${topicEntities.length} nodes of that name)` : ""}. ${chain.kind === "siblings" ? "The question asks for entities sharing a relation with the topic, so the relation is followed there and back" : chain.kind === "two hops" ? "The question names two relations: the one next to the entity is the first hop" : "The question names one relation"}: ${relationText}.`;
  return { topic: { text: mention.text, entities: topicEntities }, steps, stepWords, reason, score: chain.score, questionNodeIds };
}
