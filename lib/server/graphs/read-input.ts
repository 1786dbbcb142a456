/**
 * Reading import files safely: a size limit checked before reading, gzip, BOMs and UTF-16,
 * and a clear error (file and byte offset) for anything that is not valid text. Triple files
 * have no size limit: they are read in chunks (`readTextChunks`), never whole.
 */
import fs from "node:fs";
import { createGunzip, gunzipSync } from "node:zlib";
import { AppError } from "../../errors";

/** graphify's readers cap graph files at 512 MiB; so do we, before reading a byte. */
export const MAX_INPUT_BYTES = 512 * 1024 * 1024;

export function statOrThrow(file: string): fs.Stats {
  try {
    return fs.statSync(file);
  } catch {
    throw new AppError("NOT_FOUND", `${file}: no such file or folder`, { source: file });
  }
}

/** Decode bytes as text: UTF-8 (BOM optional) or UTF-16 with a BOM; anything else is an error. */
export function decodeText(bytes: Uint8Array, source: string): string {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes.subarray(2));
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes.subarray(2));
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    const offset = firstInvalidUtf8(bytes);
    throw new AppError(
      "PARSE_ERROR",
      `${source}: not valid UTF-8 (first bad byte at offset ${offset}); save the file as UTF-8 and import again`,
      { source, offset },
    );
  }
}

function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    const len = b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
    if (len === 0) return i;
    for (let k = 1; k < len; k++) if (((bytes[i + k] ?? 0) & 0xc0) !== 0x80) return i;
    i += len;
  }
  return i;
}

/** What an import says past the limit: only triple files are streamed (import-graph.ts), from a path or an upload. */
export const OVER_LIMIT_HINT = "files over 512 MiB are supported as triple files (s|r|o or TSV, .gz ok), imported from a path or uploaded";

export function checkSize(bytes: number, source: string, limit = MAX_INPUT_BYTES, hint?: string): void {
  if (bytes > limit) {
    throw new AppError(
      "TOO_LARGE",
      `${source}: ${(bytes / 1024 / 1024).toFixed(1)} MiB is over the ${(limit / 1024 / 1024).toFixed(0)} MiB import limit${hint ? ` (${hint})` : ""}`,
      { source, bytes, limit },
    );
  }
}

/**
 * Read a text file whole (gunzipping `.gz`), enforcing the size limit on disk and after
 * decompression: graphify JSON, bundles, label files. Triple files are streamed instead.
 */
export function readTextFile(file: string, limit = MAX_INPUT_BYTES, source = file): string {
  const stat = statOrThrow(file);
  if (!stat.isFile()) throw new AppError("INVALID_INPUT", `${source}: not a file`, { source });
  checkSize(stat.size, source, limit, limit === MAX_INPUT_BYTES ? OVER_LIMIT_HINT : undefined);
  let bytes: Uint8Array = fs.readFileSync(file);
  if (file.endsWith(".gz")) {
    try {
      bytes = gunzipSync(bytes, { maxOutputLength: limit });
    } catch (e) {
      const tooBig = (e as { code?: string }).code === "ERR_BUFFER_TOO_LARGE";
      if (tooBig) checkSize(limit + 1, `${source} (decompressed)`, limit, limit === MAX_INPUT_BYTES ? OVER_LIMIT_HINT : undefined);
      throw new AppError("PARSE_ERROR", `${source}: not a valid gzip file (${(e as Error).message})`, { source });
    }
  }
  return decodeText(bytes, source);
}

/** Bytes per read from disk by `readTextChunks` (small enough for progress by tenths of a 3 MB .gz). */
const CHUNK_BYTES = 256 * 1024;
const GZ_CHUNK_BYTES = 64 * 1024;

export interface TextChunks {
  /** The decoded text, a chunk at a time (a chunk may end inside a line). */
  chunks: AsyncGenerator<string>;
  /** Bytes of the file on disk (compressed for `.gz`). */
  readonly fileBytes: number;
  /** Bytes of the file read from disk so far: progress is `diskBytes / fileBytes`. */
  readonly diskBytes: number;
}

/**
 * Read a text file of any size in chunks (gunzipping `.gz` as it goes), with the checks of
 * `readTextFile`: UTF-8 (BOM optional) or UTF-16 with a BOM, a clear error at the first bad
 * byte. Memory: a chunk or two, whatever the file's size. `source` names the file in errors.
 */
export function readTextChunks(file: string, source = file): TextChunks {
  const stat = statOrThrow(file);
  if (!stat.isFile()) throw new AppError("INVALID_INPUT", `${source}: not a file`, { source });
  let diskBytes = 0;
  async function* chunks(): AsyncGenerator<string> {
    const gz = file.endsWith(".gz");
    const raw = fs.createReadStream(file, { highWaterMark: gz ? GZ_CHUNK_BYTES : CHUNK_BYTES });
    raw.on("data", (b) => (diskBytes += (b as Buffer).length));
    const bytes: AsyncIterable<Buffer> = gz ? raw.pipe(createGunzip({ chunkSize: CHUNK_BYTES })) : raw;
    if (gz) raw.on("error", (e) => (bytes as unknown as NodeJS.ReadableStream).emit("error", e));
    let decoder: TextDecoder | null = null;
    let offset = 0;
    let head: Buffer | null = null;
    try {
      for await (const piece of bytes) {
        let b = piece;
        if (!decoder) {
          // The BOM decides the encoding: wait for two bytes.
          b = head ? Buffer.concat([head, b]) : b;
          if (b.length < 2) {
            head = b;
            continue;
          }
          head = null;
          decoder = newDecoder(b);
          if (decoder.encoding !== "utf-8") b = b.subarray(2);
        }
        yield decodeChunk(decoder, b, source, offset, true);
        offset += b.length;
      }
      if (!decoder) decoder = newDecoder(head ?? Buffer.alloc(0));
      const last = decodeChunk(decoder, head ?? new Uint8Array(0), source, offset, false);
      if (last) yield last;
    } catch (e) {
      if (e instanceof AppError) throw e;
      const code = (e as { code?: string }).code ?? "";
      if (gz && code.startsWith("Z_")) throw new AppError("PARSE_ERROR", `${source}: not a valid gzip file (${(e as Error).message})`, { source });
      throw e;
    } finally {
      raw.destroy();
    }
  }
  return {
    chunks: chunks(),
    fileBytes: stat.size,
    get diskBytes() {
      return diskBytes;
    },
  };
}

function newDecoder(first: Uint8Array): TextDecoder {
  if (first.length >= 2 && first[0] === 0xff && first[1] === 0xfe) return new TextDecoder("utf-16le");
  if (first.length >= 2 && first[0] === 0xfe && first[1] === 0xff) return new TextDecoder("utf-16be");
  return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
}

function decodeChunk(decoder: TextDecoder, bytes: Uint8Array, source: string, offset: number, stream: boolean): string {
  try {
    return decoder.decode(bytes, { stream });
  } catch {
    // The bad byte is in this chunk (or a sequence cut at its end: then at the chunk's end).
    const at = offset + Math.min(firstInvalidUtf8(bytes), bytes.length);
    throw new AppError(
      "PARSE_ERROR",
      `${source}: not valid UTF-8 (first bad byte at offset ${at}); save the file as UTF-8 and import again`,
      { source, offset: at },
    );
  }
}
