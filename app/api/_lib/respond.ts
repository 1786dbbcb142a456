/**
 * The one place route handlers turn results and errors into HTTP: AppError codes map through
 * httpStatusFor, zod failures become INVALID_INPUT, and anything unexpected is logged on the
 * server and answered with a bare INTERNAL error so no stack trace or path leaks to clients.
 */
import { NextResponse } from "next/server";
import { ZodError } from "zod";
import { httpStatusFor, isAppError } from "@/lib/errors";
import type { ErrorCode } from "@/lib/errors";

export interface ApiErrorBody {
  error: { code: ErrorCode; message: string; refusal?: string; cause?: string };
}

function describeZodError(error: ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join(".")}: ${issue.message}` : issue.message))
    .join("; ");
}

export function errorResponse(error: unknown): NextResponse<ApiErrorBody> {
  if (isAppError(error)) {
    const retryAfter = error.code === "RATE_LIMITED" ? Number(error.details.retryAfterSeconds) : NaN;
    const headers = Number.isFinite(retryAfter) ? { "retry-after": String(Math.max(1, Math.ceil(retryAfter))) } : undefined;
    // `refusal` / `cause` name the case for the page (which fix to offer beside the button); the rest of `details` stays on the server.
    const named = (key: string) => (typeof error.details[key] === "string" ? { [key]: error.details[key] } : {});
    return NextResponse.json({ error: { code: error.code, message: error.message, ...named("refusal"), ...named("cause") } }, { status: httpStatusFor(error.code), headers });
  }
  if (error instanceof ZodError) {
    return NextResponse.json({ error: { code: "INVALID_INPUT", message: describeZodError(error) } }, { status: 400 });
  }
  console.error("unexpected error in API route", error);
  return NextResponse.json({ error: { code: "INTERNAL", message: "internal error; see the server log" } }, { status: 500 });
}

/** Run a handler body; its result is the JSON response, any throw becomes an error response. */
export async function respond<T>(work: () => Promise<T>, init: { status?: number } = {}): Promise<NextResponse> {
  try {
    return NextResponse.json(await work(), { status: init.status ?? 200 });
  } catch (error) {
    return errorResponse(error);
  }
}
