/**
 * Reading import files safely: a size limit checked before reading, gzip, BOMs and UTF-16,
 * and a clear error (file and byte offset) for anything that is not valid text.
 */
import fs from "node:fs";
import { gunzipSync } from "node:zlib";
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

export function checkSize(bytes: number, source: string, limit = MAX_INPUT_BYTES): void {
  if (bytes > limit) {
    throw new AppError(
      "TOO_LARGE",
      `${source}: ${(bytes / 1024 / 1024).toFixed(1)} MiB is over the ${(limit / 1024 / 1024).toFixed(0)} MiB import limit`,
      { source, bytes, limit },
    );
  }
}

/** Read a text file (gunzipping `.gz`), enforcing the size limit on disk and after decompression. */
export function readTextFile(file: string, limit = MAX_INPUT_BYTES): string {
  const stat = statOrThrow(file);
  if (!stat.isFile()) throw new AppError("INVALID_INPUT", `${file}: not a file`, { source: file });
  checkSize(stat.size, file, limit);
  let bytes: Uint8Array = fs.readFileSync(file);
  if (file.endsWith(".gz")) {
    try {
      bytes = gunzipSync(bytes, { maxOutputLength: limit });
    } catch (e) {
      const tooBig = (e as { code?: string }).code === "ERR_BUFFER_TOO_LARGE";
      if (tooBig) checkSize(limit + 1, `${file} (decompressed)`, limit);
      throw new AppError("PARSE_ERROR", `${file}: not a valid gzip file (${(e as Error).message})`, { source: file });
    }
  }
  return decodeText(bytes, file);
}
