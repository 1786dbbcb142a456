/**
 * One error type for the whole product. Callers branch on `code`, never on the message;
 * the HTTP layer and the CLI each map codes to statuses / exit codes in exactly one place.
 */
export type ErrorCode =
  | "NOT_FOUND"
  | "CONFLICT"
  | "INVALID_INPUT"
  | "PARSE_ERROR"
  | "TOO_LARGE"
  | "USAGE"
  | "LLM_FORMAT"
  | "LLM_UNAVAILABLE"
  | "CONFIG"
  | "CONFIRMATION_REQUIRED"
  /** No valid session or token (401). */
  | "UNAUTHENTICATED"
  /** Signed in, but the role, token scope or approval policy does not allow it (403). */
  | "FORBIDDEN"
  /** Too many attempts; `details.retryAfterSeconds` says when to try again (429). */
  | "RATE_LIMITED"
  /** No account exists yet: the first visitor must create the admin (401 until then). */
  | "SETUP_REQUIRED"
  | "INTERNAL";

export class AppError extends Error {
  readonly code: ErrorCode;
  /** Structured context for machines (file name, line, column, candidate ids...). */
  readonly details: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.details = details;
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

/** HTTP status for an error code: the single mapping used by every route. */
export function httpStatusFor(code: ErrorCode): number {
  switch (code) {
    case "NOT_FOUND":
      return 404;
    case "CONFLICT":
      return 409;
    case "INVALID_INPUT":
    case "PARSE_ERROR":
    case "USAGE":
      return 400;
    case "TOO_LARGE":
      return 413;
    case "CONFIRMATION_REQUIRED":
      return 428;
    case "UNAUTHENTICATED":
    case "SETUP_REQUIRED":
      return 401;
    case "FORBIDDEN":
      return 403;
    case "RATE_LIMITED":
      return 429;
    case "LLM_FORMAT":
      return 502;
    case "LLM_UNAVAILABLE":
      return 503;
    default:
      return 500;
  }
}
