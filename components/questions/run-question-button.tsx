"use client";

import { useStartRun } from "../api/start-run";
import { Spinner } from "../ui/states";
import { useSingleFlight } from "../ui/use-single-flight";

interface RunQuestionButtonProps {
  graphName: string;
  queryId: string;
  /** Its latest run is still going: the server would refuse a second one (409). */
  isRunning: boolean;
  /** Called with the new run's id, so the page can show its progress live. */
  onStarted?: (runId: string) => void;
}

/** One mutation per row, so starting one question never disables or hides the state of another. */
export function RunQuestionButton({ graphName, queryId, isRunning, onStarted }: RunQuestionButtonProps) {
  const start = useStartRun(graphName);
  const once = useSingleFlight();
  const busy = start.isPending || isRunning;
  return (
    <div className="run-cell">
      <button
        type="button"
        className="button button--small"
        disabled={busy}
        onClick={() =>
          once(async () => {
            const launched = await start.mutateAsync({ queryId });
            if (launched.runId) onStarted?.(launched.runId);
          })
        }
        data-testid="run-question"
      >
        {busy ? <Spinner size={12} /> : null}
        {start.isPending ? "Starting…" : isRunning ? "Running…" : "Run"}
      </button>
      {start.error ? (
        <span className="inline-error" role="alert" data-testid="run-error">
          {start.error.message}
        </span>
      ) : null}
    </div>
  );
}
