/**
 * In-process push of run progress: the run (lib/server/runs/runs.ts) publishes each stored step and
 * its end here, and live-progress streams of this process subscribe instead of polling the
 * database. Runs of another process (the CLI, another instance) publish elsewhere; their
 * streams fall back to a slow poll (lib/server/runs/stream-run-events.ts).
 */
import { EventEmitter } from "node:events";
import type { StepRecord } from "../../loop/types";

export type RunEvent =
  /** A step, published after its row is written (so a later read agrees with it). */
  | { type: "step"; step: StepRecord }
  /** The run's final row is written: re-read it for the status, proposal and actions. */
  | { type: "finished" };

// On globalThis: Next.js may load this module more than once per process, and a run started by
// one copy must reach streams opened through another.
const globalForRunEvents = globalThis as unknown as { refineryRunEvents?: EventEmitter };
const bus = (globalForRunEvents.refineryRunEvents ??= (() => {
  const emitter = new EventEmitter();
  // The number of listeners is bounded by the stream cap (lib/server/runs/run-event-streams.ts).
  emitter.setMaxListeners(0);
  return emitter;
})());

export function publishRunEvent(runId: string, event: RunEvent): void {
  bus.emit(runId, event);
}

/** Listen to one run's events; returns the unsubscribe function. */
export function subscribeRunEvents(runId: string, listener: (event: RunEvent) => void): () => void {
  bus.on(runId, listener);
  return () => {
    bus.off(runId, listener);
  };
}

export function runEventListenerCount(runId: string): number {
  return bus.listenerCount(runId);
}
