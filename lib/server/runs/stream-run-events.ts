/**
 * Server-sent events for one run: `step` for each finished step (with its triples), `status`
 * when the status changes, `done` with the full run at the end. A run of this process is pushed
 * (lib/server/runs/run-events.ts): no database read between its steps. A run of another process (the
 * CLI, another instance) is followed by a slow poll of the database. Closing the stream never
 * affects the run; each open stream holds a slot of the cap (lib/server/runs/run-event-streams.ts).
 *
 *   REFINERY_EVENT_STREAMS_POLL_MS  fallback poll for runs of other processes, default 2000
 */
import type { Actor } from "../../auth/permissions";
import type { StepRecord } from "../../loop/types";
import { acquireEventStreamSlot } from "./run-event-streams";
import type { RunEvent } from "./run-events";
import { subscribeRunEvents } from "./run-events";
import type { RunDetails } from "./runs";
import { getRun, isRunLiveHere } from "./runs";

const TERMINAL = new Set(["early_exit", "awaiting_review", "finished", "failed", "interrupted"]);
const DEFAULT_POLL_MS = 2_000;
/** A comment this often so proxies do not time the stream out during a slow model call. */
const KEEP_ALIVE_MS = 15_000;

function pollMs(): number {
  const value = Number(process.env.REFINERY_EVENT_STREAMS_POLL_MS);
  return Number.isFinite(value) && value >= 50 ? value : DEFAULT_POLL_MS;
}

/**
 * Take a slot, subscribe, then read the run — in that order, so no step published between the
 * read and the subscription is lost (duplicates are dropped by step number). Throws (and holds
 * nothing) when the cap is reached or the run does not exist.
 */
export async function streamRunEvents(options: { runId: string; actor: Actor; signal: AbortSignal }): Promise<ReadableStream<Uint8Array>> {
  const { runId, signal } = options;
  const release = acquireEventStreamSlot(options.actor);
  const queue: RunEvent[] = [];
  let wake: (() => void) | null = null;
  const notify = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  const unsubscribe = subscribeRunEvents(runId, (event) => {
    queue.push(event);
    notify();
  });
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    unsubscribe();
    release();
    notify();
  };
  let first: RunDetails;
  try {
    first = await getRun(runId);
  } catch (error) {
    close();
    throw error;
  }
  signal.addEventListener("abort", close, { once: true });
  if (signal.aborted) close();

  /** Resolves on a pushed event, on close, or after `ms`; true when it timed out. */
  const wait = (ms: number) =>
    new Promise<boolean>((resolve) => {
      if (queue.length > 0 || closed) return resolve(false);
      const timer = setTimeout(() => {
        wake = null;
        resolve(true);
      }, ms);
      wake = () => {
        clearTimeout(timer);
        resolve(false);
      };
    });

  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const write = (text: string) => {
        if (!closed) controller.enqueue(encoder.encode(text));
      };
      const send = (event: string, data: unknown) => write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      let lastStep = Number.NEGATIVE_INFINITY;
      let status = "";
      const sendStep = (step: StepRecord) => {
        if (step.step <= lastStep) return;
        lastStep = step.step;
        send("step", step);
      };
      const sendRun = (run: RunDetails) => {
        for (const step of run.stepRecords) sendStep(step);
        if (run.status !== status) {
          status = run.status;
          send("status", { status, steps: run.steps, error: run.error });
        }
      };
      try {
        let run = first;
        sendRun(run);
        while (!closed && !TERMINAL.has(run.status)) {
          const local = isRunLiveHere(runId);
          const timedOut = await wait(local ? KEEP_ALIVE_MS : Math.min(pollMs(), KEEP_ALIVE_MS));
          if (closed) break;
          let reread = !local;
          for (let event = queue.shift(); event; event = queue.shift()) {
            if (event.type === "step") sendStep(event.step);
            else reread = true;
          }
          // A local run that ended without us seeing `finished` (published before we listened).
          if (local && !isRunLiveHere(runId)) reread = true;
          if (timedOut) write(": ping\n\n");
          if (reread) {
            run = await getRun(runId);
            sendRun(run);
          }
        }
        if (TERMINAL.has(run.status)) send("done", run);
      } catch (error) {
        send("error", { message: error instanceof Error ? error.message : "the run could not be read" });
      } finally {
        const wasOpen = !closed;
        close();
        if (wasOpen) controller.close();
      }
    },
    cancel() {
      close();
    },
  });
}
