"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import type { AskDetails } from "../api/ask-types";
import { useAsk, useAsks } from "../api/asks";
import { useQuestions } from "../api/find-questions";
import { EmptyState, ErrorState, LoadingState } from "../ui/states";
import { AskForm } from "./ask-form";
import { AskList } from "./ask-list";
import { AskResult } from "./ask-result";

interface AskViewProps {
  graphName: string;
  /** `?ask=<id>`: the ask to show first (a link from the audit log, the Runs tab, the CLI). */
  initialAskId: string | null;
  initialAsk: AskDetails | null;
}

const EXAMPLES = 3;

/** The Ask tab: the question box, the selected ask's result, and the earlier asks. */
export function AskView({ graphName, initialAskId, initialAsk }: AskViewProps) {
  const router = useRouter();
  const [selectedId, setSelectedId] = useState<string | null>(initialAskId);
  const asks = useAsks(graphName);
  const selected = useAsk(selectedId);
  const questions = useQuestions(graphName, "all");
  const base = `/graphs/${encodeURIComponent(graphName)}/ask`;
  const hrefOf = (id: string) => `${base}?ask=${encodeURIComponent(id)}`;
  const select = (id: string) => {
    setSelectedId(id);
    router.replace(hrefOf(id), { scroll: false });
  };
  const ask = selected.data ?? (initialAsk && initialAsk.id === selectedId ? initialAsk : null);
  const examples = (questions.data ?? []).slice(0, EXAMPLES).map((q) => q.text);

  return (
    <div className="ask-page" data-testid="ask-page">
      <div className="ask-page__main stack">
        <section className="card form-card" aria-labelledby="ask-title">
          <h2 id="ask-title">Ask the graph</h2>
          <p className="muted small ask-page__intro">
            The question is split into sub-problems (a plan), each solved by searching the graph&apos;s relations and neighbours,
            falling back to the graph&apos;s own corpus where the graph has no fitting relation. Every step is shown below.
          </p>
          <AskForm graphName={graphName} examples={examples} isBusy={ask?.status === "running"} onStarted={(a) => select(a.id)} />
        </section>
        {selectedId === null ? (
          <div className="card">
            <EmptyState title="Nothing asked yet">
              <p className="muted small">Type a question above; the answer, the plan, every tool call and the subgraph it used appear here.</p>
            </EmptyState>
          </div>
        ) : ask ? (
          <AskResult ask={ask} />
        ) : selected.isError ? (
          <ErrorState title="Could not load the ask" message={selected.error.message} />
        ) : (
          <LoadingState label="Loading the ask…" />
        )}
      </div>
      <aside className="ask-page__aside card" aria-labelledby="asks-title">
        <h2 id="asks-title" className="card__title">
          Earlier asks
        </h2>
        {asks.isPending ? (
          <LoadingState label="Loading…" compact />
        ) : asks.isError ? (
          <p className="inline-error" role="alert">
            Could not load the asks: {asks.error.message}
          </p>
        ) : asks.data.length === 0 ? (
          <p className="muted small">None yet. Asks from this page, the API and `refinery ask` are listed here.</p>
        ) : (
          <AskList asks={asks.data} selectedId={selectedId} hrefOf={hrefOf} onSelect={select} />
        )}
      </aside>
    </div>
  );
}
