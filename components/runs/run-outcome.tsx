import Link from "next/link";
import { formatAction } from "@/lib/loop/parse-output";
import type { RefinementAction, RunDetails } from "../api/run-types";
import { EmptyState } from "../ui/states";

function ActionItem({ action }: { action: RefinementAction }) {
  return (
    <li className="action" data-testid="action">
      <span className={`action__type action__type--${action.type}`}>{action.type}</span>
      {action.type === "replace_node" ? (
        <span className="action__args">
          <span className="action__name">{action.old}</span>
          <span className="action__arrow" aria-label="becomes">
            →
          </span>
          <span className="action__name">{action.new}</span>
        </span>
      ) : (
        <span className="action__args">
          <span className="action__name">{action.subject}</span>
          <span className="triple__relation">{action.relation}</span>
          <span className="action__name">{action.object}</span>
        </span>
      )}
      <code className="action__source">{formatAction(action)}</code>
    </li>
  );
}

function Downloads({ run }: { run: RunDetails }) {
  const base = `/api/runs/${encodeURIComponent(run.id)}/deeprefine`;
  const hasRefinement = !run.earlyExit && run.refinementRaw !== null;
  return (
    <div className="downloads" data-testid="run-downloads">
      <span className="muted small">deeprefine files:</span>
      <a className="button button--small" href={`${base}?file=trace`} download>
        loop_trace_{run.queryId}.json
      </a>
      {hasRefinement ? (
        <a className="button button--small" href={`${base}?file=refinement`} download>
          refinement_actions_{run.queryId}.txt
        </a>
      ) : null}
    </div>
  );
}

export function RunOutcome({ run }: { run: RunDetails }) {
  if (run.status === "running") return null;
  if (run.earlyExit) {
    return (
      <section className="card outcome" aria-label="Outcome" data-testid="run-outcome">
        <EmptyState title="Answerable at step 1: no refinement needed">
          <p className="muted">
            The first retrieval already answered the question, so the loop skips error abduction and proposes no change
            to the graph.
          </p>
        </EmptyState>
        <Downloads run={run} />
      </section>
    );
  }
  return (
    <section className="card outcome" aria-label="Outcome" data-testid="run-outcome">
      <div className="outcome__grid">
        <div>
          <h2 className="card__title">Error abduction</h2>
          {run.abduction ? (
            <p className="prose" data-testid="run-abduction">
              {run.abduction}
            </p>
          ) : (
            <p className="muted">No abduction was recorded{run.status === "failed" || run.status === "interrupted" ? ": the run stopped first." : "."}</p>
          )}
          {run.abductionRaw && run.abductionRaw !== run.abduction ? (
            <details className="disclosure">
              <summary>Raw output</summary>
              <pre className="raw">{run.abductionRaw}</pre>
            </details>
          ) : null}
        </div>
        <div>
          <h2 className="card__title">
            Proposed actions <span className="count">{run.actionList.length}</span>
          </h2>
          {run.actionList.length > 0 ? (
            <>
              <p className="muted small">
                Nothing is applied to the graph until a person reviews and approves these.{" "}
                {run.proposalId ? (
                  <Link href={`/proposals/${encodeURIComponent(run.proposalId)}`} data-testid="run-proposal-link">
                    Review them →
                  </Link>
                ) : null}
              </p>
              <ol className="actions" data-testid="run-actions">
                {run.actionList.map((action, i) => (
                  <ActionItem key={i} action={action} />
                ))}
              </ol>
            </>
          ) : (
            <p className="muted">No refinement action was proposed.</p>
          )}
          {run.actionWarnings.length > 0 ? (
            <div className="alert alert--warning" role="status" data-testid="action-warnings">
              <strong>
                {run.actionWarnings.length} action{run.actionWarnings.length === 1 ? "" : "s"} skipped
              </strong>
              <ul>
                {run.actionWarnings.map((w, i) => (
                  <li key={i}>{w}</li>
                ))}
              </ul>
            </div>
          ) : null}
          {run.refinementRaw ? (
            <details className="disclosure">
              <summary>Raw refinement output</summary>
              <pre className="raw">{run.refinementRaw}</pre>
            </details>
          ) : null}
        </div>
      </div>
      <Downloads run={run} />
    </section>
  );
}
