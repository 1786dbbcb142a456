/** The request contracts of the LLM settings routes (app/api/settings/llm/**). */
import { z } from "zod";
import type { RequestContract } from "../../api/contract";

const value = z.union([z.string().max(2000), z.number(), z.null()]).transform((v) => (typeof v === "number" ? String(v) : v));

/** Overrides of the environment's LLM settings; the API key is not among them. */
const llmSettingsBody = z
  .object({ provider: value, baseUrl: value, model: value, temperature: value, timeoutMs: value, maxRetries: value, concurrency: value, maxTokens: value })
  .partial()
  .strict()
  .describe('overrides; null or "" returns a field to the environment\'s value; the API key cannot be set here')
  .meta({ examples: [{ provider: "openai", baseUrl: "http://127.0.0.1:11434/v1", model: "qwen2.5:7b", temperature: 0, timeoutMs: 60000, maxRetries: 0, concurrency: 4, maxTokens: null }] });

export const providersContract = {
  saveLlmSettings: { body: llmSettingsBody },
  checkLlmConnection: { body: llmSettingsBody },
} satisfies Record<string, RequestContract>;
