/**
 * Import a graph from a path (CLI, server "import from path") or from uploaded text (the
 * browser): detect the format, parse, read the corpus, then write it all in one transaction
 * with its `graph.import` audit event, so a bad file (or a kill) leaves nothing half-imported
 * and no graph without its event.
 *
 * A triple file imported from a path is streamed, whatever its size: read in chunks, parsed
 * line by line and written in batches inside that one transaction (stream-triples.ts), so
 * memory stays flat and a bad line late in the file still rolls everything back. graphify
 * JSON, bundles and uploaded text are read whole (up to MAX_INPUT_BYTES).
 *
 * Inputs of WORKER_MIN_BYTES or more are parsed and written in a worker thread
 * (import-worker.ts) on its own database connection, so the server's event loop keeps serving
 * other requests; progress comes back as messages (`onProgress`, and `importsInProgress()`).
 */
import fs from "node:fs";
import path from "node:path";
import { AppError } from "../../errors";
import type { Actor } from "../../auth/permissions";
import type { KnowledgeGraph } from "../../graph/model";
import type { CorpusDocument } from "../../import/corpus";
import { documentIdsOf, sourcePathCandidates } from "../../import/corpus";
import type { BundleQuestion } from "../../import/parse-bundle";
import { parseBundle } from "../../import/parse-bundle";
import { parseGraphifyJson } from "../../import/parse-graphify";
import { parseLabelFile, parseTripleLines } from "../../import/parse-triples";
import type { TextChunks } from "./read-input";
import { readTextChunks, readTextFile, statOrThrow } from "./read-input";
import { startWorker } from "./start-worker";
import type { StreamedTriples } from "./stream-triples";
import { contentOfTripleStream } from "./stream-triples";
import type { GraphContent, GraphFormat, GraphSummary, StreamedContent } from "./write-graph";
import { contentOfGraph, contentOfTriples, writeGraph } from "./write-graph";

export interface ImportReport {
  graph: GraphSummary;
  format: GraphFormat;
  corpus: { read: number; missing: string[]; skipped: string[] };
  /** What the import changed and says so: labels over 1,000 characters shortened (lib/import/cap-label.ts). */
  warnings: string[];
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
  /** Who imports: the `graph.import` audit event is written in the import's transaction. */
  actor?: Actor;
  /** What the graph records as its source (default: the resolved path); null for an upload unpacked to a temporary folder. */
  sourcePath?: string | null;
  /** Parse and write in a worker thread (default: when the input is WORKER_MIN_BYTES or more). */
  worker?: boolean;
  /** What messages call the input instead of its path (an upload: the file name the client gave, not the temporary file's). */
  sourceName?: string;
  /** Read the source files a graphify graph points at (default true; an uploaded graph.json alone has none beside it). */
  sources?: boolean;
  /** The progress entry to report through (an upload's, begun while its bytes arrived); default: a new one for a worker import. */
  progress?: ImportTracker;
}

interface ParsedInput {
  format: GraphFormat;
  content: GraphContent | StreamedContent;
  /** A streamed triple file: read as the rows are written (progress by bytes read). */
  input?: { chunks: TextChunks; content: StreamedTriples };
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
    const size = fs.statSync(/*turbopackIgnore: true*/ found).size;
    const bytes = size <= MAX_SOURCE_FILE_BYTES ? fs.readFileSync(/*turbopackIgnore: true*/ found) : null;
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

function parsePath(options: ImportPathOptions & { onWarning?: (message: string) => void }): ParsedInput {
  const input = path.resolve(options.path);
  const stat = statOrThrow(input);
  const isDir = stat.isDirectory();
  const format = options.format ?? detectFormat(input, isDir);
  const say = options.onProgress ?? (() => {});

  const source = (file: string) => (options.sourceName !== undefined && !isDir ? options.sourceName : file);

  if (format === "graphify") {
    const file = graphifyFile(input, isDir);
    say(`reading ${source(file)}`);
    const graph = parseGraphifyJson(readTextFile(file, undefined, source(file)), { source: source(file), onWarning: options.onWarning });
    if (options.sources === false) {
      return { format, content: contentOfGraph(graph), documents: [], questions: [], corpus: { read: 0, missing: [], skipped: [] }, defaultName: defaultNameFor(file) };
    }
    let root = options.root ? path.resolve(options.root) : path.dirname(file);
    if (!options.root && path.basename(root) === "graphify-out") root = path.dirname(root);
    if (options.root && !statOrThrow(root).isDirectory()) throw new AppError("INVALID_INPUT", `--root ${root} is not a folder`);
    say(`reading source files under ${root}`);
    const { documents, corpus } = readSourceFiles(graph, root);
    return { format, content: contentOfGraph(graph), documents, questions: [], corpus, defaultName: defaultNameFor(file) };
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
      content: contentOfGraph(parsed.graph),
      documents: parsed.documents,
      questions: parsed.questions,
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
  if (labelsFile) say(`reading labels ${labelsFile}`);
  const labels = labelsFile ? parseLabelFile(readTextFile(labelsFile), labelsFile, { onWarning: options.onWarning }) : undefined;
  const chunks = readTextChunks(input, source(input));
  const content = contentOfTripleStream(chunks, source(input), labels);
  return { format, content, input: { chunks, content }, documents: [], questions: [], corpus: { read: 0, missing: [], skipped: [] }, defaultName: defaultNameFor(input) };
}

/** Inputs this big or bigger are imported in a worker thread (smaller ones parse in milliseconds). */
export const WORKER_MIN_BYTES = 1024 * 1024;

export async function importGraphFromPath(options: ImportPathOptions): Promise<ImportReport> {
  const { onProgress, progress, ...job } = options;
  const useWorker = options.worker ?? inputBytes(options) >= WORKER_MIN_BYTES;
  if (useWorker) return importInWorker({ kind: "path", options: job }, onProgress, options.actor, progress);
  const say = (message: string) => {
    progress?.set(message);
    onProgress?.(message);
  };
  return markAudited(await runImportJob({ kind: "path", options: job }, say, false), options.actor);
}

/** Bytes of the main input file of a path import (0 when it cannot be told: the import will say why). */
function inputBytes(options: ImportPathOptions): number {
  try {
    const input = path.resolve(/*turbopackIgnore: true*/ options.path);
    const stat = fs.statSync(input);
    if (!stat.isDirectory()) return stat.size;
    for (const f of [path.join(input, "triples.jsonl"), path.join(input, "graph.json"), path.join(input, "graphify-out", "graph.json")]) {
      if (fs.existsSync(/*turbopackIgnore: true*/ f)) return fs.statSync(/*turbopackIgnore: true*/ f).size;
    }
  } catch {
    // Missing input: the import itself reports it.
  }
  return 0;
}

export interface ImportUploadOptions {
  name: string;
  fileName: string;
  text: string;
  format?: GraphFormat;
  actor?: Actor;
  worker?: boolean;
  onProgress?: (message: string) => void;
}

/** Import one uploaded file (graph.json or a triple file). */
export async function importGraphFromText(options: ImportUploadOptions): Promise<ImportReport> {
  const { onProgress, ...job } = options;
  const useWorker = options.worker ?? options.text.length >= WORKER_MIN_BYTES;
  if (useWorker) return importInWorker({ kind: "text", options: job }, onProgress, options.actor);
  return markAudited(await runImportJob({ kind: "text", options: job }, onProgress ?? (() => {}), false), options.actor);
}

/** What a worker is asked to do (plain data: it crosses the thread boundary). */
export type ImportJob =
  | { kind: "path"; options: Omit<ImportPathOptions, "onProgress"> }
  | { kind: "text"; options: Omit<ImportUploadOptions, "onProgress"> };

/**
 * Parse and write one import here (in the worker, or in-process for small inputs). `bulk`:
 * this is the worker's own connection, tuned for one big write.
 */
export async function runImportJob(job: ImportJob, say: (message: string) => void, bulk: boolean): Promise<ImportReport> {
  let parsed: Omit<ParsedInput, "defaultName">;
  let name: string;
  let sourcePath: string | null;
  const warnings: string[] = [];
  const onWarning = (message: string) => {
    warnings.push(message);
    say(`warning: ${message}`);
  };
  if (job.kind === "path") {
    const { defaultName, ...rest } = parsePath({ ...job.options, onProgress: say, onWarning });
    parsed = rest;
    name = job.options.name ?? defaultName;
    sourcePath = job.options.sourcePath !== undefined ? job.options.sourcePath : path.resolve(job.options.path);
  } else {
    parsed = parseText(job.options, onWarning);
    name = job.options.name;
    sourcePath = null;
  }
  const { content, input } = parsed;
  if (input) say(`streaming ${job.kind === "path" ? (job.options.sourceName ?? path.resolve(job.options.path)) : "the input"} (${(input.chunks.fileBytes / 1024 / 1024).toFixed(1)} MiB): writing as it is read`);
  else if (!("stream" in content)) say(`parsed ${content.nodeCount} nodes, ${content.edgeCount} edges, ${parsed.documents.length} documents; writing`);
  let reported = 0;
  let written = 0;
  const started = performance.now();
  const rate = (done: number) => Math.round(done / Math.max(0.001, (performance.now() - started) / 1000)).toLocaleString("en-US");
  const graph = await writeGraph({
    name,
    format: parsed.format,
    sourcePath,
    content,
    documents: parsed.documents,
    questions: parsed.questions,
    actor: job.options.actor,
    bulk,
    onProgress: (done, total) => {
      written = done;
      if (input) {
        // Streamed: the total is an estimate, rows read so far over the share of the file read.
        const fraction = input.chunks.diskBytes / Math.max(1, input.chunks.fileBytes);
        const about = Math.max(done, Math.round(input.content.rowsRead / Math.max(fraction, 1e-6)));
        const tenth = Math.floor((10 * done) / Math.max(1, about));
        if (tenth > reported && done < about) {
          reported = tenth;
          say(`wrote ${done.toLocaleString("en-US")} of about ${about.toLocaleString("en-US")} rows (${Math.round(100 * fraction)}% of the file read, ${rate(done)} rows/s)`);
        }
        return;
      }
      // A line per tenth: a million rows should not print a thousand lines.
      const tenth = Math.floor((10 * done) / Math.max(1, total));
      if (tenth > reported && done < total) {
        reported = tenth;
        say(`wrote ${done.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} rows (${rate(done)} rows/s)`);
      }
    },
    onStep: (message) => say(`${written.toLocaleString("en-US")} rows written (${rate(written)} rows/s); ${message}`),
  });
  return { graph, format: parsed.format, corpus: parsed.corpus, warnings };
}

function parseText(options: Omit<ImportUploadOptions, "onProgress">, onWarning?: (message: string) => void): Omit<ParsedInput, "defaultName"> {
  const format = options.format ?? (/\.json$/i.test(options.fileName) ? "graphify" : "triples");
  if (format === "bundle") {
    throw new AppError("INVALID_INPUT", "a bundle is a folder of JSONL files: import it from a path on the server or with the CLI");
  }
  const content =
    format === "graphify"
      ? contentOfGraph(parseGraphifyJson(options.text, { source: options.fileName, onWarning }))
      : contentOfTriples(parseTripleLines(options.text, options.fileName));
  return { format, content, documents: [], questions: [], corpus: { read: 0, missing: [], skipped: [] } };
}

// ------------------------------------------------------------------------------ audit mark

const audited = new WeakSet<ImportReport>();

/** Whether the report's `graph.import` event was written with the import (recordImport then adds none). */
export function wasAudited(report: ImportReport): boolean {
  return audited.has(report);
}

function markAudited(report: ImportReport, actor: Actor | undefined): ImportReport {
  if (actor) audited.add(report);
  return report;
}

// ------------------------------------------------------------------------------ the worker

export interface ImportProgress {
  id: number;
  name: string | null;
  startedAt: string;
  message: string;
}

// On globalThis: Next.js gives routes separate module instances, and the list is one per server.
const globalForImports = globalThis as unknown as { refineryImports?: { running: Map<number, ImportProgress>; next: number } };
const imports = (globalForImports.refineryImports ??= { running: new Map<number, ImportProgress>(), next: 1 });
const running = imports.running;

/** Imports running in worker threads of this process, with their latest progress line. */
export function importsInProgress(): ImportProgress[] {
  return [...running.values()].map((p) => ({ ...p }));
}

/** An entry of `importsInProgress()` held by its caller: an upload's, from its first byte to the import's end. */
export interface ImportTracker {
  readonly id: number;
  set(message: string): void;
  /** The graph's name once it is known (an upload's name field may come after its file). */
  rename(name: string | null): void;
  /** Remove the entry (idempotent). */
  end(): void;
}

/** Begin a progress entry now (shown by GET /api/graphs/imports until `end()`). */
export function trackImport(name: string | null, message = "starting"): ImportTracker {
  const id = imports.next++;
  const progress: ImportProgress = { id, name, startedAt: new Date().toISOString(), message };
  running.set(id, progress);
  return {
    id,
    set: (m) => {
      progress.message = m;
    },
    rename: (n) => {
      progress.name = n;
    },
    end: () => {
      running.delete(id);
    },
  };
}

/** Messages from import-worker.ts. */
export type ImportWorkerMessage =
  | { type: "progress"; message: string }
  | { type: "done"; report: ImportReport }
  | { type: "error"; error: { name: string; message: string; code?: string; details?: Record<string, unknown>; stack?: string } };

function importInWorker(job: ImportJob, onProgress: ((message: string) => void) | undefined, actor: Actor | undefined, given?: ImportTracker): Promise<ImportReport> {
  const tracker = given ?? trackImport(job.options.name ?? null);
  if (given && job.options.name) given.rename(job.options.name);
  return new Promise<ImportReport>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      // The caller's entry is the caller's to end (an upload ends it once its folder is gone).
      if (!given) tracker.end();
      fn();
    };
    const worker = startWorker("import-worker", { job });
    worker.on("message", (m: ImportWorkerMessage) => {
      if (m.type === "progress") {
        tracker.set(m.message);
        onProgress?.(m.message);
      } else if (m.type === "done") {
        settle(() => resolve(markAudited(m.report, actor)));
      } else {
        settle(() => reject(rebuildError(m.error)));
      }
    });
    worker.on("error", (error) => settle(() => reject(error)));
    worker.on("exit", (code) => settle(() => reject(new Error(`the import worker stopped (exit code ${code}) before it finished; nothing was imported`))));
  });
}

function rebuildError(e: Extract<ImportWorkerMessage, { type: "error" }>["error"]): Error {
  const error =
    e.name === "AppError" && e.code ? new AppError(e.code as ConstructorParameters<typeof AppError>[0], e.message, e.details) : Object.assign(new Error(e.message), { code: e.code });
  if (e.stack) error.stack = e.stack;
  return error;
}
