/**
 * Versioned backups of graph.json, one per apply, in `.deeprefine/versions/<n>/`:
 * `graph.json` (the file as it was before apply n, byte for byte), `changeset.json` and
 * `inverse.json` (lossless), and `version.json` (this record). Undo restores the newest
 * version not yet undone, and only when graph.json still hashes to what that apply wrote:
 * anything else means someone changed the graph since, and undo would silently discard it.
 */
import { z } from "zod";
import { AppError } from "../errors";

export const VERSION_FILES = {
  graph: "graph.json",
  changeset: "changeset.json",
  inverse: "inverse.json",
  meta: "version.json",
} as const;

const appliedActionSchema = z.object({
  index: z.number(),
  action: z.string(),
  confidence: z.enum(["HIGH", "MEDIUM", "LOW"]).nullable(),
  summary: z.string(),
  skipped: z.boolean(),
});

const versionMetaSchema = z.looseObject({
  version: z.number().int().positive(),
  created_ts: z.string(),
  query: z.string().nullable(),
  query_id: z.string().nullable(),
  trace_file: z.string().nullable(),
  refinement_file: z.string(),
  /** sha256 of graph.json before the apply (= versions/<n>/graph.json) and after it. */
  before_sha256: z.string(),
  after_sha256: z.string(),
  refresh_wiki: z.boolean(),
  allow_low_confidence: z.boolean(),
  actions: z.array(appliedActionSchema),
  undone_ts: z.string().nullable(),
});

export type VersionMeta = z.infer<typeof versionMetaSchema>;
export type AppliedAction = z.infer<typeof appliedActionSchema>;

export function parseVersionMeta(text: string, { source }: { source: string }): VersionMeta {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new AppError("PARSE_ERROR", `${source}: invalid JSON (${(e as Error).message})`, { source });
  }
  const result = versionMetaSchema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new AppError("INVALID_INPUT", `${source}: field "${issue?.path.join(".") ?? "?"}": ${issue?.message ?? "invalid"}`, { source });
  }
  return result.data;
}

export function formatVersionMeta(meta: VersionMeta): string {
  return `${JSON.stringify(meta, null, 2)}\n`;
}

/** Version folder names are positive integers; anything else in the folder is ignored. */
export function versionNumbers(names: readonly string[]): number[] {
  return names
    .filter((n) => /^[1-9]\d*$/.test(n))
    .map(Number)
    .sort((a, b) => a - b);
}

export function nextVersionNumber(existing: readonly number[]): number {
  return existing.length === 0 ? 1 : Math.max(...existing) + 1;
}

/** The version undo restores: the newest one not undone yet, or null. */
export function undoTarget(metas: readonly VersionMeta[]): VersionMeta | null {
  const live = metas.filter((m) => m.undone_ts === null).sort((a, b) => b.version - a.version);
  return live[0] ?? null;
}
