import type { RunStatus } from "../api/run-types";

export const STATUS_LABEL: Record<RunStatus, string> = {
  running: "running",
  early_exit: "early exit",
  awaiting_review: "awaiting review",
  finished: "finished",
  failed: "failed",
  interrupted: "interrupted",
};

export const STATUS_HINT: Record<RunStatus, string> = {
  running: "The loop is still retrieving and judging on the server.",
  early_exit: "Answerable at step 1: no refinement needed.",
  awaiting_review: "Refinement actions were proposed; nothing is applied until a person approves them.",
  finished: "The loop ended without proposing any action.",
  failed: "The run stopped with an error.",
  interrupted: "The server stopped before the run finished.",
};

/** UTC with seconds, so server and browser render the same text (no hydration mismatch). */
export function formatTimestamp(iso: string): string {
  return `${new Date(iso).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" })} UTC`;
}

export function formatMs(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1_000)} s`;
}

/** Wall time of a finished run; null while it runs (a live clock would differ between server and browser). */
export function runDuration(run: { createdAt: string; finishedAt: string | null }): string | null {
  if (!run.finishedAt) return null;
  return formatMs(Date.parse(run.finishedAt) - Date.parse(run.createdAt));
}

export function providerLabel(run: { provider: string; model: string }): string {
  return run.model && run.model !== run.provider ? `${run.provider} · ${run.model}` : run.provider;
}
