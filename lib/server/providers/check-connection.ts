/**
 * "Test the connection" of the settings page: one tiny judgement prompt through the provider the
 * settings name. Apart from settings-store.ts because it needs the provider factory (index.ts),
 * which itself reads the saved settings: one module each way, no circle.
 */
import { KnowledgeGraph } from "../../graph/model";
import { buildJudgePrompt } from "../../loop/prompts";
import { getProvider } from "./index";
import type { ConnectionCheck, EditableLlmField } from "./settings-store";
import { getEffectiveLlmSettings, settingsWithChanges } from "./settings-store";

/**
 * Send one tiny judgement prompt through the provider and report what happened: the saved
 * settings, or with `changes` the form's unsaved values over them (validated as a save would,
 * nothing written) — a person tests what they typed before saving it.
 */
export async function checkLlmConnection(options: { changes?: Partial<Record<EditableLlmField, string | null>> } = {}): Promise<ConnectionCheck> {
  const changes = options.changes;
  const settings = changes && Object.keys(changes).length > 0 ? await settingsWithChanges(changes) : await getEffectiveLlmSettings();
  const started = performance.now();
  try {
    const provider = await getProvider(settings.provider, changes ? { settings } : {});
    const question = "Is Refinery connected to this model?";
    const result = await provider.complete({
      task: "judge",
      messages: buildJudgePrompt({ question, triples: [] }),
      context: { task: "judge", question, step: 1, triples: [], graph: new KnowledgeGraph() },
    });
    return { ok: true, provider: provider.name, model: result.model ?? provider.model, latencyMs: Math.round(performance.now() - started), detail: result.text.slice(0, 200) };
  } catch (error) {
    return {
      ok: false,
      provider: settings.provider,
      model: settings.model ?? null,
      latencyMs: Math.round(performance.now() - started),
      detail: error instanceof Error ? error.message : String(error),
    };
  }
}
