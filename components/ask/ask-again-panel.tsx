"use client";

import Link from "next/link";
import type { AskDetails } from "../api/ask-types";
import { useAskAgain } from "../api/asks";
import { Spinner } from "../ui/states";
import { useSingleFlight } from "../ui/use-single-flight";
import { AskAnswerList, noAnswerText } from "./ask-answer";
import { AskStatusBadge } from "./ask-status-badge";

/** After an apply: ask the proposal's question of the version before and of the current one. */
export function AskAgainPanel({ proposalId, graph, question }: { proposalId: string; graph: string; question: string }) {
  const again = useAskAgain(proposalId);
  const once = useSingleFlight();
  const result = again.data;
  const askHref = (id: string) => `/graphs/${encodeURIComponent(graph)}/ask?ask=${encodeURIComponent(id)}`;
  return (
    <section className="card ask-again" aria-labelledby="ask-again-title" data-testid="ask-again">
      <div className="row row--wrap">
        <h2 id="ask-again-title" className="card__title">
          Does the graph answer it now?
        </h2>
        <button type="button" className="button" disabled={again.isPending} onClick={() => once(() => again.mutateAsync())} data-testid="ask-again-button">
          {again.isPending ? <Spinner size={12} /> : null}
          {result ? "Ask again" : "Ask the graph again"}
        </button>
      </div>
      <p className="muted small">Asks “{question}” of the version this proposal was made on and of the current version, and compares the answers.</p>
      {again.error ? (
        <p className="inline-error" role="alert">
          Could not ask: {again.error.message}
        </p>
      ) : null}
      {result ? (
        <>
          <p className={result.changed ? "ask-again__verdict ask-again__verdict--changed" : "ask-again__verdict"} role="status" data-testid="ask-again-verdict" data-changed={result.changed}>
            {result.changed
              ? `The answer changed${result.added.length ? `: now also ${result.added.slice(0, 3).join(", ")}` : ""}${result.removed.length ? `${result.added.length ? ";" : ":"} no longer ${result.removed.slice(0, 3).join(", ")}` : ""}.`
              : "The answer did not change."}
          </p>
          <div className="ask-again__compare">
            <Side title={`Before (version ${result.before.graphVersion})`} ask={result.before} href={askHref(result.before.id)} />
            <Side title={`Now (version ${result.after.graphVersion})`} ask={result.after} href={askHref(result.after.id)} />
          </div>
        </>
      ) : null}
    </section>
  );
}

function Side({ title, ask, href }: { title: string; ask: AskDetails; href: string }) {
  return (
    <div className="ask-again__side">
      <h3>
        {title} <AskStatusBadge status={ask.status} />
      </h3>
      {ask.answers.length > 0 ? <AskAnswerList answers={ask.answers.slice(0, 5)} /> : <p className="small muted">{noAnswerText(ask)}</p>}
      <Link href={href} className="small">
        See the plan and tool calls
      </Link>
    </div>
  );
}
