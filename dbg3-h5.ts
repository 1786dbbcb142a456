import { metaqa } from "./lib/loop/test-support";
import { useDefaultLexicon } from "./lib/server/wordnet-lexicon";
import { getRelationRanker } from "./lib/retrieve/rank-relations";
console.log(useDefaultLexicon());
const g = metaqa();
const r = getRelationRanker(g);
for (const q of ["who appeared in the same movie with", "what does appear in", "which movies did direct", "who acted in"]) {
  console.log(q, JSON.stringify(r.rank(q, undefined, 4).map(x=>[x.relation, +x.score.toFixed(2), r.explain(q, x.relation)])));
}
