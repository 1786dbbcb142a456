/**
 * Unpacking an uploaded project (a `.zip`, or a folder's files with their relative paths) into
 * a fresh private folder, so it is imported exactly as a path import is, confined there.
 *
 * Refused, with the entry named: absolute paths and `..` (zip-slip), symbolic links, encrypted
 * entries, names that appear twice, more than `maxEntries` entries, more than `maxBytes` bytes
 * unpacked in all (counted while inflating, and checked against the sizes the archive declares
 * before anything is written, so a zip bomb stops early). Only regular files and folders are
 * ever created.
 */
import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import yauzl from "yauzl";
import { AppError } from "../../../errors";
import { MAX_INPUT_BYTES } from "../read-input";

export interface UnpackLimits {
  maxEntries: number;
  /** Bytes of all files together, unpacked. */
  maxBytes: number;
}

export const UPLOAD_LIMITS: UnpackLimits = { maxEntries: 20_000, maxBytes: MAX_INPUT_BYTES };

export interface UnpackReport {
  files: number;
  bytes: number;
}

const MAX_DEPTH = 64;

/** A relative path inside the upload, `/`-separated, or an INVALID_INPUT error naming it. */
export function safeRelativePath(name: string): string {
  const bad = (why: string) => new AppError("INVALID_INPUT", `${JSON.stringify(name.slice(0, 200))} in the upload: ${why}`, { entry: name.slice(0, 200) });
  if (name.includes("\0")) throw bad("the name holds a NUL character");
  const slashed = name.replace(/\\/g, "/");
  if (slashed.startsWith("/") || /^[A-Za-z]:/.test(slashed)) throw bad("absolute paths are not accepted");
  const parts = slashed.split("/").filter((p) => p !== "" && p !== ".");
  if (parts.some((p) => p === "..")) throw bad("paths that climb out of the project (..) are not accepted");
  if (parts.length === 0) throw bad("empty name");
  if (parts.length > MAX_DEPTH) throw bad(`more than ${MAX_DEPTH} folders deep`);
  return parts.join("/");
}

function target(dir: string, rel: string): string {
  const file = path.resolve(dir, rel);
  const back = path.relative(dir, file);
  // safeRelativePath already rules this out; checked again where the file is written.
  if (back === "" || back.startsWith("..") || path.isAbsolute(back)) throw new AppError("INVALID_INPUT", `${rel}: outside the upload folder`);
  return file;
}

function overBytes(limits: UnpackLimits, what: string): AppError {
  return new AppError("TOO_LARGE", `${what}: more than ${(limits.maxBytes / 1024 / 1024).toFixed(0)} MiB unpacked, over the upload limit`, { limit: limits.maxBytes });
}

function overEntries(limits: UnpackLimits, count: number): AppError {
  return new AppError("TOO_LARGE", `the upload has ${count.toLocaleString("en-US")} entries, over the limit of ${limits.maxEntries.toLocaleString("en-US")}`, { limit: limits.maxEntries });
}

function writeNew(file: string, rel: string): fs.WriteStream {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (fs.existsSync(file)) throw new AppError("INVALID_INPUT", `${rel} appears twice in the upload`, { entry: rel });
  return fs.createWriteStream(file, { flags: "wx" });
}

/**
 * Places a folder upload's files (received to temporary files, see receive-upload.ts) under
 * `dir` at the relative paths the browser sent, moving each file rather than copying it.
 */
export function placeFolderFiles({ files, dir, limits = UPLOAD_LIMITS }: { files: { path: string; file: string }[]; dir: string; limits?: UnpackLimits }): UnpackReport {
  if (files.length > limits.maxEntries) throw overEntries(limits, files.length);
  let bytes = 0;
  for (const f of files) {
    bytes += fs.statSync(f.file).size;
    if (bytes > limits.maxBytes) throw overBytes(limits, "the folder");
  }
  for (const f of files) {
    const rel = safeRelativePath(f.path);
    const file = target(dir, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // rename replaces an existing file without a word: a name sent twice is refused first.
    if (fs.existsSync(file)) throw new AppError("INVALID_INPUT", `${rel} appears twice in the upload`, { entry: rel });
    fs.renameSync(f.file, file);
  }
  return { files: files.length, bytes };
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;

/** A zip's bytes in memory, or a zip file on disk (an upload received to a temporary file: read where it lies). */
export type ZipSource = { bytes: Uint8Array } | { file: string };

function openZip(source: ZipSource): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    // validateEntrySizes: an entry that inflates to more than it declares is an error mid-stream.
    const options = { lazyEntries: true, validateEntrySizes: true, strictFileNames: false, decodeStrings: true };
    const done = (err: Error | null, zip?: yauzl.ZipFile) => {
      if (err || !zip) reject(new AppError("PARSE_ERROR", `not a readable .zip file (${err?.message ?? "no archive"})`));
      else resolve(zip);
    };
    if ("file" in source) yauzl.open(source.file, options, done);
    else yauzl.fromBuffer(Buffer.from(source.bytes.buffer, source.bytes.byteOffset, source.bytes.byteLength), options, done);
  });
}

/** Unpacks a `.zip` under `dir` within the limits. */
export async function unpackZip({ dir, limits = UPLOAD_LIMITS, ...source }: ZipSource & { dir: string; limits?: UnpackLimits }): Promise<UnpackReport> {
  const zip = await openZip(source);
  if (zip.entryCount > limits.maxEntries) {
    zip.close();
    throw overEntries(limits, zip.entryCount);
  }
  let written = 0;
  let declared = 0;
  let files = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on("error", (e: Error) => {
        if (e instanceof AppError) return reject(e);
        // yauzl checks names too (absolute, `..`, backslashes): an unsafe name, not a damaged file.
        if (/path|file name|characters/i.test(e.message)) return reject(new AppError("INVALID_INPUT", `an entry of the .zip file has an unsafe name: ${e.message}`));
        reject(new AppError("PARSE_ERROR", `the .zip file is damaged or unsafe: ${e.message}`));
      });
      zip.on("end", () => resolve());
      zip.on("entry", (entry: yauzl.Entry) => {
        void (async () => {
          const rel = safeRelativePath(entry.fileName);
          const mode = (entry.externalFileAttributes >>> 16) & S_IFMT;
          if (mode === S_IFLNK) throw new AppError("INVALID_INPUT", `${rel} in the upload is a symbolic link: links are not accepted`, { entry: rel });
          if (entry.isEncrypted()) throw new AppError("INVALID_INPUT", `${rel} in the upload is encrypted`, { entry: rel });
          const isDir = entry.fileName.endsWith("/") || mode === S_IFDIR;
          if (isDir) {
            fs.mkdirSync(target(dir, rel), { recursive: true });
            zip.readEntry();
            return;
          }
          if (mode !== 0 && mode !== S_IFREG) throw new AppError("INVALID_INPUT", `${rel} in the upload is not a regular file`, { entry: rel });
          declared += entry.uncompressedSize;
          if (declared > limits.maxBytes) throw overBytes(limits, "the .zip file");
          const file = target(dir, rel);
          const out = writeNew(file, rel);
          const stream: Readable = await zip.openReadStreamPromise(entry);
          await new Promise<void>((done, fail) => {
            stream.on("data", (chunk: Buffer) => {
              written += chunk.byteLength;
              if (written > limits.maxBytes) stream.destroy(overBytes(limits, "the .zip file"));
            });
            stream.on("error", fail);
            out.on("error", fail);
            out.on("finish", () => done());
            stream.pipe(out);
          });
          files++;
          zip.readEntry();
        })().catch(reject);
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  return { files, bytes: written };
}

const MARKERS = ["graph.json", path.join("graphify-out", "graph.json"), "triples.jsonl"];

/**
 * The folder of the unpacked upload to import: the shallowest one holding graph.json,
 * graphify-out/graph.json or a triples.jsonl bundle (a zip of a folder has the folder inside).
 */
export function findProjectFolder(dir: string): string {
  let level = [dir];
  for (let depth = 0; depth < 4 && level.length > 0; depth++) {
    const found = level.filter((d) => MARKERS.some((m) => fs.existsSync(path.join(d, m)))).sort();
    if (found[0]) return found[0];
    level = level.flatMap((d) =>
      fs
        .readdirSync(d, { withFileTypes: true })
        .filter((e) => e.isDirectory() && e.name !== "__MACOSX")
        .map((e) => path.join(d, e.name)),
    );
  }
  throw new AppError("INVALID_INPUT", "the upload holds no graph.json (at its top, in its top folder or in graphify-out/) and no triples.jsonl bundle");
}
