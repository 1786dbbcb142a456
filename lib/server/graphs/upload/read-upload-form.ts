/**
 * Reading a multipart upload without trusting the client about its size: a declared
 * Content-Length over the limit is refused before a byte is read, and the body is counted while
 * it streams in, so a chunked upload (no Content-Length) is cut off at the limit instead of
 * being buffered whole first.
 */
import { AppError } from "../../../errors";
import { MAX_INPUT_BYTES } from "../read-input";

/** Room for the multipart boundaries and the small form fields beside the files. */
const FORM_OVERHEAD_BYTES = 1024 * 1024;

function tooLarge(limit: number, seen: number | null): AppError {
  const mib = (limit / 1024 / 1024).toFixed(0);
  const what = seen === null ? "the upload" : `the upload (stopped reading after ${(seen / 1024 / 1024).toFixed(1)} MiB)`;
  return new AppError(
    "TOO_LARGE",
    `${what} is over the ${mib} MiB upload limit; import a bigger graph from a path on the server (or with the CLI)`,
    { limit, ...(seen === null ? {} : { bytesRead: seen }) },
  );
}

/** The request body as a stream that errors once more than `limit` bytes came through. */
export function limitBody(body: ReadableStream<Uint8Array>, limit: number, onOver: (seen: number) => void): ReadableStream<Uint8Array> {
  let seen = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > limit) {
          onOver(seen);
          // Erroring cancels the source: the rest of the body is never read.
          controller.error(tooLarge(limit, seen));
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
}

/** The request's form data, read within `limit` bytes of files (plus the form's own overhead). */
export async function readUploadForm(request: Request, limit = MAX_INPUT_BYTES): Promise<FormData> {
  const cap = limit + FORM_OVERHEAD_BYTES;
  const declared = Number(request.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > cap) throw tooLarge(limit, null);
  const type = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\b/i.test(type) || !request.body) {
    throw new AppError("INVALID_INPUT", "send the upload as multipart/form-data with a 'file' field (or 'files' for a folder)");
  }
  let over: number | null = null;
  const body = limitBody(request.body, cap, (seen) => (over = seen));
  try {
    return await new Response(body, { headers: { "content-type": type } }).formData();
  } catch {
    if (over !== null) throw tooLarge(limit, over);
    throw new AppError("INVALID_INPUT", "the upload is not valid multipart/form-data (was it cut off?)");
  }
}
