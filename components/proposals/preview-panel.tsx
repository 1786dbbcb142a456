"use client";

import { ApiError } from "../api/fetch-json";
import { usePreview } from "../api/preview-proposal";
import { EmptyState, LoadingState, Spinner } from "../ui/states";
import { ActionLabel } from "./action-label";
import { DiffList, isEmptyDiff } from "./diff-list";
import { VisualDiff } from "./visual-diff";

/** What approving the selected actions would change, computed by the server without changing anything. */
export function PreviewPanel({ proposalId, indexes }: { proposalId: string; indexes: number[] }) {
  const preview = usePreview(proposalId, indexes);
  const heading = (
    <h2 className="card__title">
      What approving changes{" "}
      {indexes.length > 0 ? <span className="count">{indexes.length === 1 ? `action ${(indexes[0] ?? 0) + 1}` : `${indexes.length} actions`}</span> : null}
      {preview.isFetching && preview.data ? <Spinner size={12} /> : null}
    </h2>
  );
  if (indexes.length === 0) {
    return (
      <section className="card preview" aria-label="Preview" data-testid="preview">
        {heading}
        <EmptyState title="Nothing selected">
          <p className="muted small">Tick one or more pending actions to see what approving them would change.</p>
        </EmptyState>
      </section>
    );
  }
  return (
    <section className="card preview" aria-label="Preview" data-testid="preview" data-state={preview.isError ? "error" : preview.data ? "ready" : "loading"}>
      {heading}
      {preview.isError ? (
        <div className="alert alert--error" role="alert" data-testid="preview-error">
          <strong>{preview.error instanceof ApiError && preview.error.status === 400 ? "This selection cannot be applied as written" : "Could not compute the preview"}</strong>
          <p className="alert__message">{preview.error.message}</p>
          <p className="small">Edit the action or take a suggested replacement, then the preview updates.</p>
        </div>
      ) : !preview.data ? (
        <LoadingState label="Planning the change…" />
      ) : (
        <>
          <p className="muted small">
            Planned on version {preview.data.plannedOn}, the current one{preview.data.plannedOn !== preview.data.baseVersion ? ` (the proposal was made from version ${preview.data.baseVersion})` : ""}. Nothing is applied until you approve.
          </p>
          <ol className="preview__plan" data-testid="preview-plan">
            {preview.data.actions.map((a) => (
              <li key={a.index} className={a.skipped ? "is-skipped" : undefined}>
                <ActionLabel action={a.action} />
                <span className="preview__summary">{a.summary}</span>
              </li>
            ))}
          </ol>
          {isEmptyDiff(preview.data.diff) ? null : (
            <div className="preview__canvas">
              <VisualDiff graph={preview.data.graph} />
            </div>
          )}
          <DiffList diff={preview.data.diff} testId="preview-diff" />
        </>
      )}
    </section>
  );
}
