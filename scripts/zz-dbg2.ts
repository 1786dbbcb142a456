import { musique } from "../lib/loop/test-support";
import { reviewActions, documentIdsForReview } from "../lib/review/review-actions";
import type { RefinementAction } from "../lib/loop/types";
const ins = (subject: string, relation: string, object: string): RefinementAction => ({ type: "insert_edge", subject, relation, object });
const del = (subject: string, relation: string, object: string): RefinementAction => ({ type: "delete_edge", subject, relation, object });
const { graph, documents } = musique();
const all = new Map(documents.map((d) => [d.docId, d]));
const actions = [
      ins("Erik Erikson", "studied", "Adolescence"),
      ins("Anna Freud", "contemporary of", "Erik Erikson"),
      ins("United States", "borders", "Canada"),
      ins("American Psychological Association", "first president", "G. Stanley Hall"),
      del("Adolescence", "studied by", "G. Stanley Hall"),
      ins("Journal of Psychotherapy Integration", "published by", "American Psychological Association"),
      ins("Jennifer Callahan", "editor of", "Journal of Psychotherapy Integration"),
      ins("Jan Philip Solovej", "works at", "University of Copenhagen"),
      ins("Journal of Mathematical Physics", "publisher", "American Institute of Physics"),
      ins("Carl Rogers", "developed", "Person-centered therapy"),
      ins("Dave Feitl", "height", "6'11\""),
      ins("Pajapita", "owned by", "International Railways of Central America (IRCA)"),
      del("Journal of Psychotherapy Integration", "covers research in", "psychotherapy"),
      del("Statue of Liberty National Monument", "part of", "Liberty Island"),
      del("Rafael Núñez", "married to", "Soledad Román de Núñez"),
];
const docs = new Map(documentIdsForReview({ graph, actions }).map((id) => [id, all.get(id)!]));
for (const r of reviewActions({ graph, actions, documents: docs })) {
  console.log(r.confidence, r.score, r.text);
  for (const s of r.signals ?? []) console.log("   ", s.kind, s.contribution, s.positive ? "+" : "", s.strong ? "S" : "", s.summary.slice(0, 160));
  const t = r.evidence.find((e) => e.kind === "text"); if (t) console.log("    quote:", t.quote?.slice(0, 200));
  console.log("   ", r.reasons.at(-1));
}
