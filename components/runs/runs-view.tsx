"use client";

import Link from "next/link";
import { useRuns } from "../api/find-runs";
import { isRunning } from "../api/run-types";
import { EmptyState, ErrorState, LoadingState, Spinner } from "../ui/states";
import { RecentAsks } from "./recent-asks";
import { RunsTable } from "./runs-table";

export function RunsView({ graphName }: { graphName: string }) {
  const runs = useRuns(graphName);
  const questionsHref = `/graphs/${encodeURIComponent(graphName)}/questions`;
  if (runs.isPending) return <LoadingState label="Loading the runs…" />;
  if (runs.isError) {
    return (
      <ErrorState
        title="Could not load the runs"
        message={runs.error.message}
        action={
          <button type="button" className="button" onClick={() => void runs.refetch()}>
            Try again
          </button>
        }
      />
    );
  }
  if (runs.data.length === 0) {
    return (
      <div className="stack stack--tight">
        <div className="card">
          <EmptyState title="No runs yet">
            <p className="muted">
              A run retrieves triples for one question, judges whether they answer it, widens the search hop by hop and,
              when the graph falls short, proposes refinement actions for review.
            </p>
            <Link href={questionsHref} className="button button--primary">
              Pick a question to run
            </Link>
          </EmptyState>
        </div>
        <RecentAsks graphName={graphName} />
      </div>
    );
  }
  const running = runs.data.filter(isRunning).length;
  return (
    <div className="stack stack--tight">
      <div className="row row--wrap runs-caption">
        <span className="muted small">
          {runs.data.length} run{runs.data.length === 1 ? "" : "s"}, newest first
          {runs.data.length >= 100 ? " (the latest 100)" : ""}.
        </span>
        {running > 0 ? (
          <span className="small" role="status">
            <Spinner size={12} /> {running} running — this list refreshes by itself.
          </span>
        ) : null}
      </div>
      <RunsTable runs={runs.data} />
      <RecentAsks graphName={graphName} />
    </div>
  );
}
