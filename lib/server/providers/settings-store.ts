/**
 * LLM settings = the environment (REFINERY_LLM_*) overlaid with what an admin saved on the
 * settings page. Saved values go through the same validation as the environment. The API key
 * is never stored: it comes from REFINERY_LLM_API_KEY only, so the database holds no secret.
 */
import type { Actor } from "../../auth/permissions";
import { AppError } from "../../errors";
import { recordAudit } from "../audit";
import { getSql } from "../db/sql";
import type { SqlExecutor } from "../db/sql";
import type { LlmSettings, RedactedLlmSettings } from "./llm-env";
import { LLM_ENV, readLlmSettings, redactSettings } from "./llm-env";

/** Fields the settings page may change, by their environment variable names. */
export const EDITABLE_LLM_FIELDS = ["provider", "baseUrl", "model", "temperature", "timeoutMs", "maxRetries", "concurrency", "maxTokens"] as const;
export type EditableLlmField = (typeof EDITABLE_LLM_FIELDS)[number];

const PREFIX = "llm.";

const FIELD_LABELS: Record<string, string> = {
  [LLM_ENV.provider]: "Provider",
  [LLM_ENV.baseUrl]: "Base URL",
  [LLM_ENV.model]: "Model",
  [LLM_ENV.temperature]: "Temperature",
  [LLM_ENV.timeoutMs]: "Timeout (ms)",
  [LLM_ENV.maxRetries]: "Retries",
  [LLM_ENV.concurrency]: "Concurrent requests",
  [LLM_ENV.maxTokens]: "Max tokens",
};

async function storedOverrides(db: SqlExecutor = getSql()): Promise<Partial<Record<EditableLlmField, string>>> {
  const rows = await db.query<{ key: string; value: string }>(`SELECT "key", "value" FROM "Setting" WHERE "key" LIKE 'llm.%'`);
  const out: Partial<Record<EditableLlmField, string>> = {};
  for (const row of rows) {
    const field = row.key.slice(PREFIX.length) as EditableLlmField;
    if ((EDITABLE_LLM_FIELDS as readonly string[]).includes(field)) out[field] = row.value;
  }
  return out;
}

function mergedEnv(overrides: Partial<Record<EditableLlmField, string>>): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const [field, value] of Object.entries(overrides) as [EditableLlmField, string][]) env[LLM_ENV[field]] = value;
  return env;
}

/** The settings runs use now: environment plus saved overrides. */
export async function getEffectiveLlmSettings(): Promise<LlmSettings> {
  return readLlmSettings(mergedEnv(await storedOverrides()));
}

export interface LlmSettingsView {
  effective: RedactedLlmSettings;
  /** Which fields come from the settings page rather than the environment. */
  overridden: EditableLlmField[];
  apiKeySource: "environment" | "none";
}

export async function describeLlmSettings(): Promise<LlmSettingsView> {
  const overrides = await storedOverrides();
  const effective = await getEffectiveLlmSettings();
  return {
    effective: redactSettings(effective),
    overridden: Object.keys(overrides) as EditableLlmField[],
    apiKeySource: effective.apiKey ? "environment" : "none",
  };
}

export interface SettingsAuditor {
  actor: Actor;
  ip?: string | null;
}

/**
 * Save overrides (a field set to null or "" goes back to the environment's value). Validated as
 * a whole before anything is written, so a bad value changes nothing and is not audited; with
 * `audit`, the `settings.update` event is written in the same transaction as the values.
 */
export async function saveLlmSettings(changes: Partial<Record<EditableLlmField, string | null>>, audit?: SettingsAuditor): Promise<LlmSettingsView> {
  for (const field of Object.keys(changes)) {
    if (!(EDITABLE_LLM_FIELDS as readonly string[]).includes(field)) throw new AppError("INVALID_INPUT", `unknown setting ${field}`);
  }
  const now = new Date();
  const fields = Object.keys(changes);
  await getSql().transaction(async (tx) => {
    // Read-modify-write of several rows: one save at a time, or two saves at once would each
    // overwrite (or, on PostgreSQL, collide with) the other's rows. SQLite's write transactions
    // are serialised already.
    if (tx.dialect === "postgres") await tx.execute(`SELECT pg_advisory_xact_lock(?)`, [SETTINGS_LOCK]);
    const next = { ...(await storedOverrides(tx)) };
    for (const [field, value] of Object.entries(changes) as [EditableLlmField, string | null | undefined][]) {
      if (value === undefined) continue;
      if (value === null || value.trim() === "") delete next[field];
      else next[field] = value.trim();
    }
    validate(next);
    await tx.execute(`DELETE FROM "Setting" WHERE "key" LIKE 'llm.%'`);
    for (const [field, value] of Object.entries(next)) {
      await tx.execute(`INSERT INTO "Setting" ("key", "value", "updatedAt") VALUES (?, ?, ?)`, [PREFIX + field, value, now]);
    }
    if (audit) {
      await recordAudit(
        audit.actor,
        { action: "settings.update", summary: `changed the LLM settings: ${fields.join(", ") || "nothing"}`, targetType: "settings", targetId: "llm", details: { fields }, ip: audit.ip },
        tx,
      );
    }
  });
  return describeLlmSettings();
}

/** pg_advisory_xact_lock key of the LLM settings (any fixed number no other lock uses). */
const SETTINGS_LOCK = 0x5e771;

/** The merged settings must be valid as a whole; errors name the page's labels, not variables. */
function validate(overrides: Partial<Record<EditableLlmField, string>>): void {
  try {
    readLlmSettings(mergedEnv(overrides));
  } catch (error) {
    if (error instanceof AppError) {
      let message = error.message.replace("Invalid LLM settings: ", "");
      for (const [variable, label] of Object.entries(FIELD_LABELS)) message = message.split(variable).join(label);
      throw new AppError("INVALID_INPUT", message, error.details);
    }
    throw error;
  }
}

/**
 * The effective settings with a form's unsaved values over them, validated as a save would be and
 * nothing written (null or "" returns a field to the environment's value).
 */
export async function settingsWithChanges(changes: Partial<Record<EditableLlmField, string | null>>): Promise<LlmSettings> {
  for (const field of Object.keys(changes)) {
    if (!(EDITABLE_LLM_FIELDS as readonly string[]).includes(field)) throw new AppError("INVALID_INPUT", `unknown setting ${field}`);
  }
  const next = { ...(await storedOverrides()) };
  for (const [field, value] of Object.entries(changes) as [EditableLlmField, string | null | undefined][]) {
    if (value === undefined) continue;
    if (value === null || value.trim() === "") delete next[field];
    else next[field] = value.trim();
  }
  validate(next);
  return readLlmSettings(mergedEnv(next));
}

/** What "Test the connection" answers (check-connection.ts). */
export interface ConnectionCheck {
  ok: boolean;
  provider: string;
  model: string | null;
  latencyMs: number;
  /** The first characters the model answered, or the error. */
  detail: string;
}
