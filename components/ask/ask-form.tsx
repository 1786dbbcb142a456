"use client";

import type { FormEvent } from "react";
import { useState } from "react";
import type { AskDetails } from "../api/ask-types";
import { useStartAsk } from "../api/asks";
import { Spinner } from "../ui/states";
import { useSingleFlight } from "../ui/use-single-flight";

interface AskFormProps {
  graphName: string;
  /** Questions of the graph's queue, offered as examples while the box is empty. */
  examples: string[];
  isBusy: boolean;
  onStarted: (ask: AskDetails) => void;
}

export function AskForm({ graphName, examples, isBusy, onStarted }: AskFormProps) {
  const [draft, setDraft] = useState("");
  const [corpusFallback, setCorpusFallback] = useState(true);
  const start = useStartAsk(graphName);
  const once = useSingleFlight();
  const text = draft.trim();
  const busy = isBusy || start.isPending;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!text) return;
    once(() => start.mutateAsync({ question: text, corpusFallback }).then(onStarted));
  }

  return (
    <form className="form ask-form" onSubmit={submit} aria-busy={busy} data-testid="ask-form">
      <div className="field">
        <label htmlFor="ask-input" className="sr-only">
          Question for the graph
        </label>
        <textarea
          id="ask-input"
          name="question"
          rows={2}
          maxLength={4000}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter" && (event.metaKey || event.ctrlKey)) event.currentTarget.form?.requestSubmit();
          }}
          placeholder="Ask a question the graph should answer, e.g. who directed the films a person starred in"
        />
      </div>
      {!text && examples.length > 0 ? (
        <div className="ask-form__examples small">
          <span className="muted">From the question queue:</span>
          {examples.map((q) => (
            <button key={q} type="button" className="link-button ask-form__example" onClick={() => setDraft(q)} title={q}>
              {q}
            </button>
          ))}
        </div>
      ) : null}
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={busy || !text} data-testid="ask-submit">
          {busy ? <Spinner size={14} /> : null}
          {busy ? "Asking…" : "Ask"}
        </button>
        <label className="checkbox small">
          <input type="checkbox" checked={corpusFallback} onChange={(event) => setCorpusFallback(event.target.checked)} />
          Search the corpus where the graph has no fitting relation
        </label>
      </div>
      {start.error ? (
        <div className="alert alert--error" role="alert" data-testid="ask-start-error">
          <strong>Could not ask</strong>
          <p className="alert__message">{start.error.message}</p>
        </div>
      ) : null}
    </form>
  );
}
