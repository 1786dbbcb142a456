/**
 * Writing a generated wiki (lib/export/export-wiki.ts) to disk all at once or not at all.
 *
 * 1. Every file path is checked before a byte is written: relative, `/`-separated segments,
 *    no `.`/`..`/empty segment, no drive letter, no NUL, no duplicates (case-insensitively, for
 *    case-insensitive filesystems) and no path that is both a file and a folder.
 * 2. The files go into a fresh temporary sibling folder `.<name>.tmp-XXXXXX`.
 * 3. Swap: the current wiki is renamed to `<dir>.previous`, the temporary folder to `<dir>`;
 *    if the second rename fails the previous wiki is renamed back. Only after the swap
 *    succeeded is `<dir>.previous` removed.
 * On any failure the old wiki is left as it was and the temporary folder is removed.
 *
 * A crash between the two renames leaves only `<dir>.previous`; the next call puts it back
 * before doing anything else. Two writers on the same `dir` at once are not supported.
 */
import { promises as nodeFs } from "node:fs";
import path from "node:path";
import { AppError } from "../../errors";

/** The file-system calls used, injectable so tests can make any step fail. */
export interface WikiFs {
  lstat(p: string): Promise<{ isDirectory(): boolean; isSymbolicLink(): boolean }>;
  mkdir(p: string, options: { recursive: true }): Promise<unknown>;
  mkdtemp(prefix: string): Promise<string>;
  writeFile(p: string, data: string, options: { flag: "wx" }): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  rm(p: string, options: { recursive: true; force: true }): Promise<void>;
}

export interface WriteWikiOptions {
  /** The wiki folder; created if missing, replaced as a whole if present. */
  dir: string;
  files: readonly { path: string; content: string }[];
  fs?: WikiFs;
}

export interface WriteWikiResult {
  /** Absolute path of the wiki folder. */
  dir: string;
  files: number;
  bytes: number;
  /** Whether an existing wiki was replaced. */
  replaced: boolean;
}

function invalid(message: string, details: Record<string, unknown>): AppError {
  return new AppError("INVALID_INPUT", message, details);
}

/** A wiki file path → its segments; throws INVALID_INPUT for anything that could leave the folder. */
export function wikiPathSegments(file: string): string[] {
  const refuse = (why: string) => invalid(`wiki file path ${JSON.stringify(file)}: ${why}`, { path: file });
  if (typeof file !== "string" || file === "") throw refuse("empty");
  if (file.includes("\0")) throw refuse("contains a NUL character");
  if (/^[\\/]/.test(file) || /^[a-zA-Z]:/.test(file)) throw refuse("must be relative");
  const segments = file.split(/[\\/]/);
  for (const s of segments) {
    if (s === "") throw refuse("has an empty segment");
    if (s === "." || s === "..") throw refuse("must not contain '.' or '..' segments");
  }
  return segments;
}

function checkFiles(files: readonly { path: string; content: string }[]): string[][] {
  const seen = new Set<string>();
  const folders = new Set<string>();
  const all = files.map((f) => {
    const segments = wikiPathSegments(f.path);
    if (typeof f.content !== "string") throw invalid(`wiki file ${f.path}: content must be text`, { path: f.path });
    const key = segments.join("/").toLowerCase();
    if (seen.has(key)) throw invalid(`wiki file path ${JSON.stringify(f.path)} is given twice`, { path: f.path });
    seen.add(key);
    for (let i = 1; i < segments.length; i++) folders.add(segments.slice(0, i).join("/").toLowerCase());
    return segments;
  });
  for (const segments of all) {
    const key = segments.join("/").toLowerCase();
    if (folders.has(key)) throw invalid(`wiki file path ${JSON.stringify(segments.join("/"))} is also a folder`, { path: key });
  }
  return all;
}

async function kindOf(fs: WikiFs, p: string): Promise<"missing" | "dir" | "symlink" | "other"> {
  try {
    const st = await fs.lstat(p);
    return st.isSymbolicLink() ? "symlink" : st.isDirectory() ? "dir" : "other";
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return "missing";
    throw e;
  }
}

function ioError(e: unknown, message: string, details: Record<string, unknown>): AppError {
  if (e instanceof AppError) return e;
  const reason = e instanceof Error ? e.message : String(e);
  const err = new AppError("INTERNAL", `${message}: ${reason}`, details);
  (err as { cause?: unknown }).cause = e;
  return err;
}

export async function writeWikiAtomically({ dir, files, fs = nodeFs }: WriteWikiOptions): Promise<WriteWikiResult> {
  const target = path.resolve(dir);
  const parent = path.dirname(target);
  const name = path.basename(target);
  if (parent === target || name === "") throw invalid(`${dir}: cannot write a wiki over a filesystem root`, { dir });
  const segmentsList = checkFiles(files);
  const previous = `${target}.previous`;

  let exists: boolean;
  try {
    const kind = await kindOf(fs, target);
    if (kind === "symlink") throw invalid(`${target} is a symbolic link; give the real wiki folder`, { dir: target });
    if (kind === "other") throw invalid(`${target} is a file, not a wiki folder; refusing to replace it`, { dir: target });
    exists = kind === "dir";
    const previousKind = await kindOf(fs, previous);
    if (previousKind !== "missing" && previousKind !== "dir") {
      throw invalid(`${previous} exists and is not a folder; move it away first`, { dir: target, previous });
    }
    if (previousKind === "dir") {
      if (exists) await fs.rm(previous, { recursive: true, force: true }); // leftover of a finished swap
      else {
        await fs.rename(previous, target); // a swap died between its renames: put the old wiki back
        exists = true;
      }
    }
    await fs.mkdir(parent, { recursive: true });
  } catch (e) {
    throw ioError(e, `could not prepare ${target}`, { dir: target });
  }

  let tmp: string;
  try {
    tmp = await fs.mkdtemp(path.join(parent, `.${name}.tmp-`));
  } catch (e) {
    throw ioError(e, `could not create a temporary folder beside ${target}`, { dir: target });
  }

  let bytes = 0;
  try {
    const made = new Set<string>();
    for (let i = 0; i < files.length; i++) {
      const segments = segmentsList[i] as string[];
      const content = (files[i] as { content: string }).content;
      const out = path.join(tmp, ...segments);
      const rel = path.relative(tmp, out);
      if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) {
        throw invalid(`wiki file path ${JSON.stringify(segments.join("/"))} leaves the wiki folder`, { path: segments.join("/") });
      }
      const folder = path.dirname(out);
      if (folder !== tmp && !made.has(folder)) {
        await fs.mkdir(folder, { recursive: true });
        made.add(folder);
      }
      await fs.writeFile(out, content, { flag: "wx" });
      bytes += Buffer.byteLength(content, "utf8");
    }
  } catch (e) {
    await fs.rm(tmp, { recursive: true, force: true }).catch(() => undefined);
    throw ioError(e, `could not write the wiki; ${target} is unchanged`, { dir: target });
  }

  if (exists) {
    try {
      await fs.rename(target, previous);
    } catch (e) {
      await fs.rm(tmp, { recursive: true, force: true }).catch(() => undefined);
      throw ioError(e, `could not move the current wiki aside; ${target} is unchanged`, { dir: target });
    }
  }
  try {
    await fs.rename(tmp, target);
  } catch (e) {
    let restored = !exists;
    if (exists) {
      try {
        await fs.rename(previous, target);
        restored = true;
      } catch {
        // Leave the old wiki at `.previous`: the next call restores it.
      }
    }
    await fs.rm(tmp, { recursive: true, force: true }).catch(() => undefined);
    const state = restored ? `${target} is unchanged` : `the previous wiki is kept at ${previous}`;
    throw ioError(e, `could not swap the new wiki in; ${state}`, { dir: target, restored });
  }
  // The swap is done; a leftover `.previous` is harmless and removed by the next call.
  if (exists) await fs.rm(previous, { recursive: true, force: true }).catch(() => undefined);
  return { dir: target, files: files.length, bytes, replaced: exists };
}
