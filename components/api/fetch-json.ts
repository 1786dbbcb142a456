/** The browser side of the API's error contract: `{error: {code, message}}` becomes an ApiError. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

function isErrorBody(value: unknown): value is { error: { code: string; message: string } } {
  if (typeof value !== "object" || value === null || !("error" in value)) return false;
  const error = value.error;
  return typeof error === "object" && error !== null && "code" in error && "message" in error;
}

export async function fetchJson<T>(url: string, init?: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, headers: { accept: "application/json", ...init?.headers } });
  } catch {
    throw new ApiError("NETWORK", "could not reach the server; is it still running?", 0);
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    if (isErrorBody(body)) throw new ApiError(body.error.code, body.error.message, response.status);
    throw new ApiError("INTERNAL", `the server answered ${response.status} ${response.statusText}`, response.status);
  }
  return body as T;
}
