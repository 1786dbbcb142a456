/**
 * `npm run eval:loop`: how often the hop loop's capped triples hold a gold answer, by step, on
 * MetaQA 1-hop and 2-hop questions asked as a person would (brackets stripped) and on the
 * MuSiQue bundle. Not a test: it prints markdown tables for the README.
 *
 * The questions go through the real `runHopLoop` (step 1 query, k-hop expansion, the heuristic
 * judge stopping at its first Yes). Abduction and refinement are answered empty: they come after
 * the last step and change nothing measured here, and skipping them keeps 600 runs fast.
 * Two rows per set: "loop" (stops at the judge's first Yes, what a run retrieves) and
 * "retrieval" (a judge that never says Yes, so all four steps run: what retrieval can reach).
 *
 * Sampling is deterministic: questions are ordered by a hash of their id and split in two
 * halves, `dev` and `test` (held out; the default). `--n 300` per set (default), `--all` for
 * the whole split, `--split dev|test|all`. `--baseline` ranks relations by stem overlap with
 * relation names only (the ranker's `mode: "names"`: no WordNet, descriptions, answer types or
 * graph statistics), everything else as in the full run: the ranker's own share of the gain.
 * `--speed`: p50/p95 of the 1-hop expansion on FB15k-237 and MetaQA, questions built as
 * `npm run bench` builds them (in memory, no database).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import type { KnowledgeGraph, Triple } from "../lib/graph/model";
import { normalizeLabel } from "../lib/graph/normalize";
import { parseBundle } from "../lib/import/parse-bundle";
import { parseLabelFile, parseTriples } from "../lib/import/parse-triples";
import { runHopLoop } from "../lib/loop/run-hop-loop";
import type { CompletionRequest, LlmProvider } from "../lib/loop/types";
import { answerHeuristically } from "../lib/providers/heuristic";
import { expandHops } from "../lib/retrieve/expand-hops";
import { queryGraph } from "../lib/retrieve/query-graph";
import { configureRelationRanker } from "../lib/retrieve/rank-relations";
import { useDefaultLexicon } from "../lib/server/graphs/wordnet-lexicon";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const data = path.resolve(root, "..", "shared", "data");
const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const value = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? (args[i + 1] as string) : fallback;
};
const baseline = flag("--baseline");
const all = flag("--all");
const perSet = Number(value("--n", "300"));
const split = value("--split", "test");
const STEPS = 4;

interface EvalQuestion {
  id: string;
  question: string;
  answers: string[];
  topic: string | null;
}

/** FNV-1a: a stable order that does not depend on the file's order. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

function sample<T extends { id: string }>(items: T[]): T[] {
  const ordered = [...items].sort((a, b) => hash(a.id) - hash(b.id) || (a.id < b.id ? -1 : 1));
  const half = ordered.filter((q) => split === "all" || (hash(`split:${q.id}`) % 2 === 0) === (split === "dev"));
  return all ? half : half.slice(0, perSet);
}

function readMetaqa(file: string): EvalQuestion[] {
  return fs
    .readFileSync(path.join(data, "metaqa", file), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => {
      const q = JSON.parse(l) as { id: string; question: string; answers: string[] };
      return {
        id: q.id,
        question: q.question.replace(/\[([^\]]+)\]/g, "$1"),
        answers: q.answers,
        topic: /\[([^\]]+)\]/.exec(q.question)?.[1] ?? null,
      };
    });
}

/** The heuristic judge; abduction and refinement answered empty (see the header). */
function evalProvider(judge: "heuristic" | "never"): LlmProvider {
  return {
    name: "heuristic",
    model: `eval-${judge}`,
    isLlm: false,
    async complete(request: CompletionRequest) {
      if (request.task === "judge") {
        return { text: judge === "never" ? "<judge>No</judge>" : answerHeuristically(request.context) };
      }
      return { text: request.task === "abduction" ? "<abduction>not evaluated</abduction>" : "<refinement></refinement>" };
    },
  };
}

type Matcher = (triples: readonly Triple[], answers: readonly string[]) => boolean;

const exactMatch: Matcher = (triples, answers) => {
  const gold = new Set(answers.map(normalizeLabel));
  return triples.some((t) => gold.has(normalizeLabel(t.subject)) || gold.has(normalizeLabel(t.object)));
};

/** MuSiQue's answers are free text and its triples LLM-extracted: containment either way. */
const looseMatch: Matcher = (triples, answers) => {
  const gold = answers.map(normalizeLabel).filter((g) => g.length > 0);
  const meets = (label: string) => {
    const l = normalizeLabel(label);
    return gold.some((g) => l === g || (g.length >= 3 && l.includes(g)) || (l.length >= 3 && g.includes(l)));
  };
  return triples.some((t) => meets(t.subject) || meets(t.object));
};

interface Row {
  n: number;
  topic: number;
  topicAsked: number;
  goldBy: number[];
  yes: number;
  prematureYes: number;
  yesStep1: number;
  prematureStep1: number;
  ms: number;
}

async function evaluate(graph: KnowledgeGraph, questions: EvalQuestion[], judge: "heuristic" | "never", match: Matcher): Promise<Row> {
  const provider = evalProvider(judge);
  const row: Row = { n: 0, topic: 0, topicAsked: 0, goldBy: new Array<number>(STEPS).fill(0), yes: 0, prematureYes: 0, yesStep1: 0, prematureStep1: 0, ms: 0 };
  const started = performance.now();
  for (const q of questions) {
    const trace = await runHopLoop({ graph, question: q.question, queryId: q.id, provider, loadDocuments: async () => [] });
    row.n++;
    const steps = trace.steps;
    if (q.topic !== null) {
      row.topicAsked++;
      const topic = graph.idsByNormLabel(normalizeLabel(q.topic));
      const first = steps[0]?.triples ?? [];
      if (first.some((t) => topic.has(t.subject_id) || topic.has(t.object_id))) row.topic++;
    }
    for (let k = 0; k < STEPS; k++) {
      const step = steps[Math.min(k, steps.length - 1)];
      if (step && match(step.triples, q.answers)) row.goldBy[k] = (row.goldBy[k] ?? 0) + 1;
    }
    const yes = steps.find((s) => s.answerable);
    if (yes) {
      row.yes++;
      const premature = !match(yes.triples, q.answers);
      if (premature) row.prematureYes++;
      if (yes.step === 1) {
        row.yesStep1++;
        if (premature) row.prematureStep1++;
      }
    }
  }
  row.ms = performance.now() - started;
  return row;
}

const pct = (a: number, b: number) => (b === 0 ? "–" : `${((100 * a) / b).toFixed(1)}%`);

function printRows(title: string, rows: [string, Row][]): void {
  console.log(`\n### ${title}\n`);
  console.log("| run | questions | topic entity in step-1 triples | gold by step 1 | by step 2 | by step 3 | by step 4 | premature Yes (of Yes) | premature Yes at step 1 | time |");
  console.log("|---|---|---|---|---|---|---|---|---|---|");
  for (const [name, r] of rows) {
    const gold = r.goldBy.map((g) => pct(g, r.n)).join(" | ");
    const yes = name === "retrieval" ? "– | –" : `${r.prematureYes} of ${r.yes} (${pct(r.prematureYes, r.yes)}) | ${r.prematureStep1} of ${r.yesStep1}`;
    console.log(`| ${name} | ${r.n} | ${r.topicAsked ? pct(r.topic, r.topicAsked) : "–"} | ${gold} | ${yes} | ${(r.ms / 1000).toFixed(1)} s |`);
  }
}

function loadMetaqa(): KnowledgeGraph {
  return parseTriples(fs.readFileSync(path.join(data, "metaqa", "kb.txt"), "utf8"), { source: "kb.txt" });
}

function loadFb15k(): KnowledgeGraph {
  const dir = path.join(data, "fb15k237");
  const labels = parseLabelFile(fs.readFileSync(path.join(dir, "entity2text.txt"), "utf8"));
  const graph = parseTriples(zlib.gunzipSync(fs.readFileSync(path.join(dir, "train.tsv.gz"))).toString("utf8"), { source: "train.tsv", labels });
  return graph;
}

function readDescriptions(file: string): Map<string, string> {
  return parseLabelFile(fs.readFileSync(file, "utf8"), file);
}

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, i)] ?? NaN;
}

/** The 1-hop expansion timing of `npm run bench`, on an in-memory graph. */
function speed(name: string, graph: KnowledgeGraph): void {
  const edges = [...graph.edges.values()];
  const nodes = [...graph.nodes.values()];
  const questions: string[] = [];
  for (let i = 0; i < 200; i++) {
    const e = edges[(i * 7919) % edges.length];
    if (!e) continue;
    const subject = graph.getNode(e.source)?.label ?? e.source;
    questions.push(`What is the ${e.relation.split(/[/._]/).filter(Boolean).slice(-2).join(" ")} of ${subject}?`);
  }
  const entitySets = questions.map((question, i) => {
    const result = queryGraph({ graph, question, limit: 20 });
    const set = new Set<string>();
    for (const t of result.triples.slice(0, 10)) set.add(t.subject_id).add(t.object_id);
    if (set.size === 0) set.add((nodes[i % nodes.length] as { id: string }).id);
    return [...set];
  });
  expandHops({ graph, entities: entitySets[0] ?? [], question: questions[0] as string, hops: 1, cap: 10 });
  const samples = entitySets.map((entities, i) => {
    const t = performance.now();
    expandHops({ graph, entities, question: questions[i] as string, hops: 1, cap: 10 });
    return performance.now() - t;
  });
  samples.sort((a, b) => a - b);
  console.log(`${name}: 1-hop expansion (cap 10) p50 ${percentile(samples, 50).toFixed(2)} ms, p95 ${percentile(samples, 95).toFixed(2)} ms, max ${percentile(samples, 100).toFixed(2)} ms (n=${samples.length})`);
}

async function main(): Promise<void> {
  if (!baseline) useDefaultLexicon();
  const mode = baseline ? "names" : "full";
  console.log(`eval:loop — relation ranking: ${mode}${baseline ? " (stem overlap with relation names only: no lexicon, descriptions or statistics)" : ""}; split ${split}; ${all ? "all" : perSet} questions per set`);
  if (flag("--speed")) {
    const fb = loadFb15k();
    configureRelationRanker(fb, { mode, descriptions: readDescriptions(path.join(data, "fb15k237", "relation2text.txt")) });
    speed("FB15k-237", fb);
    const mq = loadMetaqa();
    configureRelationRanker(mq, { mode });
    speed("MetaQA", mq);
    return;
  }

  const metaqa = loadMetaqa();
  configureRelationRanker(metaqa, { mode });
  for (const [hops, file] of [
    ["1-hop", "questions-1hop.jsonl"],
    ["2-hop", "questions-2hop.jsonl"],
  ] as const) {
    const questions = sample(readMetaqa(file));
    const loop = await evaluate(metaqa, questions, "heuristic", exactMatch);
    const reach = await evaluate(metaqa, questions, "never", exactMatch);
    printRows(`MetaQA ${hops} (brackets stripped, ${split} split)`, [
      ["loop", loop],
      ["retrieval", reach],
    ]);
  }

  const dir = path.join(data, "musique");
  const bundle = parseBundle({
    corpus: { name: "corpus.jsonl", text: fs.readFileSync(path.join(dir, "corpus.jsonl"), "utf8") },
    triples: { name: "triples.jsonl", text: fs.readFileSync(path.join(dir, "triples.jsonl"), "utf8") },
    questions: { name: "questions.jsonl", text: fs.readFileSync(path.join(dir, "questions.jsonl"), "utf8") },
  });
  configureRelationRanker(bundle.graph, { mode });
  const musique = bundle.questions.map((q, i) => ({ id: q.id ?? `q${i}`, question: q.question, answers: q.answers ?? [], topic: null }));
  printRows(`MuSiQue (all ${musique.length} questions)`, [
    ["loop", await evaluate(bundle.graph, musique, "heuristic", looseMatch)],
    ["retrieval", await evaluate(bundle.graph, musique, "never", looseMatch)],
  ]);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
