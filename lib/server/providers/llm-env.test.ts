import { afterEach, describe, expect, it } from "vitest";
import { AppError } from "../../errors";
import { getLlmSettings, readLlmSettings, redactSettings, resetLlmSettingsCache } from "./llm-env";

const KEY = "sk-live-do-not-leak-9876";

const openai = {
  REFINERY_LLM_PROVIDER: "openai",
  REFINERY_LLM_BASE_URL: "http://localhost:8000/v1/",
  REFINERY_LLM_MODEL: "qwen2.5-7b-instruct",
  REFINERY_LLM_API_KEY: KEY,
};

function errorOf(env: Record<string, string | undefined>): AppError {
  try {
    readLlmSettings(env);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error("expected readLlmSettings to throw");
}

describe("readLlmSettings", () => {
  it("defaults to the heuristic provider", () => {
    expect(readLlmSettings({})).toEqual({ provider: "heuristic", temperature: 0, timeoutMs: 60_000, maxRetries: 3, concurrency: 2 });
  });

  it("reads a full openai configuration, trimming values and the base URL's trailing slash", () => {
    const settings = readLlmSettings({
      ...openai,
      REFINERY_LLM_PROVIDER: " OpenAI ",
      REFINERY_LLM_TEMPERATURE: "0.7",
      REFINERY_LLM_TIMEOUT_MS: "1500",
      REFINERY_LLM_MAX_RETRIES: "0",
      REFINERY_LLM_CONCURRENCY: "4",
      REFINERY_LLM_MAX_TOKENS: "512",
    });
    expect(settings).toEqual({
      provider: "openai",
      baseUrl: "http://localhost:8000/v1",
      model: "qwen2.5-7b-instruct",
      apiKey: KEY,
      temperature: 0.7,
      timeoutMs: 1500,
      maxRetries: 0,
      concurrency: 4,
      maxTokens: 512,
    });
  });

  it("treats blank values as unset; the API key is optional", () => {
    const settings = readLlmSettings({ ...openai, REFINERY_LLM_API_KEY: "  ", REFINERY_LLM_TEMPERATURE: "", REFINERY_LLM_MAX_TOKENS: " " });
    expect(settings.apiKey).toBeUndefined();
    expect(settings.temperature).toBe(0);
    expect(settings.maxTokens).toBeUndefined();
  });

  it("requires a base URL and a model for openai, naming both variables", () => {
    const error = errorOf({ REFINERY_LLM_PROVIDER: "openai" });
    expect(error.message).toContain("REFINERY_LLM_BASE_URL is required");
    expect(error.message).toContain("REFINERY_LLM_MODEL is required");
    expect(error.details.variables).toEqual(["REFINERY_LLM_BASE_URL", "REFINERY_LLM_MODEL"]);
    expect(errorOf({ ...openai, REFINERY_LLM_MODEL: "" }).details.variables).toEqual(["REFINERY_LLM_MODEL"]);
  });

  it("does not require them for heuristic or replay", () => {
    expect(readLlmSettings({ REFINERY_LLM_PROVIDER: "replay" }).provider).toBe("replay");
  });

  it.each([
    ["REFINERY_LLM_PROVIDER", "claude", 'must be one of heuristic, openai, replay (got "claude")'],
    ["REFINERY_LLM_BASE_URL", "localhost:8000", "must be an http(s) URL"],
    ["REFINERY_LLM_BASE_URL", "ftp://example.com/v1", "must be an http(s) URL"],
    ["REFINERY_LLM_TEMPERATURE", "hot", 'must be a number between 0 and 2 (got "hot")'],
    ["REFINERY_LLM_TEMPERATURE", "2.5", "must be a number between 0 and 2"],
    ["REFINERY_LLM_TEMPERATURE", "-1", "must be a number between 0 and 2"],
    ["REFINERY_LLM_TIMEOUT_MS", "60s", 'must be an integer between 1 and 3600000 (got "60s")'],
    ["REFINERY_LLM_TIMEOUT_MS", "0", "must be an integer between 1 and 3600000 (got 0)"],
    ["REFINERY_LLM_MAX_RETRIES", "1.5", "must be an integer between 0 and 20"],
    ["REFINERY_LLM_MAX_RETRIES", "-1", "must be an integer between 0 and 20"],
    ["REFINERY_LLM_CONCURRENCY", "0", "must be an integer between 1 and 256"],
    ["REFINERY_LLM_MAX_TOKENS", "lots", "must be an integer between 1 and 10000000"],
  ])("%s=%j is rejected, naming the variable", (variable, value, message) => {
    const error = errorOf({ ...openai, [variable]: value });
    expect(error.code).toBe("CONFIG");
    expect(error.message).toContain(`${variable} ${message}`);
    expect(error.details.variables).toEqual([variable]);
    expect(error.message).not.toContain(KEY);
  });

  it("reports every bad variable at once", () => {
    const error = errorOf({ REFINERY_LLM_TIMEOUT_MS: "x", REFINERY_LLM_CONCURRENCY: "y" });
    expect(error.details.variables).toEqual(["REFINERY_LLM_TIMEOUT_MS", "REFINERY_LLM_CONCURRENCY"]);
  });

  it("rejects credentials in the base URL without echoing them", () => {
    const error = errorOf({ ...openai, REFINERY_LLM_BASE_URL: "https://user:hunter2@llm.example.com/v1" });
    expect(error.message).toContain("REFINERY_LLM_BASE_URL must not contain credentials");
    expect(error.message).not.toContain("hunter2");
    const invalid = errorOf({ ...openai, REFINERY_LLM_BASE_URL: "ftp://user:hunter2@llm.example.com" });
    expect(invalid.message).not.toContain("hunter2");
  });

  it("never puts the API key in an error, even when other variables are wrong", () => {
    const clean = errorOf({ ...openai, REFINERY_LLM_MODEL: "", REFINERY_LLM_CONCURRENCY: "many" });
    expect(clean.message).not.toContain(KEY);
    expect(JSON.stringify(clean.details)).not.toContain(KEY);
  });
});

describe("redactSettings", () => {
  it("reduces the key to a flag and keeps everything else for display", () => {
    const shown = redactSettings(readLlmSettings(openai));
    expect(shown).toEqual({
      provider: "openai",
      baseUrl: "http://localhost:8000/v1",
      model: "qwen2.5-7b-instruct",
      hasApiKey: true,
      temperature: 0,
      timeoutMs: 60_000,
      maxRetries: 3,
      concurrency: 2,
      maxTokens: null,
    });
    expect(JSON.stringify(shown)).not.toContain(KEY);
    expect(redactSettings(readLlmSettings({})).hasApiKey).toBe(false);
  });

  it("strips credentials from a base URL set in code", () => {
    const shown = redactSettings({ ...readLlmSettings(openai), baseUrl: "https://user:hunter2@llm.example.com/v1" });
    expect(shown.baseUrl).toBe("https://llm.example.com/v1");
  });
});

describe("getLlmSettings", () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
    resetLlmSettingsCache();
  });

  it("reads process.env once and keeps the result", () => {
    resetLlmSettingsCache();
    process.env.REFINERY_LLM_PROVIDER = "replay";
    const first = getLlmSettings();
    process.env.REFINERY_LLM_PROVIDER = "heuristic";
    expect(getLlmSettings()).toBe(first);
    expect(first.provider).toBe("replay");
    resetLlmSettingsCache();
    expect(getLlmSettings().provider).toBe("heuristic");
  });
});
