import { AppError } from "@/lib/errors";

/** The request body as JSON; an empty body is `{}`, anything unparseable a clear 400. */
export async function readJson(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError("INVALID_INPUT", "the request body must be JSON");
  }
}
