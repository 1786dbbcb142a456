import { runAsk } from "./lib/ask/run-ask";
import { musique } from "./lib/loop/test-support";
import { useDefaultLexicon } from "./lib/server/wordnet-lexicon";
useDefaultLexicon();
const b = musique();
let i = 0;
for (const q of b.questions) {
  const hop = q.hops?.[0] as { question: string; answer: string; supporting: string };
  const t = await runAsk({ graph: b.graph, question: hop.question, documents: b.documents, corpusFallback: true });
  const c = t.calls.find((c) => c.tool === "web_search");
  if (!c) continue;
  if (i++ > 14) break;
  console.log("Q:", hop.question, "| gold:", hop.answer, "| sup", hop.supporting);
  console.log("  got:", t.answers.slice(0, 4).map((a) => a.label).join(" ; "));
  console.log("  top:", c.passages?.slice(0, 2).map((p) => p.docId + " " + p.quote.slice(0, 250)).join("\n       "));
}
