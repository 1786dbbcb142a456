import { parseBundle } from "../lib/import/parse-bundle";
import { findStatements, matchTerms } from "../lib/review/text-evidence";
import { readData } from "../lib/test/data";
const corpus = readData("musique", "corpus.jsonl");
const docs = parseBundle({ corpus: { name: "corpus.jsonl", text: corpus }, triples: { name: "t.jsonl", text: JSON.stringify({subject:"a",relation:"b",object:"c",source:"musique-p0000"}) } }).documents;
const d = docs.find((x) => x.docId === process.argv[2])!;
console.log(findStatements({ documents: [d], a: matchTerms({ name: process.argv[3]! }), b: matchTerms({ name: process.argv[5]! }), relation: process.argv[4]!, limit: 3 }).map((s) => [s.kind, s.quote.slice(0, 150), s.note]));
