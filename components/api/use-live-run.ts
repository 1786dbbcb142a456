import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { runQueryOptions } from "./get-run";
import { graphKeys, runKeys } from "./graph-keys";
import { isRunning } from "./run-types";
import type { RunDetails, RunStatusEvent, StepRecord } from "./run-types";

export const POLL_MS = 1_500;

export type LiveMode = "off" | "connecting" | "stream" | "polling";

function serverMessage(event: Event): string {
  if (event instanceof MessageEvent && typeof event.data === "string") {
    try {
      const body = JSON.parse(event.data) as { message?: unknown };
      if (typeof body.message === "string") return body.message;
    } catch {
      // not JSON: fall through to the generic reason
    }
  }
  return "the connection was closed";
}

/**
 * One run, kept current while it runs. Server-sent events write into the run's query cache, so
 * the page renders one source of truth (structural sharing keeps finished steps identical, so
 * their drawings are not redone). When the stream fails (proxy, restart, a server-side `error`
 * event) it is closed for good and the run is polled instead: the run lives on the server and
 * never depends on this connection.
 */
export function useLiveRun(initialRun: RunDetails) {
  const id = initialRun.id;
  const queryClient = useQueryClient();
  const [connected, setConnected] = useState(false);
  const [fallbackReason, setFallbackReason] = useState<string | null>(null);
  const query = useQuery({
    ...runQueryOptions(id),
    initialData: initialRun,
    refetchInterval: (q) => (fallbackReason !== null && q.state.data && isRunning(q.state.data) ? POLL_MS : false),
  });
  const isActive = isRunning(query.data);

  useEffect(() => {
    if (!isActive || fallbackReason !== null) return;
    const key = runKeys.run(id);
    const patch = (update: (run: RunDetails) => RunDetails) =>
      queryClient.setQueryData<RunDetails>(key, (old) => (old ? update(old) : old));
    const source = new EventSource(`/api/runs/${encodeURIComponent(id)}/events`);
    source.addEventListener("open", () => setConnected(true));
    source.addEventListener("step", (event) => {
      const step = JSON.parse(event.data as string) as StepRecord;
      patch((run) =>
        run.stepRecords.some((s) => s.step === step.step)
          ? run
          : { ...run, stepRecords: [...run.stepRecords, step], steps: Math.max(run.steps, step.step) },
      );
    });
    source.addEventListener("status", (event) => {
      const update = JSON.parse(event.data as string) as RunStatusEvent;
      // A final status waits for `done`, which follows at once with the whole run: applied
      // alone, it would end this effect (and the stream) before the abduction and actions arrive.
      if (update.status !== "running") return;
      patch((run) => ({ ...run, status: update.status, steps: update.steps, error: update.error }));
    });
    source.addEventListener("done", (event) => {
      const run = JSON.parse(event.data as string) as RunDetails;
      // Closed before the server ends the stream, or EventSource would reconnect and replay it.
      source.close();
      setConnected(false);
      queryClient.setQueryData(key, run);
      void queryClient.invalidateQueries({ queryKey: graphKeys.runs(run.graph) });
      void queryClient.invalidateQueries({ queryKey: graphKeys.questionsAll(run.graph) });
    });
    source.addEventListener("error", (event) => {
      source.close();
      setConnected(false);
      setFallbackReason(serverMessage(event));
    });
    return () => source.close();
  }, [id, isActive, fallbackReason, queryClient]);

  const mode: LiveMode = !isActive ? "off" : fallbackReason !== null ? "polling" : connected ? "stream" : "connecting";
  return { query, run: query.data, isActive, mode, fallbackReason };
}
