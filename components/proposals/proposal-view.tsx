"use client";

import Link from "next/link";
import { useEffect, useMemo, useRef, useState } from "react";
import { canApproveTogether } from "@/lib/auth/approval-policy";
import { useProposal } from "../api/get-proposal";
import { RulesMiningNotice } from "./rules-mining-notice";
import type { ProposalActionItem, ProposalDetails } from "../api/proposal-types";
import { useRejectActions } from "../api/reject-actions";
import type { RunDetails } from "../api/run-types";
import { useSingleFlight } from "../ui/use-single-flight";
import { ActionCard } from "./action-card";
import { AskAgainPanel } from "../ask/ask-again-panel";
import { ApplyResultPanel } from "./apply-result-panel";
import { ApprovalRecorded } from "./approval-recorded";
import type { Decider } from "./decision-rules";
import { decisionFor } from "./decision-rules";
import { ProposalDiscussion } from "./proposal-discussion";
import type { ApprovalItem } from "./approval-types";
import { LowConfirmDialog } from "./low-confirm-dialog";
import { PreviewPanel } from "./preview-panel";
import { ProposalHeader } from "./proposal-header";
import { RunSummary } from "./run-summary";
import { useApproval } from "./use-approval";
import type { DisplayName } from "@/lib/graph/display-names";
import { NodeNamesProvider, idsOfWrittenNames, labelsOfCandidates } from "./node-names";
import type { GraphCalibration } from "../api/calibration";
import { useCalibration } from "../api/calibration";
import { CalibrationPanel } from "../review/calibration-panel";
import type { DecisionStats } from "@/lib/review/count-decisions";
import { describeLabelStats } from "@/lib/review/count-decisions";
import { OriginChip } from "./origin-chip";

interface ProposalViewProps {
  initialProposal: ProposalDetails;
  run: RunDetails | null;
  currentVersion: number | null;
  /** `?edit=N` from the queue's `e` key: that action opens with its edit form. */
  editIndex: number | null;
  /** The signed-in person, from the page's session check (labels and hides controls; the server decides). */
  viewer: Decider;
  /** The graph's decision statistics and thresholds, server-rendered (null if they could not be read). */
  calibration: GraphCalibration | null;
  /** Readable names of the nodes the actions name, by id (server-computed on the current version). */
  nodeNames: DisplayName[];
}

function toApprovalItem(a: ProposalActionItem, stats: DecisionStats | undefined): ApprovalItem {
  const entry = stats?.stats.find((s) => s.kind === a.action.type && s.label === a.confidence);
  return { index: a.index, action: a.action, confidence: a.confidence, reasons: a.review.reasons, warnings: a.review.warnings, score: a.review.score ?? null, history: entry ? describeLabelStats(entry) : null };
}

export function ProposalView({ initialProposal, run, currentVersion, editIndex, viewer, calibration: initialCalibration, nodeNames }: ProposalViewProps) {
  const rootRef = useRef<HTMLDivElement>(null);
  const { data: proposal } = useProposal(initialProposal);
  const { data: calibration } = useCalibration(initialProposal.graph, { initial: initialCalibration ?? undefined });
  const actor = viewer;
  const { policy } = proposal;
  const subjectOf = (a: ProposalActionItem) => ({
    confidence: a.confidence,
    status: a.status,
    startedById: proposal.startedById,
    submittedById: proposal.submittedById,
    approvals: a.evaluation.approvals,
    required: a.evaluation.required,
    vetoed: a.evaluation.vetoed,
    approverIds: a.evaluation.approverIds,
    editedByIds: a.editedByIds,
  });
  const pending = useMemo(() => proposal.actions.filter((a) => a.status === "pending"), [proposal]);
  const names = useMemo(() => ({ graph: proposal.graph, byId: new Map(nodeNames.map((n) => [n.id, n])), idOfWritten: idsOfWrittenNames(proposal.actions.map((a) => a.review)), labelOfId: labelsOfCandidates(proposal.actions.map((a) => a.review)) }), [proposal, nodeNames]);
  // Until the person picks, the preview shows what the labels recommend: every pending HIGH (the
  // ones that may be approved together), else the first pending action.
  const [picked, setPicked] = useState<number[] | null>(null);
  const recommended = pending.filter((a) => a.confidence === "HIGH").map((a) => a.index);
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
    approval.approve({
      proposalId: proposal.id,
      graph: proposal.graph,
      question: proposal.question,
      items: items.map((a) => toApprovalItem(a, calibration?.stats)),
      label: items.length === 1 && items[0] ? decisionFor(actor, subjectOf(items[0]), policy).approveLabel.replace(/…$/, "") : "Approve",
    });
  const rejectItems = (items: ProposalActionItem[]) => onceReject(() => reject.mutateAsync({ proposalId: proposal.id, actions: items.map((a) => a.index) }));
  const chosen = pending.filter((a) => selection.includes(a.index));
  const lowChosen = chosen.filter((a) => a.confidence === "LOW").length;
  const mayDecide = pending.length > 0 && decisionFor(actor, subjectOf(pending[0] as ProposalActionItem), policy).canDecide;
  const together = canApproveTogether(
    chosen.map((a) => a.confidence),
    policy,
  );
  const refusals = chosen.map((a) => decisionFor(actor, subjectOf(a), policy).refusal).filter((r): r is string => r !== null);
  const bulkRefusal = !together.allowed ? together.reason : (refusals[0] ?? null);
  const bulkLabel = chosen.length === 1 && chosen[0] ? decisionFor(actor, subjectOf(chosen[0]), policy).approveLabel : chosen.every((a) => a.evaluation.approvals + 1 >= a.evaluation.required) ? "Approve and apply selected" : "Approve selected";

  return (
    <NodeNamesProvider value={names}>
    <div className="stack proposal-page" ref={rootRef} data-testid="proposal-page" data-status={proposal.status}>
      <ProposalHeader proposal={proposal} currentVersion={currentVersion} />
      <RunSummary run={run} source={proposal.source} />
      <RulesMiningNotice proposal={proposal} />
      <p className="small muted proposal-people" data-testid="proposal-people">
        <OriginChip of={proposal} />{" "}
        {proposal.submittedByName ? <>Submitted by <strong>{proposal.submittedByName}</strong>. </> : null}
        {proposal.startedByName ? <>Run started by <strong>{proposal.startedByName}</strong>. </> : null}
        Policy of {proposal.graph}
        {proposal.approvalMode === "solo" ? " (solo mode: fewer than two people may approve, so you may approve your own runs)" : ""}: HIGH needs {policy.requiredHigh}, MEDIUM {policy.requiredMedium}, LOW {policy.requiredLow} approval{policy.requiredLow === 1 ? "" : "s"}
        {policy.lowNeedsReason ? " (with a written reason)" : ""}
        {policy.separateDuties ? "; whoever ran or submitted it cannot approve it" : ""}.{" "}
        <Link href={`/graphs/${encodeURIComponent(proposal.graph)}/policy`} prefetch={false}>
          Policy
        </Link>
      </p>
      {approval.outcome ? <ApplyResultPanel key={approval.outcome.result.version} outcome={approval.outcome} onDismiss={approval.clearOutcome} /> : null}
      {(proposal.status === "applied" || proposal.status === "partially_applied") && proposal.question ? (
        <AskAgainPanel proposalId={proposal.id} graph={proposal.graph} question={proposal.question} />
      ) : null}
      {approval.recorded ? <ApprovalRecorded recorded={approval.recorded} onDismiss={approval.clearOutcome} /> : null}
      {approval.error && !approval.lowPrompt ? (
        <div className="alert alert--error" role="alert" data-testid="apply-error">
          <strong>Not approved; nothing changed</strong>
          <p className="alert__message">{approval.error.message}</p>
        </div>
      ) : null}
      {reject.error ? (
        <p className="inline-error" role="alert">
          Could not veto: {reject.error.message}
        </p>
      ) : null}
      <div className="proposal-grid">
        <section className="proposal-grid__actions" aria-label="Proposed actions">
          {pending.length > 0 && mayDecide ? (
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
                <button
                  type="button"
                  className="button button--approve"
                  disabled={chosen.length === 0 || bulkRefusal !== null}
                  title={bulkRefusal ?? undefined}
                  onClick={() => approve(chosen)}
                  data-testid="approve-selected"
                >
                  {bulkLabel}
                </button>
                <button type="button" className="button" disabled={chosen.length === 0} onClick={() => rejectItems(chosen)} data-testid="reject-selected">
                  Reject selected
                </button>
              </span>
              {bulkRefusal && chosen.length > 0 ? (
                <span className="small muted decision-bar__refusal" data-testid="bulk-refusal">
                  {bulkRefusal}
                </span>
              ) : null}
            </div>
          ) : pending.length > 0 ? (
            <p className="notice" role="status" data-testid="read-only-notice">
              {actor ? "You can read this proposal; approving and rejecting need a reviewer or admin." : "Sign in as a reviewer or admin to approve or reject."}
            </p>
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
              stats={calibration?.stats.stats.find((s) => s.kind === item.action.type && s.label === item.confidence)}
              actor={actor}
              policy={policy}
              startedById={proposal.startedById}
              submittedById={proposal.submittedById}
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
          <ProposalDiscussion proposalId={proposal.id} actions={proposal.actions} actor={actor} />
          <details className="card calibration-details" data-testid="proposal-calibration">
            <summary>
              <strong>Decisions on {proposal.graph}</strong>
              <span className="muted small"> · per label and kind, and the score thresholds</span>
            </summary>
            <div className="calibration-details__body">
              <CalibrationPanel graph={proposal.graph} viewer={actor} initial={calibration ?? undefined} />
            </div>
          </details>
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
          confirmLabel={approval.lowPrompt.label}
        />
      ) : null}
    </div>
    </NodeNamesProvider>
  );
}
