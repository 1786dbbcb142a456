/**
 * Critique memory before each iteration (seed 003's update_critique_memory), fixed as
 * reference.md §4 asks:
 * - persistence is counted over DISTINCT iterations (a set per finding), so the previous
 *   review is never counted twice and a finding seen once never looks persistent;
 * - a finding is judged by its latest state: a question answered now is not in `focus_on`,
 *   however often it failed before.
 *
 * `focus_on`: standing CRITICAL devil's-advocate findings first, then the questions failing now
 * that failed in ≥ 2 iterations, most persistent first (at most `limit`).
 * `do_not_repropose`: actions people rejected or reverted on this graph, then every action this
 * campaign already tried (applied, reverted, held back), each once.
 */
import type { CritiqueMemory } from "./types";

export interface CritiqueHistoryEntry {
  iter: number;
  /** Question ids failing in this iteration's score. */
  failing: readonly string[];
  /** Action texts tried in this iteration (applied, reverted or held back). */
  tried: readonly string[];
}

export interface UpdateCritiqueMemoryOptions {
  history: readonly CritiqueHistoryEntry[];
  /** Action texts people rejected or reverted before (from the review queue). */
  rejectedByPeople?: readonly string[];
  /** Ids of standing CRITICAL devil's-advocate findings. */
  standingCritical?: readonly string[];
  limit?: number;
}

export function updateCritiqueMemory({ history, rejectedByPeople = [], standingCritical = [], limit = 5 }: UpdateCritiqueMemoryOptions): CritiqueMemory {
  const latest = history.reduce<CritiqueHistoryEntry | null>((a, b) => (a === null || b.iter >= a.iter ? b : a), null);
  const seen = new Map<string, Set<number>>();
  for (const entry of history) {
    for (const id of entry.failing) {
      let iters = seen.get(id);
      if (!iters) seen.set(id, (iters = new Set()));
      iters.add(entry.iter);
    }
  }
  const failingNow = new Set(latest?.failing ?? []);
  const persistent = [...failingNow]
    .map((id) => ({ id, count: seen.get(id)?.size ?? 0 }))
    .filter((x) => x.count >= 2)
    .sort((a, b) => b.count - a.count || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, limit)
    .map((x) => x.id);
  const focusOn = [...new Set([...standingCritical.map((id) => `critical: ${id}`), ...persistent])];
  const doNotRepropose = [...new Set([...rejectedByPeople, ...history.flatMap((h) => h.tried)])];
  return { focusOn, doNotRepropose };
}
