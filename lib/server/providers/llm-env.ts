/**
 * LLM settings from the environment, validated with zod and read once per process:
 *
 *   REFINERY_LLM_PROVIDER      heuristic | openai | replay        (default heuristic)
 *   REFINERY_LLM_BASE_URL      e.g. http://localhost:8000/v1      (required for openai)
 *   REFINERY_LLM_API_KEY       bearer token; optional for local servers
 *   REFINERY_LLM_MODEL         model name sent to the server      (required for openai)
 *   REFINERY_LLM_TEMPERATURE   0..2                                (default 0)
 *   REFINERY_LLM_TIMEOUT_MS    per-attempt timeout                 (default 60000)
 *   REFINERY_LLM_MAX_RETRIES   retries after the first attempt     (default 3)
 *   REFINERY_LLM_CONCURRENCY   requests in flight per provider     (default 2)
 *   REFINERY_LLM_MAX_TOKENS    max_tokens sent to the server       (optional)
 *
 * Blank values count as unset. Errors name the offending variable and never echo the API key;
 * anything shown to users goes through `redactSettings`.
 */
import { z } from "zod";
import { AppError } from "../../errors";

export const LLM_PROVIDER_NAMES = ["heuristic", "openai", "replay"] as const;
export type LlmProviderName = (typeof LLM_PROVIDER_NAMES)[number];

interface CommonLlmSettings {
  /** Without trailing slash; `/chat/completions` is appended. */
  baseUrl?: string;
  /** Secret: never log it, never return it for display (use `redactSettings`). */
  apiKey?: string;
  model?: string;
  temperature: number;
  timeoutMs: number;
  maxRetries: number;
  concurrency: number;
  maxTokens?: number;
}

export type OpenAiSettings = CommonLlmSettings & { provider: "openai"; baseUrl: string; model: string };
export type LlmSettings = OpenAiSettings | (CommonLlmSettings & { provider: "heuristic" | "replay" });

/** What may be shown in the UI, logs and traces: no API key, no credentials in the URL. */
export interface RedactedLlmSettings {
  provider: LlmProviderName;
  baseUrl: string | null;
  model: string | null;
  hasApiKey: boolean;
  temperature: number;
  timeoutMs: number;
  maxRetries: number;
  concurrency: number;
  maxTokens: number | null;
}

export const LLM_ENV = {
  provider: "REFINERY_LLM_PROVIDER",
  baseUrl: "REFINERY_LLM_BASE_URL",
  apiKey: "REFINERY_LLM_API_KEY",
  model: "REFINERY_LLM_MODEL",
  temperature: "REFINERY_LLM_TEMPERATURE",
  timeoutMs: "REFINERY_LLM_TIMEOUT_MS",
  maxRetries: "REFINERY_LLM_MAX_RETRIES",
  concurrency: "REFINERY_LLM_CONCURRENCY",
  maxTokens: "REFINERY_LLM_MAX_TOKENS",
} as const;

export const LLM_DEFAULTS = Object.freeze({
  provider: "heuristic",
  temperature: 0,
  timeoutMs: 60_000,
  maxRetries: 3,
  concurrency: 2,
});

type Env = Record<string, string | undefined>;

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/** Strip user:password@ from a URL so it can be displayed. Non-URLs come back unchanged. */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password) return url;
    parsed.username = "";
    parsed.password = "";
    return parsed.toString().replace(/\/$/, url.endsWith("/") ? "/" : "");
  } catch {
    return url;
  }
}

function quoted(value: string): string {
  const shown = value.length > 60 ? `${value.slice(0, 60)}…` : value;
  return JSON.stringify(shown);
}

const text = z.string().trim().min(1).optional();

function integer(min: number, max: number) {
  const rangeError = (issue: { input?: unknown }) => `must be an integer between ${min} and ${max} (got ${String(issue.input)})`;
  return z
    .string()
    .trim()
    .regex(/^[+]?\d+$/, { error: (issue) => `must be an integer between ${min} and ${max} (got ${quoted(String(issue.input))})` })
    .transform(Number)
    .pipe(z.number().int().min(min, { error: rangeError }).max(max, { error: rangeError }))
    .optional();
}

const temperatureSchema = z
  .string()
  .trim()
  .regex(/^[+]?(\d+(\.\d*)?|\.\d+)$/, { error: (issue) => `must be a number between 0 and 2 (got ${quoted(String(issue.input))})` })
  .transform(Number)
  .pipe(z.number().max(2, { error: (issue) => `must be a number between 0 and 2 (got ${String(issue.input)})` }))
  .optional();

const baseUrlSchema = z
  .string()
  .trim()
  .refine(
    (value) => {
      const url = parseUrl(value);
      return url?.protocol === "http:" || url?.protocol === "https:";
    },
    {
      error: (issue) => `must be an http(s) URL such as http://localhost:8000/v1 (got ${quoted(displayUrl(String(issue.input)))})`,
      abort: true,
    },
  )
  .refine(
    (value) => {
      const url = parseUrl(value);
      return !url?.username && !url?.password;
    },
    { error: `must not contain credentials; put the token in ${LLM_ENV.apiKey} instead`, abort: true },
  )
  .transform((value) => value.replace(/\/+$/, ""))
  .optional();

const envSchema = z.object({
  [LLM_ENV.provider]: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(
      z.enum(LLM_PROVIDER_NAMES, {
        error: (issue) => `must be one of ${LLM_PROVIDER_NAMES.join(", ")} (got ${quoted(String(issue.input))})`,
      }),
    )
    .optional(),
  [LLM_ENV.baseUrl]: baseUrlSchema,
  // The key's own content is never put into an error message.
  [LLM_ENV.apiKey]: z.string().trim().min(1).optional(),
  [LLM_ENV.model]: text,
  [LLM_ENV.temperature]: temperatureSchema,
  [LLM_ENV.timeoutMs]: integer(1, 3_600_000),
  [LLM_ENV.maxRetries]: integer(0, 20),
  [LLM_ENV.concurrency]: integer(1, 256),
  [LLM_ENV.maxTokens]: integer(1, 10_000_000),
});

/**
 * Parse and validate the LLM settings. Throws AppError("CONFIG") whose message names every
 * bad variable (details.variables lists them); the API key's value never appears in it.
 */
export function readLlmSettings(env: Env = process.env): LlmSettings {
  const input: Record<string, string | undefined> = {};
  for (const name of Object.values(LLM_ENV)) {
    const value = env[name];
    input[name] = value === undefined || value.trim() === "" ? undefined : value;
  }
  const parsed = envSchema.safeParse(input);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const variable = String(issue.path[0] ?? "environment");
      const message = variable === LLM_ENV.apiKey ? "is invalid" : issue.message;
      return { variable, message: `${variable} ${message}` };
    });
    throw configError(problems);
  }
  const values = parsed.data;
  const provider = values[LLM_ENV.provider] ?? LLM_DEFAULTS.provider;
  const common: CommonLlmSettings = {
    baseUrl: values[LLM_ENV.baseUrl],
    apiKey: values[LLM_ENV.apiKey],
    model: values[LLM_ENV.model],
    temperature: values[LLM_ENV.temperature] ?? LLM_DEFAULTS.temperature,
    timeoutMs: values[LLM_ENV.timeoutMs] ?? LLM_DEFAULTS.timeoutMs,
    maxRetries: values[LLM_ENV.maxRetries] ?? LLM_DEFAULTS.maxRetries,
    concurrency: values[LLM_ENV.concurrency] ?? LLM_DEFAULTS.concurrency,
    maxTokens: values[LLM_ENV.maxTokens],
  };
  for (const key of Object.keys(common) as (keyof CommonLlmSettings)[]) {
    if (common[key] === undefined) delete common[key];
  }
  if (provider === "openai") {
    const { baseUrl, model } = common;
    const problems: { variable: string; message: string }[] = [];
    if (!baseUrl) {
      problems.push({
        variable: LLM_ENV.baseUrl,
        message: `${LLM_ENV.baseUrl} is required when ${LLM_ENV.provider}=openai (e.g. http://localhost:8000/v1)`,
      });
    }
    if (!model) {
      problems.push({ variable: LLM_ENV.model, message: `${LLM_ENV.model} is required when ${LLM_ENV.provider}=openai` });
    }
    if (!baseUrl || !model) throw configError(problems);
    return { ...common, provider, baseUrl, model };
  }
  return { ...common, provider };
}

function configError(problems: { variable: string; message: string }[]): AppError {
  return new AppError("CONFIG", `Invalid LLM settings: ${problems.map((p) => p.message).join("; ")}`, {
    variables: [...new Set(problems.map((p) => p.variable))],
  });
}

let cached: LlmSettings | undefined;

/** The process's LLM settings, read from process.env on first use and then kept. */
export function getLlmSettings(): LlmSettings {
  cached ??= readLlmSettings(process.env);
  return cached;
}

/** Forget the cached settings (tests, or after changing process.env on purpose). */
export function resetLlmSettingsCache(): void {
  cached = undefined;
}

/** Settings safe to display or persist: the API key is reduced to whether one is set. */
export function redactSettings(settings: LlmSettings): RedactedLlmSettings {
  return {
    provider: settings.provider,
    baseUrl: settings.baseUrl ? displayUrl(settings.baseUrl) : null,
    model: settings.model ?? null,
    hasApiKey: Boolean(settings.apiKey),
    temperature: settings.temperature,
    timeoutMs: settings.timeoutMs,
    maxRetries: settings.maxRetries,
    concurrency: settings.concurrency,
    maxTokens: settings.maxTokens ?? null,
  };
}
