"use client";

import Link from "next/link";
import { useState } from "react";
import { useStartRun } from "../api/start-run";
import type { QuestionItem, RunSummary } from "../api/run-types";
import { isRunning } from "../api/run-types";
import { EmptyState, Spinner } from "../ui/states";
import { useSingleFlight } from "../ui/use-single-flight";
import { QuestionTable } from "./question-table";
import { LiveRunPanel } from "../runs/live-run-panel";

interface QuestionQueueProps {
  graphName: string;
  questions: QuestionItem[];
  latestRuns: Map<string, RunSummary>;
  draft: string;
}

type Filter = "pending" | "all";

export function QuestionQueue({ graphName, questions, latestRuns, draft }: QuestionQueueProps) {
  const [filter, setFilter] = useState<Filter>("all");
  const start = useStartRun(graphName);
  const once = useSingleFlight();
  // The run whose progress shows live above the table: the last one started from this page.
  const [watching, setWatching] = useState<string | null>(null);
  const pending = questions.filter((q) => !q.refined);
  const shown = filter === "pending" ? pending : questions;
  const fallback = draft.trim();
  const isQueueBusy = [...latestRuns.values()].some(isRunning);
  const canRunAll = pending.length > 0 || fallback !== "";

  function runAll() {
    once(async () => {
      const started = await start.mutateAsync(pending.length > 0 ? { pending: true } : { pending: true, question: fallback });
      if (started.runId) setWatching(started.runId);
    });
  }

  const launched = start.data;
  return (
    <div className="queue">
      <div className="toolbar queue__toolbar">
        <div className="segmented" role="group" aria-label="Show">
          <button type="button" aria-pressed={filter === "pending"} onClick={() => setFilter("pending")}>
            Pending ({pending.length})
          </button>
          <button type="button" aria-pressed={filter === "all"} onClick={() => setFilter("all")}>
            All ({questions.length})
          </button>
        </div>
        <div className="queue__run-all">
          {start.error ? (
            <span className="inline-error" role="alert">
              {start.error.message}
            </span>
          ) : launched?.runId ? (
            <span className="small" role="status">
              Started <Link href={`/runs/${encodeURIComponent(launched.runId)}`}>the first run</Link>
              {launched.queued.length > 0 ? `; ${launched.queued.length} more follow one after another on the server.` : "."}
            </span>
          ) : null}
          <button
            type="button"
            className="button button--primary"
            disabled={start.isPending || !canRunAll}
            onClick={runAll}
            title={canRunAll ? undefined : "Nothing pending: type a question above to run it instead"}
          >
            {start.isPending ? <Spinner size={14} /> : null}
            {pending.length > 0 ? `Run all pending (${pending.length})` : "Run the typed question"}
          </button>
        </div>
      </div>
      {isQueueBusy ? (
        <p className="queue__note small" role="status">
          <Spinner size={12} /> A run is in progress on the server; statuses refresh by themselves.
        </p>
      ) : null}
      {watching ? <LiveRunPanel runId={watching} onDismiss={() => setWatching(null)} /> : null}
      {shown.length === 0 ? (
        <EmptyState title={questions.length === 0 ? "The queue is empty" : "Nothing pending"}>
          <p className="muted" data-testid="queue-empty">
            {questions.length === 0 ? "No question has been queued for this graph yet. " : "Every queued question has been run; a question reads “refined” once an approved change from its run is applied. "}
            When the queue is empty, a run uses the question typed in “Ask a question” instead — as the deeprefine
            skill falls back to the current session’s question.
          </p>
        </EmptyState>
      ) : (
        <QuestionTable graphName={graphName} questions={shown} latestRuns={latestRuns} onRunStarted={setWatching} />
      )}
    </div>
  );
}
