/**
 * The OpenAI-compatible chat-completions provider (vLLM, llama.cpp server, Ollama, OpenAI...),
 * spoken with Node's fetch: POST {baseUrl}/chat/completions.
 *
 * - Each attempt has its own timeout (AbortController); the caller's signal aborts at once,
 *   whether the request is queued, in flight or waiting to retry, and is never retried.
 * - Network errors, timeouts and HTTP 408/409/429/5xx are retried up to `maxRetries` times with
 *   exponential backoff and jitter; Retry-After (seconds or HTTP date) / retry-after-ms are
 *   honoured, capped. Other 4xx fail at once with the server's own error message.
 * - At most `concurrency` requests of one provider instance are in flight; queued calls wait
 *   for a slot, and a hung request holds its slot only until its timeout.
 * - 2xx bodies are validated with zod: unusable ones (not JSON, no choices, content missing or
 *   not a string) are AppError("LLM_FORMAT"); any text, even garbage, is returned as is.
 * - Bodies are read as a stream and counted: past `maxResponseBytes` (default 8 MB,
 *   REFINERY_LLM_MAX_RESPONSE_BYTES) the request is aborted and fails with LLM_FORMAT
 *   `{ kind: "too_large" }`, not retried (600 MB pushed once took 1.5 GB of memory). Error
 *   bodies are read only up to ERROR_BODY_BYTES: their message is all we show.
 *
 * Failures after the request was made are AppError("LLM_UNAVAILABLE") with details
 * `{ provider, kind: "http" | "timeout" | "network", status?, attempts, url }`; caller aborts
 * reject with the signal's reason (an AbortError DOMException unless the caller gave one).
 * The API key never appears in any message or detail, even when the server echoes it.
 */
import { z } from "zod";
import { AppError } from "../../errors";
import type { ChatMessage, CompletionRequest, CompletionResult, LlmProvider, TokenUsage } from "../../loop/types";
import { displayUrl } from "./llm-env";
import type { OpenAiSettings } from "./llm-env";

/** The parts of the settings the provider uses (an `OpenAiSettings` from `readLlmSettings` fits). */
export type OpenAiProviderSettings = Pick<
  OpenAiSettings,
  "baseUrl" | "model" | "apiKey" | "temperature" | "timeoutMs" | "maxRetries" | "concurrency" | "maxTokens"
> & {
  /** Cap on a response body in bytes (default: REFINERY_LLM_MAX_RESPONSE_BYTES, else 8 MB). */
  maxResponseBytes?: number;
};

/** A chat completion is text a model wrote: even a long one is far below this. */
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
const ERROR_BODY_BYTES = 64 * 1024;
const MAX_RESPONSE_ENV = "REFINERY_LLM_MAX_RESPONSE_BYTES";

function maxResponseBytesFromEnv(): number {
  const raw = process.env[MAX_RESPONSE_ENV]?.trim();
  if (!raw) return DEFAULT_MAX_RESPONSE_BYTES;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1024) throw new AppError("CONFIG", `${MAX_RESPONSE_ENV} must be a whole number of bytes, at least 1024, not ${JSON.stringify(raw)}`);
  return value;
}

function formatBytes(n: number): string {
  return n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MB` : `${n.toLocaleString("en")}-byte`;
}

/** Thrown inside an attempt when the body passes the cap; becomes LLM_FORMAT "too_large". */
class ResponseTooLarge extends Error {
  constructor(readonly declared: number | null) {
    super("response too large");
  }
}

/**
 * Read at most `limit` bytes of the body, counting as it streams. With `truncate` the rest is
 * dropped (error bodies); otherwise passing the limit throws ResponseTooLarge. Either way the
 * stream is cancelled so the connection stops delivering.
 */
async function readBodyCapped(response: Response, limit: number, truncate: boolean): Promise<string> {
  const declared = Number(response.headers.get("content-length"));
  if (!truncate && Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    throw new ResponseTooLarge(declared);
  }
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (total + value.byteLength > limit) {
        if (!truncate) throw new ResponseTooLarge(null);
        chunks.push(value.subarray(0, limit - total));
        total = limit;
        break;
      }
      chunks.push(value);
      total += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks, total).toString("utf8");
}

export interface OpenAiProviderDeps {
  fetch?: typeof fetch;
  /** Waits between retries; the provider also races it against the caller's signal. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Clock for Retry-After HTTP dates. */
  now?: () => number;
  /** Jitter source in [0, 1). */
  random?: () => number;
  /** First backoff delay (default 500 ms); doubles per retry. */
  retryBaseDelayMs?: number;
  /** Cap on a computed backoff delay (default 8 s). */
  retryMaxDelayMs?: number;
  /** Cap on a server's Retry-After (default 30 s). */
  retryAfterMaxMs?: number;
}

export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 409, 429]);

const MESSAGE_PREVIEW = 200;

const usageSchema = z
  .object({
    prompt_tokens: z.number().nonnegative().optional(),
    completion_tokens: z.number().nonnegative().optional(),
    total_tokens: z.number().nonnegative().optional(),
  })
  .loose();

const completionSchema = z
  .object({
    model: z.string().optional().catch(undefined),
    choices: z
      .array(
        z
          .object({
            message: z.object({ content: z.unknown() }).loose(),
            finish_reason: z.string().nullish().catch(undefined),
          })
          .loose(),
        { error: "choices is missing or not an array" },
      )
      .min(1, { error: "choices is empty" }),
    usage: z.unknown().optional(),
  })
  .loose();

/** The error message in the shapes servers use: OpenAI/vLLM, llama.cpp, plain, FastAPI. */
const errorMessageSchema = z.union([
  z.object({ error: z.object({ message: z.string() }) }).transform((data) => data.error.message),
  z.object({ error: z.string() }).transform((data) => data.error),
  z.object({ message: z.string() }).transform((data) => data.message),
  z.object({ detail: z.string() }).transform((data) => data.detail),
]);

type AttemptFailure = {
  kind: "http" | "timeout" | "network";
  retryable: boolean;
  /** Human-readable cause, already free of the API key. */
  reason: string;
  status?: number;
  retryAfterMs?: number;
};

type AttemptOutcome = { ok: true; result: CompletionResult } | { ok: false; failure: AttemptFailure };

/** A counting semaphore whose waiters can be cancelled. */
class Semaphore {
  private active = 0;
  private readonly waiters: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) throw abortReason(signal);
    if (this.active < this.limit) {
      this.active += 1;
      return this.releaser();
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal?.removeEventListener("abort", onAbort);
        this.active += 1;
        resolve(this.releaser());
      };
      const onAbort = () => {
        const index = this.waiters.indexOf(grant);
        if (index >= 0) this.waiters.splice(index, 1);
        reject(abortReason(signal));
      };
      this.waiters.push(grant);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active -= 1;
      this.waiters.shift()?.();
    };
  }
}

/** The caller's abort reason if it is an Error (DOMException is), else an AbortError. */
function abortReason(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error) return reason;
  return new DOMException(typeof reason === "string" ? reason : "The operation was aborted.", "AbortError");
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Run `work` but reject as soon as `signal` aborts. */
function raceAbort<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** Retry-After in ms from `retry-after-ms` or `retry-after` (seconds or an HTTP date). */
export function parseRetryAfter(headers: Headers, now: number): number | undefined {
  const ms = headers.get("retry-after-ms")?.trim();
  if (ms && /^\d+(\.\d+)?$/.test(ms)) return Number(ms);
  const value = headers.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

function preview(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > MESSAGE_PREVIEW ? `${trimmed.slice(0, MESSAGE_PREVIEW)}…` : trimmed;
}

function describeCause(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return typeof code === "string" ? `${code} (${cause.message})` : cause.message;
  }
  return error.message;
}

function parseUsage(raw: unknown): TokenUsage | undefined {
  const parsed = usageSchema.safeParse(raw);
  if (!parsed.success) return undefined;
  const { prompt_tokens: prompt, completion_tokens: completion, total_tokens: total } = parsed.data;
  if (prompt === undefined && completion === undefined && total === undefined) return undefined;
  return {
    promptTokens: prompt ?? 0,
    completionTokens: completion ?? 0,
    totalTokens: total ?? (prompt ?? 0) + (completion ?? 0),
  };
}

export function createOpenAiProvider(settings: OpenAiProviderSettings, deps: OpenAiProviderDeps = {}): LlmProvider {
  const fetchImpl = deps.fetch ?? globalThis.fetch;
  const sleep = deps.sleep ?? defaultSleep;
  const now = deps.now ?? Date.now;
  const random = deps.random ?? Math.random;
  const baseDelay = deps.retryBaseDelayMs ?? 500;
  const maxDelay = deps.retryMaxDelayMs ?? 8_000;
  const retryAfterMax = deps.retryAfterMaxMs ?? 30_000;

  const endpoint = `${settings.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  const shownEndpoint = displayUrl(endpoint);
  const apiKey = settings.apiKey?.trim() || undefined;
  const maxRetries = Math.max(0, Math.floor(settings.maxRetries));
  const timeoutMs = settings.timeoutMs;
  const maxResponseBytes = settings.maxResponseBytes ?? maxResponseBytesFromEnv();
  const semaphore = new Semaphore(Math.max(1, Math.floor(settings.concurrency)));

  const scrub = (text: string): string => (apiKey ? text.split(apiKey).join("[redacted]") : text);

  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;

  function backoff(retry: number): number {
    const exponential = Math.min(maxDelay, baseDelay * 2 ** (retry - 1));
    // "Equal jitter": half fixed, half random, so retries never collapse to zero delay.
    return Math.round(exponential / 2 + random() * (exponential / 2));
  }

  function formatError(reason: string, body: string): AppError {
    const shown = scrub(preview(body));
    return new AppError("LLM_FORMAT", `LLM server returned an unusable response: ${reason}; body: ${JSON.stringify(shown)}`, {
      provider: "openai",
      body: shown,
    });
  }

  function parseCompletion(body: string): CompletionResult {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      throw formatError(body.trim() === "" ? "empty body" : "body is not valid JSON", body);
    }
    const parsed = completionSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const reason =
        issue && issue.path.length === 0 && issue.code === "invalid_type"
          ? "body is not a JSON object"
          : issue?.path[0] === "choices"
            ? issue.message.startsWith("choices")
              ? issue.message
              : `choices is malformed (${issue.path.join(".")}: ${issue.message})`
            : `malformed body (${issue?.path.join(".") ?? ""}: ${issue?.message ?? "invalid"})`;
      throw formatError(reason, body);
    }
    const choice = parsed.data.choices[0];
    const content = choice?.message.content;
    if (typeof content !== "string") {
      const what = content === null || content === undefined ? "missing (null)" : `a ${typeof content}, not a string`;
      const finish = choice?.finish_reason ? ` (finish_reason: ${choice.finish_reason})` : "";
      throw formatError(`choices[0].message.content is ${what}${finish}`, body);
    }
    const result: CompletionResult = { text: content };
    const usage = parseUsage(parsed.data.usage);
    if (usage) result.usage = usage;
    if (parsed.data.model) result.model = parsed.data.model;
    return result;
  }

  function tooLargeError(declared: number | null): AppError {
    const cap = formatBytes(maxResponseBytes);
    const what = declared === null ? "sent a response" : `declared a response of ${declared.toLocaleString("en")} bytes,`;
    return new AppError(
      "LLM_FORMAT",
      `LLM server at ${shownEndpoint} ${what} larger than the ${cap} cap; the request was aborted (raise ${MAX_RESPONSE_ENV} if the model really writes that much)`,
      { provider: "openai", kind: "too_large", limitBytes: maxResponseBytes, ...(declared === null ? {} : { declaredBytes: declared }), url: shownEndpoint },
    );
  }

  function httpFailure(response: Response, body: string): AttemptFailure {
    const status = response.status;
    let serverMessage: string | undefined;
    try {
      const parsed = errorMessageSchema.safeParse(JSON.parse(body) as unknown);
      if (parsed.success) serverMessage = parsed.data;
    } catch {
      // not JSON: fall back to the raw text below
    }
    const detail = scrub(preview(serverMessage ?? body));
    const statusText = response.statusText ? ` ${response.statusText}` : "";
    let hint = "";
    if (status === 401 || status === 403) hint = " (check REFINERY_LLM_API_KEY)";
    else if (status === 404) hint = " (check REFINERY_LLM_BASE_URL and REFINERY_LLM_MODEL)";
    const retryable = RETRYABLE_STATUSES.has(status) || status >= 500;
    const retryAfter = retryable ? parseRetryAfter(response.headers, now()) : undefined;
    return {
      kind: "http",
      retryable,
      status,
      reason: `HTTP ${status}${statusText}${detail ? `: ${detail}` : ""}${hint}`,
      ...(retryAfter === undefined ? {} : { retryAfterMs: Math.min(retryAfter, retryAfterMax) }),
    };
  }

  async function attempt(body: string, signal: AbortSignal | undefined): Promise<AttemptOutcome> {
    const release = await semaphore.acquire(signal);
    if (signal?.aborted) {
      release();
      throw abortReason(signal);
    }
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new DOMException(`timed out after ${timeoutMs} ms`, "TimeoutError"));
    }, timeoutMs);
    const onCallerAbort = () => controller.abort(abortReason(signal));
    signal?.addEventListener("abort", onCallerAbort, { once: true });

    const transportFailure = (error: unknown): AttemptOutcome => {
      if (signal?.aborted) throw abortReason(signal);
      if (timedOut) return { ok: false, failure: { kind: "timeout", retryable: true, reason: `timed out after ${timeoutMs} ms` } };
      return { ok: false, failure: { kind: "network", retryable: true, reason: scrub(`network error: ${describeCause(error)}`) } };
    };

    try {
      let response: Response;
      try {
        response = await fetchImpl(endpoint, { method: "POST", headers, body, signal: controller.signal });
      } catch (error) {
        return transportFailure(error);
      }
      let text: string;
      try {
        text = await readBodyCapped(response, response.ok ? maxResponseBytes : Math.min(ERROR_BODY_BYTES, maxResponseBytes), !response.ok);
      } catch (error) {
        if (error instanceof ResponseTooLarge) {
          controller.abort();
          throw tooLargeError(error.declared);
        }
        return transportFailure(error);
      }
      if (!response.ok) return { ok: false, failure: httpFailure(response, text) };
      return { ok: true, result: parseCompletion(text) };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onCallerAbort);
      release();
    }
  }

  function finalError(failure: AttemptFailure, attempts: number): AppError {
    const tries = attempts === 1 ? "1 attempt" : `${attempts} attempts`;
    let message: string;
    if (failure.kind === "timeout") {
      message = `LLM request to ${shownEndpoint} ${failure.reason} (${tries}); raise REFINERY_LLM_TIMEOUT_MS if the model is slow`;
    } else if (failure.kind === "network") {
      message = `Could not reach the LLM server at ${shownEndpoint} (${tries}): ${failure.reason}`;
    } else if (failure.retryable) {
      message = `LLM server at ${shownEndpoint} failed after ${tries}: ${failure.reason}`;
    } else {
      message = `LLM server at ${shownEndpoint} rejected the request: ${failure.reason}`;
    }
    return new AppError("LLM_UNAVAILABLE", message, {
      provider: "openai",
      kind: failure.kind,
      ...(failure.status === undefined ? {} : { status: failure.status }),
      attempts,
      url: shownEndpoint,
    });
  }

  return {
    name: "openai",
    model: settings.model,
    isLlm: true,
    async complete({ messages, signal }: CompletionRequest): Promise<CompletionResult> {
      if (signal?.aborted) throw abortReason(signal);
      const body = JSON.stringify({
        model: settings.model,
        messages: messages.map((m: ChatMessage) => ({ role: m.role, content: m.content })),
        temperature: settings.temperature,
        ...(settings.maxTokens === undefined ? {} : { max_tokens: settings.maxTokens }),
      });
      for (let attemptNo = 1; ; attemptNo += 1) {
        const outcome = await attempt(body, signal);
        if (outcome.ok) return outcome.result;
        const { failure } = outcome;
        if (!failure.retryable || attemptNo > maxRetries) throw finalError(failure, attemptNo);
        const delay = failure.retryAfterMs ?? backoff(attemptNo);
        await raceAbort(sleep(delay, signal), signal);
      }
    },
  };
}
