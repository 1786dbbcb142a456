import fs from "node:fs";
import { normalizeLabel } from "../lib/graph/normalize";
import { parseTriples } from "../lib/import/parse-triples";
import { useDefaultLexicon } from "../lib/server/wordnet-lexicon";
useDefaultLexicon();
import { runHopLoop } from "../lib/loop/run-hop-loop";
import { answerHeuristically } from "../lib/providers/heuristic";
import { findQuestionEntities } from "../lib/providers/heuristic/question-entities";
const g = parseTriples(fs.readFileSync("../shared/data/metaqa/kb.txt", "utf8"), { source: "kb" });
const file = process.argv[2]!; const n = Number(process.argv[3] ?? 40); const never = process.argv.includes("--never");
function hash(t: string) { let h = 0x811c9dc5; for (let i = 0; i < t.length; i++) { h ^= t.charCodeAt(i); h = Math.imul(h, 0x01000193) >>> 0; } return h; }
const qs = fs.readFileSync(`../shared/data/metaqa/${file}`, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
const dev = qs.sort((a: any, b: any) => hash(a.id) - hash(b.id)).filter((q: any) => hash(`split:${q.id}`) % 2 === 1).slice(0, 300);
let shown = 0;
(async () => {
for (const q of dev) {
  const question = q.question.replace(/\[([^\]]+)\]/g, "$1");
  const provider: any = { name: "heuristic", model: "x", isLlm: false, async complete(r: any) { return { text: r.task === "judge" ? (never ? "<judge>No</judge>" : answerHeuristically(r.context)) : r.task === "abduction" ? "<abduction>x</abduction>" : "<refinement></refinement>" }; } };
  const tr = await runHopLoop({ graph: g, question, queryId: q.id, provider, loadDocuments: async () => [] });
  const gold = new Set(q.answers.map(normalizeLabel));
  const last = process.argv.includes("--yes1") ? tr.steps[0]! : tr.steps[Math.min(2, tr.steps.length - 1)]!; if (process.argv.includes("--yes1") && !last.answerable) continue;
  const hit = last.triples.some((t) => gold.has(normalizeLabel(t.subject)) || gold.has(normalizeLabel(t.object)));
  if (hit) continue;
  if (shown++ >= n) break;
  const ents = findQuestionEntities({ graph: g, question });
  console.log(`\n## ${question}  [${q.qtype}] gold=${q.answers.slice(0, 4).join("; ")} kb=${q.kb_status}`);
  console.log(`mentions: ${ents.mentions.map((m) => m.text).join(" | ")} rel=${ents.relationWords.join(" ")}`);
  for (const s of tr.steps) console.log(`  step ${s.step} ${s.answerable ? "YES" : "no"} ${s.judgementRaw.split("\n")[0]!.slice(0, 150)}\n    ${s.triples.map((t) => `${t.subject}|${t.relation}|${t.object}`).join("  ").slice(0, 700)}`);
}
})();
