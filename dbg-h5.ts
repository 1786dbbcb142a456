import fs from "node:fs";
import { runAsk } from "./lib/ask/run-ask";
import { metaqa } from "./lib/loop/test-support";
import { useDefaultLexicon } from "./lib/server/wordnet-lexicon";
useDefaultLexicon();
const g = metaqa();
const file = process.argv[2] ?? "questions-1hop.jsonl";
const lines = fs.readFileSync(`../shared/data/metaqa/${file}`, "utf8").split("\n").filter(Boolean).slice(1000, 1000 + Number(process.argv[3] ?? 60));
const norm = (s: string) => s.toLowerCase();
for (const l of lines) {
  const q = JSON.parse(l) as { question: string; answers: string[]; qtype: string; kb_status: string };
  if (q.kb_status !== "exact") continue;
  const question = q.question.replace(/\[([^\]]+)\]/g, "$1");
  const t = await runAsk({ graph: g, question });
  const ok = t.answers[0] && q.answers.map(norm).includes(norm(t.answers[0].label));
  if (!ok) console.log(q.qtype, "|", question, "| gold", q.answers.slice(0, 3).join(";"), "| got", t.answers.slice(0, 3).map((a) => a.label).join(";"), "\n   ", t.think.slice(0, 300));
}
