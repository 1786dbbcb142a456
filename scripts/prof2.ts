import fs from "node:fs";
import { gunzipSync } from "node:zlib";
import { parseTriples, parseLabelFile } from "../lib/import/parse-triples";
import { queryGraph } from "../lib/retrieve/query-graph";
const labels = parseLabelFile(fs.readFileSync("../shared/data/fb15k237/entity2text.txt", "utf8"));
const graph = parseTriples(gunzipSync(fs.readFileSync("../shared/data/fb15k237/train.tsv.gz")).toString("utf8"), { labels });
queryGraph({ graph, question: "warm" });
const q = process.argv[2]!;
for (let i = 0; i < Number(process.argv[3] ?? 3); i++) { const t = performance.now(); const r = queryGraph({ graph, question: q, limit: 20 }); console.log(performance.now() - t, r.seeds.map(s=>s.label), r.nodes.length); }
