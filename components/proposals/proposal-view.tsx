"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import { useProposal } from "../api/get-proposal";
import type { ProposalActionItem, ProposalDetails } from "../api/proposal-types";
import { useRejectActions } from "../api/reject-actions";
import type { RunDetails } from "../api/run-types";
import { useSingleFlight } from "../ui/use-single-flight";
import { ActionCard } from "./action-card";
import { ApplyResultPanel } from "./apply-result-panel";
import type { ApprovalItem } from "./approval-types";
import { LowConfirmDialog } from "./low-confirm-dialog";
import { PreviewPanel } from "./preview-panel";
import { ProposalHeader } from "./proposal-header";
import { RunSummary } from "./run-summary";
import { useApproval } from "./use-approval";

interface ProposalViewProps {
  initialProposal: ProposalDetails;
  run: RunDetails | null;
  currentVersion: number | null;
  /** `?edit=N` from the queue's `e` key: that action opens with its edit form. */
  editIndex: number | null;
}

function toApprovalItem(a: ProposalActionItem): ApprovalItem {
  return { index: a.index, action: a.action, confidence: a.confidence, reasons: a.review.reasons, warnings: a.review.warnings };
}

export function ProposalView({ initialProposal, run, currentVersion, editIndex }: ProposalViewProps) {
  const rootRef = useRef<HTMLDivElement>(null);
  const { data: proposal } = useProposal(initialProposal);
  const pending = useMemo(() => proposal.actions.filter((a) => a.status === "pending"), [proposal]);
  // Until the person picks, the preview shows what the labels recommend: every pending HIGH and MEDIUM.
  const [picked, setPicked] = useState<number[] | null>(null);
  const recommended = pending.filter((a) => a.confidence !== "LOW").map((a) => a.index);
  const selection = (picked ?? (recommended.length > 0 ? recommended : pending.slice(0, 1).map((a) => a.index)))
    .filter((i) => pending.some((a) => a.index === i))
    .sort((a, b) => a - b);
  const approval = useApproval();
  const reject = useRejectActions();
  const onceReject = useSingleFlight();

  useEffect(() => {
    if (rootRef.current) rootRef.current.dataset.hydrated = String(Math.round(performance.now()));
  }, []);

  const toggle = (index: number) => setPicked(selection.includes(index) ? selection.filter((i) => i !== index) : [...selection, index]);
  const approve = (items: ProposalActionItem[]) =>
    approval.approve({ proposalId: proposal.id, graph: proposal.graph, question: proposal.question, items: items.map(toApprovalItem) });
  const rejectItems = (items: ProposalActionItem[]) => onceReject(() => reject.mutateAsync({ proposalId: proposal.id, actions: items.map((a) => a.index) }));
  const chosen = pending.filter((a) => selection.includes(a.index));
  const lowChosen = chosen.filter((a) => a.confidence === "LOW").length;

  return (
    <div className="stack proposal-page" ref={rootRef} data-testid="proposal-page" data-status={proposal.status}>
      <ProposalHeader proposal={proposal} currentVersion={currentVersion} />
      <RunSummary run={run} source={proposal.source} />
      {approval.outcome ? <ApplyResultPanel key={approval.outcome.result.version} outcome={approval.outcome} onDismiss={approval.clearOutcome} /> : null}
      {approval.error && !approval.lowPrompt ? (
        <div className="alert alert--error" role="alert" data-testid="apply-error">
          <strong>Nothing was applied</strong>
          <p className="alert__message">{approval.error.message}</p>
        </div>
      ) : null}
      {reject.error ? (
        <p className="inline-error" role="alert">
          Could not reject: {reject.error.message}
        </p>
      ) : null}
      <div className="proposal-grid">
        <section className="proposal-grid__actions" aria-label="Proposed actions">
          {pending.length > 0 ? (
            <div className="decision-bar" data-testid="decision-bar">
              <span className="small">
                <strong>{chosen.length}</strong> of {pending.length} pending selected
                {lowChosen > 0 ? <span className="warning-text"> ({lowChosen} LOW: approving asks for a reason)</span> : null}
              </span>
              <button type="button" className="link-button small" onClick={() => setPicked(pending.map((a) => a.index))}>
                Select all
              </button>
              <button type="button" className="link-button small" onClick={() => setPicked([])}>
                Clear
              </button>
              <span className="decision-bar__buttons">
                <button type="button" className="button button--approve" disabled={chosen.length === 0} onClick={() => approve(chosen)} data-testid="approve-selected">
                  Approve selected
                </button>
                <button type="button" className="button" disabled={chosen.length === 0} onClick={() => rejectItems(chosen)} data-testid="reject-selected">
                  Reject selected
                </button>
              </span>
            </div>
          ) : (
            <p className="notice" role="status">
              Every action of this proposal has been decided.
            </p>
          )}
          {proposal.actions.map((item) => (
            <ActionCard
              key={item.index}
              proposalId={proposal.id}
              graph={proposal.graph}
              item={item}
              isSelected={selection.includes(item.index)}
              isEditingAtFirst={editIndex === item.index}
              onToggle={toggle}
              onApprove={(a) => approve([a])}
              onReject={(a) => rejectItems([a])}
            />
          ))}
        </section>
        <aside className="proposal-grid__preview">
          <PreviewPanel proposalId={proposal.id} indexes={selection} />
        </aside>
      </div>
      {approval.lowPrompt ? (
        <LowConfirmDialog
          graph={approval.lowPrompt.graph}
          items={approval.lowPrompt.items}
          isPending={approval.isPending}
          error={approval.error?.message ?? null}
          onCancel={approval.cancelLow}
          onConfirm={approval.confirmLow}
        />
      ) : null}
    </div>
  );
}
