import { runAsk } from "./lib/ask/run-ask";
import { parseBundle } from "./lib/import/parse-bundle";
import { readData } from "./lib/test/data";
const tr = readData("musique", "triples.jsonl");
for (const drop of [false, true]) {
  const lines = tr.split("\n").filter((l) => l.trim() && !(drop && l.includes("Journal of Psychotherapy Integration")));
  const b = parseBundle({ corpus: { name: "c", text: readData("musique", "corpus.jsonl") }, triples: { name: "t", text: lines.join("\n") } });
  const t = await runAsk({ graph: b.graph, question: "What company published Journal of Psychotherapy Integration?", documents: b.documents });
  console.log(drop, t.status, t.think, "\n", t.answers.slice(0, 3), t.calls.map((c) => c.tool + " " + JSON.stringify(c.input)));
}
