"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { runQueryOptions } from "../api/get-run";
import type { RunDetails } from "../api/run-types";
import { useLiveRun } from "../api/use-live-run";
import { Spinner } from "../ui/states";
import { RunStatusBadge } from "./run-status-badge";
import { describeRunOutcome } from "./run-outcome-text";

function LiveRunBody({ initialRun, onDismiss }: { initialRun: RunDetails; onDismiss: () => void }) {
  const { run, isActive } = useLiveRun(initialRun);
  return (
    <section className="card live-run" aria-label="Run in progress" data-testid="live-run" data-run-status={run.status}>
      <div className="live-run__head">
        {isActive ? <Spinner size={14} /> : null}
        <strong className="live-run__question">{run.question}</strong>
        <RunStatusBadge run={run} />
        <button type="button" className="link-button small live-run__dismiss" onClick={onDismiss}>
          Close
        </button>
      </div>
      <ol className="live-run__steps small" data-testid="live-run-steps">
        {run.stepRecords.map((s) => (
          <li key={s.step}>
            Step {s.step}: {s.triples.length} triples, {s.answerable ? "answerable" : "not answerable"}
          </li>
        ))}
        {isActive ? <li className="muted">Step {run.stepRecords.length + 1}: retrieving and judging…</li> : null}
      </ol>
      <p className="small">
        {isActive ? "Running on the server; you can leave this page." : describeRunOutcome(run).sentence}{" "}
        <Link href={`/runs/${encodeURIComponent(run.id)}`} data-testid="live-run-link">
          {isActive ? "Follow it on its page" : "Open the run"}
        </Link>
        {!isActive && run.proposalId ? (
          <>
            {" · "}
            <Link href={`/proposals/${encodeURIComponent(run.proposalId)}`}>Review the proposed changes</Link>
          </>
        ) : null}
      </p>
    </section>
  );
}

/**
 * The progress of a run just started from a list (a queue row, "Run all pending"), live in
 * place: every start shows what the run does, not only the one that opens the run's page.
 */
export function LiveRunPanel({ runId, onDismiss }: { runId: string; onDismiss: () => void }) {
  const first = useQuery(runQueryOptions(runId));
  if (!first.data) {
    return (
      <section className="card live-run" aria-label="Run in progress" data-testid="live-run">
        <p className="small">{first.isError ? `Could not read the run: ${first.error.message}` : "Starting the run…"}</p>
      </section>
    );
  }
  return <LiveRunBody key={runId} initialRun={first.data} onDismiss={onDismiss} />;
}
