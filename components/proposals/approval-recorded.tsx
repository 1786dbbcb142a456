"use client";

import { ActionLabel } from "./action-label";
import type { RecordedApproval } from "./use-approval";

/** After an approval that did not apply: where each approved action stands, and what happens next. */
export function ApprovalRecorded({ recorded, onDismiss }: { recorded: RecordedApproval; onDismiss: () => void }) {
  const { target, result } = recorded;
  return (
    <section className={result.applyError ? "alert alert--error" : "notice"} role="status" data-testid="approval-recorded">
      <div className="row row--wrap">
        <strong>{result.applyError ? "Approved, but not applied" : "Approval recorded"}</strong>
        <button type="button" className="link-button small" onClick={onDismiss}>
          Dismiss
        </button>
      </div>
      <ul className="plain-list small">
        {result.actions
          .filter((a) => result.approved.includes(a.index))
          .map((a) => {
            const item = target.items.find((i) => i.index === a.index);
            return (
              <li key={a.index} data-testid="recorded-action">
                Action {a.index + 1} {item ? <ActionLabel action={item.action} /> : null}: <strong data-testid="recorded-count">{a.approvals} of {a.required}</strong> approvals.{" "}
                {a.waiting ? `It is applied when ${a.required - a.approvals === 1 ? "one more person approves" : `${a.required - a.approvals} more people approve`}.` : null}
              </li>
            );
          })}
      </ul>
      {result.applyError ? <p className="alert__message">{result.applyError.message}</p> : null}
    </section>
  );
}
