/**
 * A multipart upload received to disk as it arrives: each file part is written to a file in a
 * fresh private temporary folder while the body streams in, so no upload is ever held whole in
 * memory and a triple file of any size can be imported afterwards through the streamed path
 * import (import-upload.ts). Text fields (name, format, a folder's paths) are kept in memory,
 * each capped small.
 *
 * Limits while reading, without trusting the client: a file part that is graphify JSON or a
 * `.zip` (by the `format` field when it came first, else by its name or its first bytes) stops
 * at `limitBytes`, and so do a folder's files together; triple files have no limit. A body that
 * ends before the closing boundary (cut off), a client that goes away mid-body and any error
 * remove the folder: nothing is left behind and nothing is imported.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { AppError } from "../../../errors";
import { MAX_INPUT_BYTES } from "../read-input";
import { UPLOAD_LIMITS } from "./unpack-project";

/** A file part of the upload, on disk. */
export interface ReceivedFile {
  /** The form field it came in (`file`, or `files` for a folder's files). */
  field: string;
  /** The name the client gave it (not a path on this machine; never used as one). */
  name: string;
  /** Where it was written, inside the upload's temporary folder. */
  file: string;
  bytes: number;
  /** Its first bytes (up to 4), to tell a `.zip` by its magic number. */
  head: Uint8Array;
}

export interface ReceivedUpload {
  /** The private temporary folder holding the files; `remove()` deletes it. */
  dir: string;
  /** The text fields in the order they came, by name. */
  fields: Map<string, string[]>;
  files: ReceivedFile[];
  remove(): void;
}

export interface ReceiveOptions {
  /** Bytes a graphify JSON or .zip file, or a folder's files together, may have (default MAX_INPUT_BYTES). */
  limitBytes?: number;
  /** Where the temporary folder is made (default: REFINERY_UPLOAD_DIR, else the system's temporary folder). */
  tempRoot?: string;
  /** Called as bytes of the body arrive (all of them: files, fields and boundaries). */
  onBytes?: (received: number) => void;
  /** Called when a text field has been read (e.g. the graph's name, for the progress line). */
  onField?: (name: string, value: string) => void;
}

/**
 * Where uploads are received: a triple file upload takes its own size on this disk until its
 * import ends, so a deployment whose system temporary folder is small (a tmpfs) points
 * REFINERY_UPLOAD_DIR at a bigger disk.
 */
export function uploadRoot(): string {
  return process.env.REFINERY_UPLOAD_DIR || os.tmpdir();
}

/** A text field's longest value: names, formats and relative paths are short. */
const MAX_FIELD_BYTES = 64 * 1024;
/** A part's headers: a few lines. */
const MAX_HEADER_BYTES = 16 * 1024;
/** Parts in one upload: a folder's files and their paths, plus the small fields. */
const MAX_PARTS = 2 * UPLOAD_LIMITS.maxEntries + 16;

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

export function isZipUpload(name: string, head: Uint8Array): boolean {
  return /\.zip$/i.test(name) || ZIP_MAGIC.every((b, i) => head[i] === b);
}

/** Would this file part be imported as a triple file (streamed, no size limit)? */
export function isTripleUpload(name: string, head: Uint8Array, format: string | undefined): boolean {
  if (isZipUpload(name, head)) return false;
  if (format === "triples") return true;
  if (format === "graphify") return false;
  return !/\.json$/i.test(name);
}

function cutOff(): AppError {
  return new AppError("INVALID_INPUT", "the upload is not valid multipart/form-data (was it cut off?); nothing was imported");
}

function tooLarge(limit: number, what: string, seen: number): AppError {
  const mib = (limit / 1024 / 1024).toFixed(0);
  return new AppError(
    "TOO_LARGE",
    `${what} is over the ${mib} MiB upload limit for graphify JSON and project uploads (stopped reading after ${(seen / 1024 / 1024).toFixed(1)} MiB); ` +
      "triple files have no limit, or import a bigger graph from a path on the server (or with the CLI)",
    { limit, bytesRead: seen },
  );
}

/** The boundary of a `multipart/form-data` content type, or null. */
export function boundaryOf(contentType: string): string | null {
  if (!/^multipart\/form-data\b/i.test(contentType)) return null;
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  return m ? ((m[1] ?? m[2]) as string) : null;
}

interface PartHeaders {
  field: string;
  fileName: string | null;
}

/** Content-Disposition of a part: its field name and, for a file, the file name (RFC 7578). */
function parseHeaders(text: string): PartHeaders {
  let field: string | null = null;
  let fileName: string | null = null;
  for (const line of text.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon < 0 || line.slice(0, colon).trim().toLowerCase() !== "content-disposition") continue;
    const params = line.slice(colon + 1);
    const param = (key: string) => {
      const m = new RegExp(`(?:^|;)\\s*${key}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^;]*))`, "i").exec(params);
      if (!m) return null;
      return m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : (m[2] as string).trim();
    };
    field = param("name");
    const star = param("filename\\*");
    fileName = param("filename");
    if (star !== null) {
      const ext = /^utf-8''(.*)$/i.exec(star);
      try {
        fileName = ext ? decodeURIComponent(ext[1] as string) : fileName;
      } catch {
        // A malformed extended name: keep the plain one.
      }
    }
  }
  if (field === null) throw new AppError("INVALID_INPUT", "a part of the upload has no Content-Disposition name; nothing was imported");
  return { field, fileName };
}

/**
 * Read a multipart request body to disk as it arrives (see the top of this file). Resolves once
 * the closing boundary has been read and every file is flushed; on any error the temporary
 * folder is gone before the promise rejects.
 */
export async function receiveUpload(request: Request, options: ReceiveOptions = {}): Promise<ReceivedUpload> {
  const boundary = boundaryOf(request.headers.get("content-type") ?? "");
  if (!boundary || !request.body) {
    throw new AppError("INVALID_INPUT", "send the upload as multipart/form-data with a 'file' field (or 'files' for a folder)");
  }
  const limit = options.limitBytes ?? MAX_INPUT_BYTES;
  const dir = fs.mkdtempSync(path.join(options.tempRoot ?? uploadRoot(), "refinery-upload-"));
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  const fields = new Map<string, string[]>();
  const files: ReceivedFile[] = [];
  const reader = request.body.getReader();

  // The delimiter before every part but the first is CRLF "--" boundary; the body starts with
  // "--" boundary, so a CRLF is put in front and every delimiter looks the same.
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const headerEnd = Buffer.from("\r\n\r\n");
  let pending: Buffer = Buffer.from("\r\n");
  // Widened: the parse below changes it inside closures, where TypeScript cannot follow.
  let state = "preamble" as "preamble" | "after" | "headers" | "body" | "done";
  let part: PartHeaders | null = null;
  let out: fs.promises.FileHandle | null = null;
  let current: ReceivedFile | null = null;
  let fieldBytes: Buffer[] = [];
  let fieldSize = 0;
  let parts = 0;
  let folderBytes = 0;
  let received = 0;

  const format = () => fields.get("format")?.at(-1);
  const limited = (f: ReceivedFile) => f.field === "files" || !isTripleUpload(f.name, f.head, format());

  const openPart = async (headers: PartHeaders) => {
    if (++parts > MAX_PARTS) throw new AppError("TOO_LARGE", `the upload has more than ${MAX_PARTS.toLocaleString("en-US")} parts`, { limit: MAX_PARTS });
    part = headers;
    if (headers.fileName === null) {
      fieldBytes = [];
      fieldSize = 0;
      return;
    }
    // Files are numbered, not named by the client: its names are only data (the import
    // decides the format), except that a `.gz` triple file keeps its ending to be gunzipped.
    const gz = /\.gz$/i.test(headers.fileName) ? ".gz" : "";
    const file = path.join(dir, `part-${files.length}${gz}`);
    out = await fs.promises.open(file, "wx", 0o600);
    current = { field: headers.field, name: headers.fileName, file, bytes: 0, head: new Uint8Array(0) };
    files.push(current);
  };

  const partData = async (data: Buffer) => {
    if (data.length === 0 || !part) return;
    if (!current || !out) {
      fieldSize += data.length;
      if (fieldSize > MAX_FIELD_BYTES) throw new AppError("TOO_LARGE", `the form field ${JSON.stringify(part.field.slice(0, 100))} is over ${MAX_FIELD_BYTES / 1024} KiB`);
      fieldBytes.push(data);
      return;
    }
    if (current.head.length < 4) current.head = Uint8Array.from([...current.head, ...data.subarray(0, 4 - current.head.length)]);
    current.bytes += data.length;
    if (current.field === "files") {
      folderBytes += data.length;
      if (folderBytes > limit) throw tooLarge(limit, "the folder", folderBytes);
    } else if (current.bytes > limit && limited(current)) {
      throw tooLarge(limit, JSON.stringify(current.name.slice(0, 200)), current.bytes);
    }
    await out.write(data);
  };

  const closePart = async () => {
    if (!part) return;
    if (out) {
      await out.close();
      out = null;
      current = null;
    } else {
      let value: string;
      try {
        value = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(fieldBytes));
      } catch {
        throw new AppError("INVALID_INPUT", `the form field ${JSON.stringify(part.field.slice(0, 100))} is not valid UTF-8`);
      }
      const list = fields.get(part.field) ?? [];
      list.push(value);
      fields.set(part.field, list);
      options.onField?.(part.field, value);
    }
    part = null;
  };

  /** Parse what `pending` holds; what cannot be decided yet stays in it. */
  const advance = async () => {
    for (;;) {
      if (state === "preamble") {
        const at = pending.indexOf(delimiter);
        if (at < 0) {
          pending = pending.subarray(Math.max(0, pending.length - delimiter.length + 1));
          return;
        }
        pending = pending.subarray(at + delimiter.length);
        state = "after";
      } else if (state === "after") {
        // After a delimiter: "--" ends the body; else optional blanks, then CRLF and a part.
        let i = 0;
        while (i < pending.length && (pending[i] === 0x20 || pending[i] === 0x09)) i++;
        if (pending.length < i + 2) return;
        if (pending[i] === 0x2d && pending[i + 1] === 0x2d) {
          state = "done";
          pending = Buffer.alloc(0);
          return;
        }
        if (pending[i] !== 0x0d || pending[i + 1] !== 0x0a) throw cutOff();
        pending = pending.subarray(i + 2);
        state = "headers";
      } else if (state === "headers") {
        const at = pending.indexOf(headerEnd);
        if (at < 0) {
          if (pending.length > MAX_HEADER_BYTES) throw new AppError("INVALID_INPUT", "a part of the upload has over 16 KiB of headers");
          return;
        }
        await openPart(parseHeaders(pending.subarray(0, at).toString("utf8")));
        pending = pending.subarray(at + headerEnd.length);
        state = "body";
      } else if (state === "body") {
        const at = pending.indexOf(delimiter);
        if (at < 0) {
          // Keep what could be the start of a delimiter cut by the chunk's end.
          const keep = Math.min(pending.length, delimiter.length - 1);
          await partData(pending.subarray(0, pending.length - keep));
          pending = pending.subarray(pending.length - keep);
          return;
        }
        await partData(pending.subarray(0, at));
        await closePart();
        pending = pending.subarray(at + delimiter.length);
        state = "after";
      } else {
        // Done: the epilogue (if any) is ignored.
        pending = Buffer.alloc(0);
        return;
      }
    }
  };

  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch {
        // The client went away mid-body (or the connection broke).
        throw new AppError("INVALID_INPUT", "the upload was interrupted before it was complete; nothing was imported");
      }
      if (chunk.done) break;
      const bytes = chunk.value;
      received += bytes.byteLength;
      options.onBytes?.(received);
      const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      pending = pending.length > 0 ? Buffer.concat([pending, data]) : data;
      await advance();
      // The closing boundary read: what follows is an epilogue to ignore, not worth reading.
      // Not cancelled: cancelling a request body destroys its socket, and with it the answer;
      // the HTTP server discards what is left once the answer is sent.
      if (state === "done") break;
    }
    if (state !== "done") throw cutOff();
    reader.releaseLock();
    return { dir, fields, files, remove };
  } catch (error) {
    await reader.cancel().catch(() => {});
    const open = out as fs.promises.FileHandle | null;
    await open?.close().catch(() => {});
    remove();
    throw error;
  }
}
