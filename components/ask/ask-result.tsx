import type { AskDetails, AskPassage } from "../api/ask-types";
import { ProviderNote } from "../runs/run-status-badge";
import { LoadingState } from "../ui/states";
import { AskAnswerList, noAnswerText } from "./ask-answer";
import { formatDuration } from "./ask-format";
import { AskPlanTree } from "./ask-plan-tree";
import { AskStatusBadge } from "./ask-status-badge";
import { AskSubgraph } from "./ask-subgraph";
import { AskToolCalls, PassageQuote } from "./ask-tool-calls";

/** Every distinct passage the corpus search quoted, in the order found. */
function passagesOf(ask: AskDetails): AskPassage[] {
  const seen = new Map<string, AskPassage>();
  for (const call of ask.trace?.calls ?? []) for (const p of call.passages ?? []) if (!seen.has(`${p.origin}:${p.docId}`)) seen.set(`${p.origin}:${p.docId}`, p);
  return [...seen.values()];
}

/** One ask: the answer first, then how it was found (plan, tool calls, subgraph, passages). */
export function AskResult({ ask }: { ask: AskDetails }) {
  const trace = ask.trace;
  const passages = passagesOf(ask);
  return (
    <div className="stack ask-result" data-testid="ask-result" data-status={ask.status}>
      <section className="card ask-summary" aria-labelledby="ask-question">
        <div className="ask-summary__head">
          <AskStatusBadge status={ask.status} />
          <ProviderNote provider={ask.provider} model={ask.model} isLlm={ask.isLlm} />
          <span className="muted small">
            version {ask.graphVersion}
            {ask.totalMs !== null ? ` · ${formatDuration(ask.totalMs)}` : ""}
            {trace ? ` · ${trace.calls.length === 1 ? "1 tool call" : `${trace.calls.length} tool calls`}` : ""}
            {ask.startedByName ? ` · asked by ${ask.startedByName}` : ""}
          </span>
        </div>
        <h2 id="ask-question" className="ask-summary__question">
          {ask.question}
        </h2>
        {ask.status === "running" ? (
          <div data-testid="ask-running">
            <LoadingState label="Planning sub-problems and searching the graph…" compact />
          </div>
        ) : ask.answers.length > 0 ? (
          <AskAnswerList answers={ask.answers} />
        ) : ask.status === "failed" || ask.status === "interrupted" ? (
          <div className="alert alert--error" role="alert" data-testid="ask-failed">
            <strong>{ask.status === "failed" ? `The ask failed${trace?.error ? ` at ${trace.error.step}` : ""}` : "The ask was interrupted"}</strong>
            <p className="alert__message">{trace?.error?.message ?? noAnswerText(ask)}</p>
          </div>
        ) : (
          <p className="notice" role="status" data-testid="ask-no-answer">
            <strong>No answer.</strong> {noAnswerText(ask)}
          </p>
        )}
        {trace?.answerText && ask.isLlm ? (
          <p className="small ask-summary__text">
            <span className="muted">The model wrote:</span> {trace.answerText}
          </p>
        ) : null}
      </section>
      {trace ? (
        <div className="ask-grid">
          <section className="card ask-card" aria-labelledby="plan-title">
            <h3 id="plan-title" className="card__title">
              Plan
            </h3>
            <AskPlanTree trace={trace} />
            {trace.think.trim() || trace.planText.trim() ? (
              <details className="ask-card__raw">
                <summary className="small">{ask.isLlm ? "The model's reasoning and plan as written" : "The planner's notes and plan as written"}</summary>
                {trace.think.trim() ? <pre className="code-block">{trace.think}</pre> : null}
                <pre className="code-block">{trace.planText}</pre>
              </details>
            ) : null}
          </section>
          <section className="card ask-card" aria-labelledby="calls-title">
            <h3 id="calls-title" className="card__title">
              Tool calls
            </h3>
            <AskToolCalls calls={trace.calls} />
          </section>
          {trace.subgraph.length > 0 ? (
            <section className="card ask-card ask-card--wide" aria-labelledby="subgraph-title">
              <h3 id="subgraph-title" className="sr-only">
                Subgraph used
              </h3>
              <AskSubgraph trace={trace} />
            </section>
          ) : null}
          {passages.length > 0 ? (
            <section className="card ask-card ask-card--wide" aria-labelledby="passages-title">
              <h3 id="passages-title" className="card__title">
                Corpus passages
              </h3>
              <ul className="passage-quotes" data-testid="ask-passages">
                {passages.map((p) => (
                  <li key={`${p.origin}:${p.docId}`}>
                    <PassageQuote passage={p} />
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
