/**
 * CLI output and exit codes in one place: 0 ok, 1 failure (bad input, conflict, not found),
 * 2 usage. Errors always go to stderr; with --json they are also machine-readable there.
 */
import { isAppError } from "../lib/errors";

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

export class UsageError extends Error {}

/** The command already explained the failure on stderr (invalid trace, failed run): exit 1, no further message. */
export class CommandFailed extends Error {}

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  /** Raw stdout, resolved once the chunk is flushed (streamed output of any size); without it, commands print whole with `out`. */
  write?: (chunk: string) => Promise<void>;
}

export const processIo: Io = {
  out: (text) => process.stdout.write(text.endsWith("\n") ? text : text + "\n"),
  err: (text) => process.stderr.write(text.endsWith("\n") ? text : text + "\n"),
  write: (chunk) => new Promise((resolve, reject) => process.stdout.write(chunk, (error) => (error ? reject(error) : resolve()))),
};

export function printJson(io: Io, value: unknown): void {
  io.out(JSON.stringify(value, null, 2));
}

/** Report an error on stderr and return the exit code for it. */
export function reportError(io: Io, error: unknown, json: boolean): number {
  if (error instanceof UsageError) {
    io.err(`refinery: ${error.message}`);
    return EXIT_USAGE;
  }
  if (isAppError(error)) {
    if (json) io.err(JSON.stringify({ error: { code: error.code, message: error.message, ...error.details } }));
    else io.err(`refinery: ${error.message}`);
    return error.code === "USAGE" ? EXIT_USAGE : EXIT_FAILURE;
  }
  const message = error instanceof Error ? error.message : String(error);
  if (json) io.err(JSON.stringify({ error: { code: "INTERNAL", message } }));
  else io.err(`refinery: ${message}`);
  if (process.env.REFINERY_DEBUG && error instanceof Error) io.err(error.stack ?? "");
  return EXIT_FAILURE;
}
