/**
 * Question words → the graph's relations (issue #11). One ranker for the loop's k-hop
 * expansion, Ask's relation_search, the heuristic judge and the review.
 *
 * CONTRACT (other modules depend on it; extend, do not break):
 *   getRelationRanker(graph, { lexicon?, descriptions? }) → RelationRanker (cached per graph)
 *   ranker.score(text, relation) → number ≥ 0 (0 = unrelated)
 *   ranker.rank(text, relations?, limit?) → RankedRelation[] best first (only score > 0)
 *
 * This first version only meets stems of question words with relation-name words; the full
 * ranker (morphology, WordNet, descriptions, graph statistics, embeddings) replaces the body.
 */
import type { KnowledgeGraph } from "../graph/model";
import { getQueryIndex, prepareTerms, questionTerms, relationRelevance } from "./query-graph";

/** Lexical relations of a word (synonyms, derivationally related forms), lower-case lemmas. */
export interface Lexicon {
  related(word: string): readonly string[];
}

export interface RelationRankerOptions {
  lexicon?: Lexicon;
  /** Relation → a description of it in words (FB15k-237's relation2text.txt). */
  descriptions?: ReadonlyMap<string, string>;
}

export type MatchVia = "exact" | "stem" | "morphology" | "lexicon" | "description" | "statistics" | "embedding";

export interface RelationMatch {
  /** The question word. */
  word: string;
  /** The relation (or description) word it met. */
  relationWord: string;
  via: MatchVia;
}

export interface RankedRelation {
  relation: string;
  score: number;
  matches: RelationMatch[];
}

export interface RelationRanker {
  score(text: string, relation: string): number;
  rank(text: string, relations?: Iterable<string>, limit?: number): RankedRelation[];
}

const cache = new WeakMap<KnowledgeGraph, RelationRanker>();

export function getRelationRanker(graph: KnowledgeGraph, _options: RelationRankerOptions = {}): RelationRanker {
  const hit = cache.get(graph);
  if (hit) return hit;
  const index = getQueryIndex(graph);
  const allRelations = (): string[] => {
    const set = new Set<string>();
    for (const e of graph.edges.values()) set.add(e.relation);
    return [...set];
  };
  const ranker: RelationRanker = {
    score(text, relation) {
      return relationRelevance(index, relation, prepareTerms(index, questionTerms(text)));
    },
    rank(text, relations, limit = 15) {
      const terms = prepareTerms(index, questionTerms(text));
      const out: RankedRelation[] = [];
      for (const relation of relations ?? allRelations()) {
        const score = relationRelevance(index, relation, terms);
        if (score > 0) out.push({ relation, score, matches: [] });
      }
      out.sort((a, b) => b.score - a.score || a.relation.localeCompare(b.relation));
      return out.slice(0, limit);
    },
  };
  cache.set(graph, ranker);
  return ranker;
}
