/**
 * The JSONL bundle (shared/data/musique layout): `corpus.jsonl` passages, `triples.jsonl`
 * triples with the passage they were extracted from, and optional `questions.jsonl` with gold
 * answers. Passages are stored with the graph because later steps quote them as evidence.
 */
import { z } from "zod";
import { AppError } from "../errors";
import { KnowledgeGraph } from "../graph/model";
import { addTriples } from "./parse-triples";
import type { CorpusDocument } from "./corpus";

const passageSchema = z.object({ id: z.string().min(1), title: z.string().optional(), text: z.string() });
const tripleSchema = z.object({
  subject: z.string().min(1),
  relation: z.string().min(1),
  object: z.string().min(1),
  source: z.string().optional(),
});
const questionSchema = z.object({
  id: z.string().optional(),
  question: z.string().min(1),
  answers: z.array(z.string()).optional(),
  supporting: z.array(z.string()).optional(),
  hops: z.array(z.unknown()).optional(),
});

export type BundleQuestion = z.infer<typeof questionSchema>;

export interface BundleFiles {
  corpus?: { name: string; text: string };
  triples: { name: string; text: string };
  questions?: { name: string; text: string };
}

export interface ParsedBundle {
  graph: KnowledgeGraph;
  documents: CorpusDocument[];
  questions: BundleQuestion[];
}

/** Parse JSON Lines with a zod schema; errors name the file and line. */
export function parseJsonLines<T>(name: string, text: string, schema: z.ZodType<T>): T[] {
  const out: T[] = [];
  const lines = text.split("\n");
  lines.forEach((raw, i) => {
    const line = (i === 0 ? raw.replace(/^\uFEFF/, "") : raw).trim();
    if (!line) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      throw new AppError("PARSE_ERROR", `${name}: line ${i + 1}: invalid JSON (${(e as Error).message})`, { source: name, line: i + 1 });
    }
    const result = schema.safeParse(value);
    if (!result.success) {
      const issue = result.error.issues[0];
      const where = issue?.path.length ? `field "${issue.path.join(".")}"` : "record";
      throw new AppError("INVALID_INPUT", `${name}: line ${i + 1}: ${where}: ${issue?.message ?? "invalid"}`, {
        source: name,
        line: i + 1,
      });
    }
    out.push(result.data);
  });
  return out;
}

export function parseBundle(files: BundleFiles): ParsedBundle {
  const passages = files.corpus ? parseJsonLines(files.corpus.name, files.corpus.text, passageSchema) : [];
  const seen = new Set<string>();
  const documents: CorpusDocument[] = passages.map((p, i) => {
    if (seen.has(p.id)) {
      throw new AppError("INVALID_INPUT", `${files.corpus?.name}: passage ${i + 1}: duplicate id ${JSON.stringify(p.id)}`, {
        source: files.corpus?.name,
      });
    }
    seen.add(p.id);
    return { docId: p.id, kind: "passage", title: p.title ?? null, path: null, text: p.text };
  });

  const triples = parseJsonLines(files.triples.name, files.triples.text, tripleSchema);
  if (triples.length === 0) throw new AppError("PARSE_ERROR", `${files.triples.name}: no triples found (the file is empty)`);
  if (files.corpus) {
    const unknown = triples.find((t) => t.source !== undefined && !seen.has(t.source));
    if (unknown) {
      throw new AppError(
        "INVALID_INPUT",
        `${files.triples.name}: triple (${unknown.subject} | ${unknown.relation} | ${unknown.object}) cites passage ${JSON.stringify(unknown.source)}, which is not in ${files.corpus.name}`,
      );
    }
  }
  const graph = new KnowledgeGraph({
    top: { directed: true, multigraph: true, graph: {}, nodes: null, links: null },
    linksKey: "links",
  });
  addTriples(
    graph,
    triples.map((t) => ({
      subject: t.subject,
      relation: t.relation,
      object: t.object,
      extra: t.source !== undefined ? { source_passage: t.source } : undefined,
    })),
  );
  const questions = files.questions ? parseJsonLines(files.questions.name, files.questions.text, questionSchema) : [];
  return { graph, documents, questions };
}
