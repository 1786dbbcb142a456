/**
 * The project folder `deeprefine` works on, and all of its file I/O: where graph.json and the
 * `.deeprefine/` state live, reading inputs with errors that name the file, and atomic writes
 * (temp file + rename in the same folder, so a crash never leaves half a graph.json).
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { AppError } from "../../lib/errors";
import type { KnowledgeGraph } from "../../lib/graph/model";
import { parseGraphifyJson } from "../../lib/import/parse-graphify";
import type { JsonObject } from "../../lib/json/lossless-json";
import { isJsonObject, parseLosslessJson } from "../../lib/json/lossless-json";
import type { LoadedTrace } from "../../lib/loop/deeprefine-files";
import { loadDeepRefineTrace } from "../../lib/loop/deeprefine-files";
import { checkSize, decodeText } from "../../lib/server/graphs/read-input";
import type { Io } from "../output";

/** What every command gets: output, the working directory and the clock (both injectable for tests). */
export interface Context {
  io: Io;
  cwd: string;
  now: () => Date;
}

export interface ProjectPaths {
  root: string;
  out: string;
  graph: string;
  state: string;
  history: string;
  memory: string;
  wiki: string;
  versions: string;
  /** The skill's one-time backup, kept for agents that check for it. */
  legacyBackup: string;
  reviewReport: string;
}

export interface RootOptions {
  root?: string;
  projectRoot?: string;
}

/**
 * `--root` / `--project-root` when given; else, like the skill, the nearest folder from the
 * working directory upwards that holds graphify-out/graph.json; else the working directory.
 */
export function projectPaths(opts: RootOptions, cwd: string): ProjectPaths {
  const given = opts.root ?? opts.projectRoot;
  let root: string;
  if (given !== undefined) {
    root = path.resolve(cwd, given);
    if (!isDir(root)) throw new AppError("NOT_FOUND", `${root}: project folder not found`, { source: root });
  } else {
    root = path.resolve(cwd);
    for (let dir = root; ; dir = path.dirname(dir)) {
      if (isFile(path.join(dir, "graphify-out", "graph.json"))) {
        root = dir;
        break;
      }
      if (path.dirname(dir) === dir) break;
    }
  }
  const out = path.join(root, "graphify-out");
  const state = path.join(out, ".deeprefine");
  return {
    root,
    out,
    graph: path.join(out, "graph.json"),
    state,
    history: path.join(state, "history.jsonl"),
    memory: path.join(out, "memory"),
    wiki: path.join(out, "wiki"),
    versions: path.join(state, "versions"),
    legacyBackup: path.join(state, "graph.json.bak"),
    reviewReport: path.join(state, "proposed_refinement_review.md"),
  };
}

/** Every command takes the project folder as `--root` (ours) or `--project-root` (the skill's). */
export function rootOptions(cmd: Command): Command {
  return cmd
    .option("--root <dir>", "project folder holding graphify-out/ (default: found from the current directory upwards)")
    .option("--project-root <dir>", "same as --root (the skill's name for it)");
}

export function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

export function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * A path flag: absolute as is; relative to the working directory when that exists, else to the
 * project root (agents write `graphify-out/.deeprefine/…` paths relative to the project).
 */
export function resolveInput(file: string, paths: ProjectPaths, cwd: string): string {
  if (path.isAbsolute(file)) return file;
  const fromCwd = path.resolve(cwd, file);
  if (fs.existsSync(fromCwd)) return fromCwd;
  const fromRoot = path.resolve(paths.root, file);
  return fs.existsSync(fromRoot) ? fromRoot : fromCwd;
}

export function readBytes(file: string): Buffer {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    throw new AppError("NOT_FOUND", `${file}: no such file`, { source: file });
  }
  if (!stat.isFile()) throw new AppError("INVALID_INPUT", `${file}: not a file`, { source: file });
  checkSize(stat.size, file);
  return fs.readFileSync(file);
}

export function readText(file: string): string {
  return decodeText(readBytes(file), file);
}

export function sha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

export function writeFileAtomic(file: string, data: string | Uint8Array): void {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true });
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${Date.now()}.tmp`);
  try {
    fs.writeFileSync(tmp, data);
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}

export function appendLine(file: string, line: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.appendFileSync(file, line);
}

export interface GraphFile {
  file: string;
  bytes: Buffer;
  text: string;
  graph: KnowledgeGraph;
  sha256: string;
}

export function readGraphFile(file: string): GraphFile {
  if (!isFile(file)) {
    throw new AppError("NOT_FOUND", `${file}: no graph.json here (run graphify first, or pass --root <project folder>)`, { source: file });
  }
  const bytes = readBytes(file);
  const text = decodeText(bytes, file);
  return { file, bytes, text, graph: parseGraphifyJson(text, { source: file }), sha256: sha256(bytes) };
}

/** A graph.json written by us keeps the original file's trailing whitespace (graphify writes none). */
export function withTrailing(original: string, text: string): string {
  return text + (/\s*$/.exec(original)?.[0] ?? "");
}

export interface TraceFile {
  file: string;
  /** The file as parsed, lossless: logged verbatim by `loop finish`. */
  raw: JsonObject;
  trace: LoadedTrace;
}

export function readTraceFile(file: string): TraceFile {
  const text = readText(file);
  let raw;
  try {
    raw = parseLosslessJson(text, { source: file });
  } catch (e) {
    throw new AppError("PARSE_ERROR", e instanceof Error ? e.message : `${file}: invalid JSON`, { source: file });
  }
  if (!isJsonObject(raw)) throw new AppError("INVALID_INPUT", `${file}: expected a JSON object (a loop_trace_<id>.json)`, { source: file });
  // zod reads plain values: LosslessNumber → number through its toJSON.
  const plain: unknown = JSON.parse(JSON.stringify(raw));
  return { file, raw, trace: loadDeepRefineTrace(plain, { source: file }) };
}

/** Path shown to people and recorded in files: relative to the project root when inside it. */
export function display(paths: ProjectPaths, file: string): string {
  const rel = path.relative(paths.root, file);
  return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel : file;
}

/** The command already explained the failure on stderr: exit 1 without another message. */
export class CommandFailed extends Error {}

/** Print each line on stderr, then fail with exit 1. */
export function failWith(ctx: Context, lines: string[]): never {
  for (const line of lines) ctx.io.err(line);
  throw new CommandFailed();
}
