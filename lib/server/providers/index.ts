/**
 * providers/ — the LLM behind the loop, Ask and verification, and the entry file of the domain.
 *
 * Which LLM provider a run uses: `heuristic` (default, offline, not an LLM), `openai` (any
 * OpenAI-compatible endpoint from REFINERY_LLM_* settings) or `replay` (a recorded file).
 * The openai provider is created once per process so its concurrency limit is shared by
 * every run of the server.
 */
import fs from "node:fs";
import { AppError } from "../../errors";
import type { LlmProvider } from "../../loop/types";
import { createHeuristicProvider } from "../../providers/heuristic";
import { createReplayProvider, parseReplayRecording } from "../../providers/replay";
import type { LlmProviderName, LlmSettings } from "./llm-env";
import { redactSettings } from "./llm-env";
import { createOpenAiProvider } from "./openai";
import { getEffectiveLlmSettings } from "./settings-store";

export type ProviderName = LlmProviderName;

export interface GetProviderOptions {
  /** Recording for the replay provider (default: REFINERY_REPLAY_FILE). */
  replayFile?: string;
  /** Use these settings instead of the saved ones (the settings page's "Test the connection" of unsaved values); never cached. */
  settings?: LlmSettings;
}

let openAi: { key: string; provider: LlmProvider } | undefined;

export async function getProvider(name?: ProviderName, options: GetProviderOptions = {}): Promise<LlmProvider> {
  const settings = options.settings ?? (await getEffectiveLlmSettings());
  const chosen = name ?? settings.provider;
  if (chosen === "heuristic") return createHeuristicProvider();
  if (chosen === "replay") {
    const file = options.replayFile ?? process.env.REFINERY_REPLAY_FILE;
    if (!file) throw new AppError("CONFIG", "the replay provider needs a recording: --replay-file FILE or REFINERY_REPLAY_FILE");
    let text: string;
    try {
      text = fs.readFileSync(/*turbopackIgnore: true*/ file, "utf8");
    } catch {
      throw new AppError("NOT_FOUND", `${file}: no such replay recording`);
    }
    return createReplayProvider({ recording: parseReplayRecording(text, file) });
  }
  if (!settings.baseUrl || !settings.model) {
    throw new AppError(
      "CONFIG",
      "the openai provider needs a base URL and a model: REFINERY_LLM_BASE_URL and REFINERY_LLM_MODEL, or the settings page (any OpenAI-compatible server: vLLM, Ollama, llama.cpp, LM Studio…)",
    );
  }
  if (options.settings) return createOpenAiProvider({ ...settings, baseUrl: settings.baseUrl, model: settings.model });
  const key = JSON.stringify(redactSettings(settings));
  if (!openAi || openAi.key !== key) openAi = { key, provider: createOpenAiProvider({ ...settings, baseUrl: settings.baseUrl, model: settings.model }) };
  return openAi.provider;
}

/** What the UI shows about the configured provider: never the API key. */
export async function describeProvider() {
  const settings = redactSettings(await getEffectiveLlmSettings());
  return { ...settings, isLlm: settings.provider !== "heuristic" };
}

// The rest of the domain's public surface: settings from the environment and the settings page.
export * from "./llm-env";
export * from "./settings-store";
export * from "./contract";
