"use client";

import { useState } from "react";
import { POLL_MS, useLiveRun } from "../api/use-live-run";
import type { RunDetails } from "../api/run-types";
import { Spinner } from "../ui/states";
import { RunHeader } from "./run-header";
import { RunOutcome } from "./run-outcome";
import { StepAnswer } from "./step-answer";
import { StepSubgraph } from "./step-subgraph";
import { StepTimeline } from "./step-timeline";

export function RunView({ initialRun }: { initialRun: RunDetails }) {
  const { query, run, isActive: active, mode, fallbackReason } = useLiveRun(initialRun);
  // null = follow the newest step; a click pins one.
  const [pinned, setPinned] = useState<number | null>(null);
  const steps = run.stepRecords;
  const selected = steps.find((s) => s.step === pinned) ?? steps[steps.length - 1] ?? null;

  return (
    <div className="stack run-page" data-testid="run-page" data-run-status={run.status} data-live={mode}>
      <RunHeader run={run} />
      {active ? (
        <div className="notice notice--live" role="status" data-testid="run-live">
          <Spinner size={14} />
          <span>
            <strong>Running on the server.</strong> You can close this tab: the run goes on and this page picks it up
            when you come back.{" "}
            <span className="muted">
              {mode === "stream"
                ? "Live: steps appear as they finish."
                : mode === "polling"
                  ? `Live stream unavailable (${fallbackReason ?? "closed"}); checking every ${POLL_MS / 1000} s.`
                  : "Connecting…"}
            </span>
          </span>
        </div>
      ) : null}
      {run.status === "failed" || run.status === "interrupted" ? (
        <div className="alert alert--error" role="alert" data-testid="run-error">
          <strong>{run.status === "failed" ? "The run failed" : "The run was interrupted"}</strong>
          <p className="alert__message">{run.error ?? "no message was recorded"}</p>
          <p className="small">The steps finished before it stopped are kept below; no refinement was proposed.</p>
        </div>
      ) : null}
      {query.isRefetchError ? (
        <p className="inline-error" role="alert">
          Could not refresh the run: {query.error.message}
        </p>
      ) : null}
      <StepAnswer run={run} />
      <div className="run-steps">
        <section className="card run-steps__timeline" aria-labelledby="timeline-title">
          <h2 id="timeline-title" className="card__title">
            Step timeline
          </h2>
          <StepTimeline run={run} selected={selected?.step ?? null} onSelect={setPinned} />
        </section>
        <section className="card run-steps__subgraph" aria-label="Retrieved subgraph">
          <StepSubgraph question={run.question} step={selected} isRunning={active} />
        </section>
      </div>
      <RunOutcome run={run} />
    </div>
  );
}
