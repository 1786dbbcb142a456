import { parseBundle } from "../lib/import/parse-bundle";
import { readData } from "../lib/test/data";
import { findStatements, matchTerms } from "../lib/review/text-evidence";
const b = parseBundle({ corpus: { name: "c", text: readData("musique", "corpus.jsonl") }, triples: { name: "t", text: readData("musique", "triples.jsonl") } });
const docs = new Map(b.documents.map((d) => [d.docId, d]));
const cases: Array<[string, string, string, string]> = [
  ["musique-p1369", "Renaissance", "is a period in", "European history"],
  ["musique-p1396", "Swan song", "refers to", "performance"],
  ["musique-p0906", "Metamora Township", "located in", "Township 27 North, Range 2 West"],
  ["musique-p0627", "Big Basin", "is", "crater-like depression"],
  ["musique-p0567", "Wyandot County", "located in", "Ohio"],
  ["musique-p0266", "ZAR", "from", "Dutch"],
];
for (const [id, s, r, o] of cases) {
  const st = findStatements({ documents: [docs.get(id)!], a: matchTerms({ name: s }), b: matchTerms({ name: o }), relation: r });
  console.log(id, s, "|", r, "|", o);
  for (const x of st) console.log("   ", x.kind, JSON.stringify(x.quote.slice(0, 300)));
}
