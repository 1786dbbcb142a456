"use client";

import { useStartRun } from "../api/start-run";
import { Spinner } from "../ui/states";
import { useSingleFlight } from "../ui/use-single-flight";

interface RunQuestionButtonProps {
  graphName: string;
  queryId: string;
  /** Its latest run is still going: the server would refuse a second one (409). */
  isRunning: boolean;
}

/** One mutation per row, so starting one question never disables or hides the state of another. */
export function RunQuestionButton({ graphName, queryId, isRunning }: RunQuestionButtonProps) {
  const start = useStartRun(graphName);
  const once = useSingleFlight();
  const busy = start.isPending || isRunning;
  return (
    <div className="run-cell">
      <button
        type="button"
        className="button button--small"
        disabled={busy}
        onClick={() => once(() => start.mutateAsync({ queryId }))}
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
