"use client";

import { useRouter } from "next/navigation";
import type { FormEvent } from "react";
import { useAddQuestions } from "../api/add-questions";
import { useStartRun } from "../api/start-run";
import { Spinner } from "../ui/states";
import { useSingleFlight } from "../ui/use-single-flight";

interface AskQuestionFormProps {
  graphName: string;
  draft: string;
  onDraftChange: (text: string) => void;
  /** A question that fits this graph, for the placeholder (null while unknown). */
  example?: string | null;
}

export function AskQuestionForm({ graphName, draft, onDraftChange, example = null }: AskQuestionFormProps) {
  const router = useRouter();
  const add = useAddQuestions(graphName);
  const run = useStartRun(graphName);
  const once = useSingleFlight();
  const text = draft.trim();
  const busy = add.isPending || run.isPending || run.isSuccess;

  function addToQueue(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!text) return;
    run.reset();
    once(() =>
      add.mutateAsync([text]).then(() => {
        onDraftChange("");
        // The graph header counts the questions; it is server-rendered.
        router.refresh();
      }),
    );
  }

  function runNow() {
    if (!text) return;
    add.reset();
    once(() =>
      run.mutateAsync({ question: text }).then((launched) => {
        if (launched.runId) router.push(`/runs/${encodeURIComponent(launched.runId)}`);
      }),
    );
  }

  const error = add.error ?? run.error;
  const result = add.data;
  return (
    <form className="form" onSubmit={addToQueue} aria-busy={busy}>
      <div className="field">
        <label htmlFor="ask-question" className="sr-only">
          Question
        </label>
        <textarea
          id="ask-question"
          name="question"
          rows={3}
          maxLength={4000}
          value={draft}
          onChange={(event) => onDraftChange(event.target.value)}
          placeholder={example ? `e.g. ${example}` : "A question about this graph's entities"}
        />
      </div>
      <div className="form__actions">
        <button type="submit" className="button" disabled={busy || !text}>
          {add.isPending ? <Spinner size={14} /> : null}
          Add to queue
        </button>
        <button type="button" className="button button--primary" disabled={busy || !text} onClick={runNow}>
          {run.isPending || run.isSuccess ? <Spinner size={14} /> : null}
          {run.isSuccess ? "Opening the run…" : "Run now"}
        </button>
        <p className="hint">Run now queues the question too, then opens its run.</p>
      </div>
      {error ? (
        <div className="alert alert--error" role="alert" data-testid="ask-error">
          <strong>{run.error ? "Could not start the run" : "Could not add the question"}</strong>
          <p className="alert__message">{error.message}</p>
        </div>
      ) : result ? (
        <p className="alert alert--success" role="status" data-testid="ask-result">
          {result.added[0]
            ? `Added to the queue as ${result.added[0].queryId}.`
            : `Already in the queue as ${result.existing[0]?.queryId ?? "an earlier question"}: not added twice.`}
        </p>
      ) : null}
    </form>
  );
}
