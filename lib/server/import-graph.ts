/**
 * Import a graph from a path (CLI, server "import from path") or from uploaded text (the
 * browser): detect the format, parse everything first, read the corpus, then write it all in
 * one transaction, so a bad file leaves nothing half-imported.
 */
import fs from "node:fs";
import path from "node:path";
import { AppError } from "../errors";
import type { KnowledgeGraph } from "../graph/model";
import type { CorpusDocument } from "../import/corpus";
import { documentIdsOf, sourcePathCandidates } from "../import/corpus";
import type { BundleQuestion } from "../import/parse-bundle";
import { parseBundle } from "../import/parse-bundle";
import { parseGraphifyJson } from "../import/parse-graphify";
import { parseLabelFile, parseTriples } from "../import/parse-triples";
import type { GraphFormat, GraphSummary } from "./graph-store";
import { createGraph } from "./graph-store";
import { readTextFile, statOrThrow } from "./read-input";

export interface ImportReport {
  graph: GraphSummary;
  format: GraphFormat;
  corpus: { read: number; missing: string[]; skipped: string[] };
}

export interface ImportPathOptions {
  path: string;
  name?: string;
  format?: GraphFormat;
  /** Project root holding the source files of a graphify graph (default: beside graph.json). */
  root?: string;
  /** `id<TAB>label` file for triple graphs (default: entity2text.txt beside the file, if any). */
  labels?: string;
  onProgress?: (message: string) => void;
}

interface ParsedInput {
  format: GraphFormat;
  graph: KnowledgeGraph;
  documents: CorpusDocument[];
  questions: BundleQuestion[];
  corpus: ImportReport["corpus"];
  defaultName: string;
}

function detectFormat(p: string, isDir: boolean): GraphFormat {
  if (isDir) {
    if (fs.existsSync(path.join(p, "triples.jsonl"))) return "bundle";
    if (fs.existsSync(path.join(p, "graph.json")) || fs.existsSync(path.join(p, "graphify-out", "graph.json"))) return "graphify";
    throw new AppError(
      "INVALID_INPUT",
      `${p}: a folder must hold graph.json, graphify-out/graph.json or a triples.jsonl bundle; use --format to say which`,
    );
  }
  if (/\.json$/i.test(p)) return "graphify";
  if (/\.jsonl$/i.test(p)) return "bundle";
  return "triples";
}

function graphifyFile(p: string, isDir: boolean): string {
  if (!isDir) return p;
  const direct = path.join(p, "graph.json");
  return fs.existsSync(direct) ? direct : path.join(p, "graphify-out", "graph.json");
}

function defaultNameFor(file: string): string {
  const abs = path.resolve(file);
  const base = path.basename(abs).replace(/\.(gz)$/i, "").replace(/\.[^.]+$/, "");
  if (base === "graph" || base === "triples" || base === "train" || base === "kb") {
    let dir = path.dirname(abs);
    if (path.basename(dir) === "graphify-out") dir = path.dirname(dir);
    return path.basename(dir);
  }
  return base;
}

/** Is `child` inside `root` (both real paths)? */
function isInside(root: string, child: string): boolean {
  const rel = path.relative(root, child);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
}

const MAX_SOURCE_FILE_BYTES = 4 * 1024 * 1024;

/**
 * Read the source files a graphify graph points at, confined to `root`: paths that resolve
 * outside it (through `..`, absolute paths or symlinks) are never read.
 */
export function readSourceFiles(graph: KnowledgeGraph, root: string): { documents: CorpusDocument[]; corpus: ImportReport["corpus"] } {
  const realRoot = fs.realpathSync(root);
  const wanted = new Set<string>();
  for (const n of graph.nodes.values()) for (const id of documentIdsOf(n)) wanted.add(id);
  for (const e of graph.edges.values()) for (const id of documentIdsOf(e)) wanted.add(id);
  const documents: CorpusDocument[] = [];
  const missing: string[] = [];
  const skipped: string[] = [];
  for (const sourceFile of [...wanted].sort()) {
    let found: string | null = null;
    for (const rel of sourcePathCandidates(sourceFile)) {
      const candidate = path.join(realRoot, rel);
      if (!fs.existsSync(candidate)) continue;
      const real = fs.realpathSync(candidate);
      if (!isInside(realRoot, real) || !fs.statSync(real).isFile()) continue;
      found = real;
      break;
    }
    if (!found) {
      missing.push(sourceFile);
      continue;
    }
    const size = fs.statSync(found).size;
    const bytes = size <= MAX_SOURCE_FILE_BYTES ? fs.readFileSync(found) : null;
    if (!bytes || bytes.includes(0)) {
      skipped.push(sourceFile);
      continue;
    }
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      skipped.push(sourceFile);
      continue;
    }
    documents.push({ docId: sourceFile, kind: "file", title: path.basename(found), path: path.relative(realRoot, found), text });
  }
  return { documents, corpus: { read: documents.length, missing, skipped } };
}

function parsePath(options: ImportPathOptions): ParsedInput {
  const input = path.resolve(options.path);
  const stat = statOrThrow(input);
  const isDir = stat.isDirectory();
  const format = options.format ?? detectFormat(input, isDir);
  const say = options.onProgress ?? (() => {});

  if (format === "graphify") {
    const file = graphifyFile(input, isDir);
    say(`reading ${file}`);
    const graph = parseGraphifyJson(readTextFile(file), { source: file });
    let root = options.root ? path.resolve(options.root) : path.dirname(file);
    if (!options.root && path.basename(root) === "graphify-out") root = path.dirname(root);
    if (options.root && !statOrThrow(root).isDirectory()) throw new AppError("INVALID_INPUT", `--root ${root} is not a folder`);
    say(`reading source files under ${root}`);
    const { documents, corpus } = readSourceFiles(graph, root);
    return { format, graph, documents, questions: [], corpus, defaultName: defaultNameFor(file) };
  }

  if (format === "bundle") {
    const dir = isDir ? input : path.dirname(input);
    const triplesFile = isDir ? path.join(dir, "triples.jsonl") : input;
    const optional = (name: string) => {
      const f = path.join(dir, name);
      return fs.existsSync(f) ? { name: f, text: readTextFile(f) } : undefined;
    };
    say(`reading bundle in ${dir}`);
    const parsed = parseBundle({
      triples: { name: triplesFile, text: readTextFile(triplesFile) },
      corpus: optional("corpus.jsonl"),
      questions: optional("questions.jsonl"),
    });
    return {
      format,
      ...parsed,
      corpus: { read: parsed.documents.length, missing: [], skipped: [] },
      defaultName: path.basename(dir),
    };
  }

  if (isDir) throw new AppError("INVALID_INPUT", `${input}: --format triples needs a file, not a folder`);
  let labelsFile = options.labels ? path.resolve(options.labels) : undefined;
  if (!labelsFile) {
    const beside = path.join(path.dirname(input), "entity2text.txt");
    if (fs.existsSync(beside)) labelsFile = beside;
  }
  say(`reading ${input}`);
  const labels = labelsFile ? parseLabelFile(readTextFile(labelsFile), labelsFile) : undefined;
  const graph = parseTriples(readTextFile(input), { source: input, labels });
  return { format, graph, documents: [], questions: [], corpus: { read: 0, missing: [], skipped: [] }, defaultName: defaultNameFor(input) };
}

export async function importGraphFromPath(options: ImportPathOptions): Promise<ImportReport> {
  const parsed = parsePath(options);
  const say = options.onProgress ?? (() => {});
  say(`parsed ${parsed.graph.nodes.size} nodes, ${parsed.graph.edges.size} edges, ${parsed.documents.length} documents; writing`);
  const graph = await createGraph({
    name: options.name ?? parsed.defaultName,
    format: parsed.format,
    sourcePath: path.resolve(options.path),
    graph: parsed.graph,
    documents: parsed.documents,
    questions: parsed.questions,
  });
  return { graph, format: parsed.format, corpus: parsed.corpus };
}

export interface ImportUploadOptions {
  name: string;
  fileName: string;
  text: string;
  format?: GraphFormat;
}

/** Import one uploaded file (graph.json or a triple file). */
export async function importGraphFromText(options: ImportUploadOptions): Promise<ImportReport> {
  const format = options.format ?? (/\.json$/i.test(options.fileName) ? "graphify" : "triples");
  if (format === "bundle") {
    throw new AppError("INVALID_INPUT", "a bundle is a folder of JSONL files: import it from a path on the server or with the CLI");
  }
  const graph =
    format === "graphify"
      ? parseGraphifyJson(options.text, { source: options.fileName })
      : parseTriples(options.text, { source: options.fileName });
  const summary = await createGraph({ name: options.name, format, sourcePath: null, graph });
  return { graph: summary, format, corpus: { read: 0, missing: [], skipped: [] } };
}
