"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useRevertVersion } from "../api/revert-version";
import { useStartRun } from "../api/start-run";
import { Spinner } from "../ui/states";
import { useSingleFlight } from "../ui/use-single-flight";
import { ActionLabel } from "./action-label";
import { DiffList } from "./diff-list";
import type { ApprovalOutcome } from "./use-approval";

/** After an approval: the new version, what changed, and the two next steps (undo, check by re-running). */
export function ApplyResultPanel({ outcome, onDismiss }: { outcome: ApprovalOutcome; onDismiss?: () => void }) {
  const { target, result } = outcome;
  const router = useRouter();
  const revert = useRevertVersion(target.graph);
  const rerun = useStartRun(target.graph);
  const onceUndo = useSingleFlight();
  const onceRerun = useSingleFlight();
  const graphHref = `/graphs/${encodeURIComponent(target.graph)}`;
  const applied = result.applied.filter((a) => !a.skipped).length;
  return (
    <section className="card result-panel" aria-labelledby="result-title" data-testid="apply-result" data-version={result.version}>
      <div className="result-panel__head">
        <h2 id="result-title" role="status">
          Applied as version <span data-testid="applied-version">{result.version}</span> of <Link href={graphHref}>{target.graph}</Link>
        </h2>
        {onDismiss ? (
          <button type="button" className="link-button small" onClick={onDismiss}>
            Dismiss
          </button>
        ) : null}
      </div>
      <p className="muted small">
        {applied} change{applied === 1 ? "" : "s"} applied
        {result.applied.length > applied ? `, ${result.applied.length - applied} skipped (nothing to change)` : ""}. The previous version is kept: undo
        restores it as a new version.
      </p>
      <ol className="result-panel__applied" data-testid="applied-list">
        {result.applied.map((a) => (
          <li key={a.index}>
            <ActionLabel action={a.action} /> <span className={a.skipped ? "muted small" : "small"}>{a.summary}</span>
          </li>
        ))}
      </ol>
      <DiffList diff={result.diff} testId="applied-diff" />
      <div className="row row--wrap result-panel__actions">
        <Link className="button" href={`${graphHref}/versions/${result.version}`} data-testid="version-link">
          See version {result.version} in the history
        </Link>
        {revert.data ? (
          <span className="badge badge--refined" role="status" data-testid="undo-done">
            Undone: version {revert.data.version} restores the graph as before
          </span>
        ) : (
          <button
            type="button"
            className="button"
            disabled={revert.isPending}
            onClick={() => onceUndo(() => revert.mutateAsync(result.version))}
            data-testid="undo"
          >
            {revert.isPending ? <Spinner size={12} /> : null}
            Undo
          </button>
        )}
        {target.question ? (
          rerun.data?.runId ? (
            <Link className="button button--primary" href={`/runs/${encodeURIComponent(rerun.data.runId)}`} data-testid="rerun-link">
              Follow the new run
            </Link>
          ) : (
            <button
              type="button"
              className="button button--primary"
              disabled={rerun.isPending}
              onClick={() =>
                onceRerun(async () => {
                  // Its progress opens at once, as after "Run now".
                  const launched = await rerun.mutateAsync({ question: target.question ?? "" });
                  if (launched.runId) router.push(`/runs/${encodeURIComponent(launched.runId)}`);
                })
              }
              data-testid="rerun"
              title="Runs the question again on the new version, to check the graph can now answer it"
            >
              {rerun.isPending ? <Spinner size={12} /> : null}
              Re-run the question
            </button>
          )
        ) : null}
      </div>
      {revert.error ? (
        <p className="inline-error" role="alert">
          Could not undo: {revert.error.message}
        </p>
      ) : null}
      {rerun.error ? (
        <p className="inline-error" role="alert">
          Could not start the run: {rerun.error.message}
        </p>
      ) : null}
    </section>
  );
}
