import Link from "next/link";
import type { QuestionItem, RunSummary } from "../api/run-types";
import { formatTimestamp } from "../runs/run-format";
import { RunQuestionButton } from "./run-question-button";
import { describeRunOutcome } from "../runs/run-outcome-text";

function QuestionOutcome({ run }: { run: RunSummary }) {
  const outcome = describeRunOutcome(run);
  return (
    <span className={outcome.kind === "refined" ? "badge badge--refined" : "badge badge--pending"} title={outcome.sentence} data-outcome={outcome.kind} data-testid="run-status">
      {outcome.kind === "refined" ? "refined" : outcome.label}
    </span>
  );
}

const SOURCE_LABEL: Record<string, string> = {
  user: "typed",
  bundle: "bundle",
  graphify_memory: "graphify memory",
  deeprefine: "deeprefine",
  deeprefine_loop: "deeprefine loop",
};

interface QuestionTableProps {
  graphName: string;
  questions: QuestionItem[];
  latestRuns: Map<string, RunSummary>;
  onRunStarted?: (runId: string) => void;
}

export function QuestionTable({ graphName, questions, latestRuns, onRunStarted }: QuestionTableProps) {
  return (
    <div className="table-card">
      <table className="table questions-table" data-testid="question-table">
        <thead>
          <tr>
            <th scope="col" className="num">#</th>
            <th scope="col">Question</th>
            <th scope="col">Query id</th>
            <th scope="col">Source</th>
            <th scope="col">Status</th>
            <th scope="col">Latest run</th>
            <th scope="col">
              <span className="sr-only">Run</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {questions.map((q) => {
            const run = latestRuns.get(q.queryId);
            return (
              <tr key={q.queryId} data-testid="question-row" data-query-id={q.queryId}>
                <td className="num muted">{q.ord + 1}</td>
                <td className="questions-table__text">
                  <span data-testid="question-text">{q.text}</span>
                  {q.answers && q.answers.length > 0 ? (
                    <span className="table__sub questions-table__gold">
                      Gold answer{q.answers.length === 1 ? "" : "s"}: {q.answers.join(" · ")}
                    </span>
                  ) : null}
                </td>
                <td className="mono small nowrap">{q.queryId}</td>
                <td>
                  <span className="badge badge--quiet">{SOURCE_LABEL[q.source] ?? q.source}</span>
                </td>
                <td data-testid="question-status">
                  {/* "refined" only once an approved change of one of its runs is applied: the run's outcome says so. */}
                  {run && run.status !== "running" ? (
                    <QuestionOutcome run={run} />
                  ) : (
                    <span className="badge badge--pending" data-testid="run-status">{run ? "running" : "not run yet"}</span>
                  )}
                </td>
                <td className="nowrap">
                  {run ? (
                    <Link href={`/runs/${encodeURIComponent(run.id)}`} className="run-link" data-testid="latest-run" title={`Started ${formatTimestamp(run.createdAt)}`}>
                      <span className="small">
                        {run.steps} step{run.steps === 1 ? "" : "s"} · {formatTimestamp(run.createdAt)}
                      </span>
                    </Link>
                  ) : (
                    <span className="muted small">never run</span>
                  )}
                </td>
                <td className="questions-table__action">
                  <RunQuestionButton graphName={graphName} queryId={q.queryId} isRunning={run?.status === "running"} onStarted={onRunStarted} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
