"use client";

import { asSentence, warningSentence } from "./warning-text";
import { useState } from "react";
import type { ApprovalItem } from "./approval-types";
import { ActionLabel } from "./action-label";
import { Modal } from "./modal";
import { MIN_REASON_LENGTH as MIN_REASON } from "@/lib/auth/approval-policy";
import { Spinner } from "../ui/states";
import { ScoreTag } from "./score-tag";

interface LowConfirmDialogProps {
  graph: string;
  items: ApprovalItem[];
  isPending: boolean;
  error: string | null;
  onCancel: () => void;
  onConfirm: (reason: string) => void;
  /** What the confirm button does: "Approve and apply" when this approval completes the policy, else "Approve (1 of 2)". */
  confirmLabel?: string;
}

/**
 * The extra step before a LOW-confidence change: it says what could go wrong and takes a
 * written reason. Cancelling sends nothing, so the graph is untouched.
 */
export function LowConfirmDialog({ graph, items, isPending, error, onCancel, onConfirm, confirmLabel = "Approve" }: LowConfirmDialogProps) {
  const [reason, setReason] = useState("");
  const low = items.filter((i) => i.confidence === "LOW");
  const isReady = reason.trim().length >= MIN_REASON && !isPending;
  const many = low.length > 1;
  return (
    <Modal title={many ? `Approve ${low.length} LOW-confidence changes?` : "Approve a LOW-confidence change?"} onClose={onCancel} tone="danger" testId="low-confirm">
      <p className="modal__risk" data-testid="low-risk">
        The review found nothing that supports {many ? "these changes" : "this change"}, or a warning blocks {many ? "them" : "it"}. If{" "}
        {many ? "they are" : "it is"} wrong, graph <strong>{graph}</strong> will state something false, and later answers built on it inherit the
        mistake. You can undo afterwards, but only if someone notices.
      </p>
      <ul className="low-list">
        {low.map((item) => (
          <li key={item.index} className="low-list__item">
            <div className="row row--wrap">
              <span className="muted small">Action {item.index + 1}</span>
              <ActionLabel action={item.action} />
              <ScoreTag score={item.score} />
            </div>
            <p className="small">
              <strong>Why LOW:</strong> {(item.reasons.at(-1) ?? "no reason was recorded").replace(/^LOW:\s*/, "")}
            </p>
            {item.history ? (
              <p className="small muted" data-testid="low-history">
                {item.history}
              </p>
            ) : null}
            {item.warnings.length > 0 ? (
              <ul className="warning-list">
                {item.warnings.map((w, i) => (
                  <li key={i}>
                    <strong>{warningSentence(w.code)}</strong> {asSentence(w.message)}
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ul>
      <form
        className="form"
        onSubmit={(event) => {
          event.preventDefault();
          if (isReady) onConfirm(reason.trim());
        }}
      >
        <div className="field">
          <label htmlFor="low-reason">Why do you accept this risk?</label>
          <textarea
            id="low-reason"
            className="textarea"
            rows={3}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            placeholder="e.g. I checked client.py: Client does call it."
            aria-describedby="low-reason-hint"
            data-autofocus
            required
            minLength={MIN_REASON}
            maxLength={2000}
          />
          <span id="low-reason-hint" className="hint">
            Required, and shown to everyone in the proposal’s timeline. LOW changes need more than one person: the graph changes only when
            the last required approval is given.
          </span>
        </div>
        {error ? (
          <p className="inline-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="form__actions modal__actions">
          <button type="button" className="button" onClick={onCancel}>
            Cancel, change nothing
          </button>
          <button type="submit" className="button button--danger" disabled={!isReady} data-testid="low-confirm-apply">
            {isPending ? <Spinner size={12} /> : null}
            {isPending ? "Sending…" : confirmLabel}
          </button>
        </div>
      </form>
    </Modal>
  );
}
