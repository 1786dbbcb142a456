import Link from "next/link";
import type { RunDetails } from "../api/run-types";
import { RunStatusBadge } from "../runs/run-status-badge";

const SOURCE_TEXT: Record<string, string> = {
  file: "This proposal was imported from a refinement file, so there is no run to show.",
  api: "This proposal was created through the API, so there is no run to show.",
  run: "The run behind this proposal is no longer stored.",
  agent: "A coding agent submitted this proposal through the MCP server with its owner's API token: the agent's evidence is in the question above; the token's owner may not approve it.",
  campaign: "A refinement campaign submitted this proposal: its title is the score trajectory, and each action's reasons name the iteration that accepted it and the questions it was proposed for (Campaigns page).",
};

/** Why the system proposed anything: the question's run, one line per step, and its error abduction. */
export function RunSummary({ run, source }: { run: RunDetails | null; source: string }) {
  if (!run) {
    return (
      <section className="card run-summary" aria-label="The run">
        <p className="muted">{SOURCE_TEXT[source] ?? SOURCE_TEXT.run}</p>
      </section>
    );
  }
  const runHref = `/runs/${encodeURIComponent(run.id)}`;
  return (
    <section className="card run-summary" aria-labelledby="run-summary-title" data-testid="run-summary">
      <div className="run-summary__head">
        <h2 id="run-summary-title" className="card__title">
          Why the system proposes this
        </h2>
        <RunStatusBadge run={run} />
        <Link href={runHref} className="run-summary__link small" data-testid="run-link">
          Open the run: timeline and subgraph drawings →
        </Link>
      </div>
      <p className="small muted">
        The question was run on version {run.graphVersion} of the graph with {run.isLlm ? `model ${run.model}` : "the rule-based heuristic provider (not a language model)"}. At each step it
        retrieved triples and judged whether they answer the question.
      </p>
      <div className="run-summary__body">
        <ol className="step-strip" data-testid="step-summary" aria-label="Steps">
          {run.stepRecords.map((s) => (
            <li key={s.step} className="step-strip__step">
              <details>
                <summary>
                  <span className="step-strip__title">Step {s.step}</span>
                  <span className="small muted">
                    {s.numHops} hop{s.numHops === 1 ? "" : "s"} · {s.triples.length} triples
                  </span>
                  <span className={s.answerable ? "verdict verdict--yes" : "verdict verdict--no"}>{s.answerable ? "answerable" : "not answerable"}</span>
                </summary>
                <ul className="step-strip__triples small">
                  {s.triples.slice(0, 12).map((t, i) => (
                    <li key={i}>
                      {t.subject} <span className="triple__relation">{t.relation}</span> {t.object}
                    </li>
                  ))}
                  {s.triples.length > 12 ? <li className="muted">and {s.triples.length - 12} more on the run page</li> : null}
                </ul>
              </details>
            </li>
          ))}
        </ol>
        <div className="run-summary__abduction">
          <h3 className="section-title">Error abduction: what the run thinks is wrong with the graph</h3>
          {run.abduction ? (
            <p className="prose" data-testid="proposal-abduction">
              {run.abduction}
            </p>
          ) : (
            <p className="muted small">No abduction was recorded for this run.</p>
          )}
        </div>
      </div>
    </section>
  );
}
