"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import type { ApprovalPolicy } from "@/lib/auth/approval-policy";
import type { Actor } from "@/lib/auth/permissions";
import { useEditAction } from "../api/edit-action";
import type { Confidence, ProposalActionItem } from "../api/proposal-types";
import type { RefinementAction } from "../api/run-types";
import { useSingleFlight } from "../ui/use-single-flight";
import { ActionApprovals } from "./action-approvals";
import { ActionLabel } from "./action-label";
import { decisionFor } from "./decision-rules";
import { ActionStatusBadge } from "./action-status-badge";
import { ConfidenceBadge } from "./confidence-badge";
import { describeAction } from "./describe-action";
import { EditActionForm } from "./edit-action-form";
import { EvidenceList } from "./evidence-list";
import { ReviewWarnings } from "./review-warnings";
import { SuggestionList } from "./suggestion-list";
import { ScoreTag } from "./score-tag";
import { SignalList } from "./signal-list";
import { nameText, useNodeNames } from "./node-names";
import { plural } from "@/lib/text/plural";
import type { LabelDecisionStats } from "@/lib/review/count-decisions";
import { describeLabelStats } from "@/lib/review/count-decisions";

interface ActionCardProps {
  proposalId: string;
  graph: string;
  item: ProposalActionItem;
  /** How people decided on this graph's actions of the same kind and label (undefined while unknown). */
  stats?: LabelDecisionStats;
  actor: Actor | null;
  policy: ApprovalPolicy;
  startedById: string | null;
  submittedById: string | null;
  isSelected: boolean;
  isEditingAtFirst: boolean;
  onToggle: (index: number) => void;
  onApprove: (item: ProposalActionItem) => void;
  onReject: (item: ProposalActionItem) => void;
}

export function ActionCard({ proposalId, graph, item, stats, actor, policy, startedById, submittedById, isSelected, isEditingAtFirst, onToggle, onApprove, onReject }: ActionCardProps) {
  const { review } = item;
  const edit = useEditAction();
  const once = useSingleFlight();
  const [isEditing, setIsEditing] = useState(isEditingAtFirst);
  const [before, setBefore] = useState<Confidence | null>(null);
  const isPending = item.status === "pending";
  const names = useNodeNames();
  const router = useRouter();
  const { headline, notes } = describeAction(item.action, review, (written) => JSON.stringify(nameText(names, written)));
  const verdict = review.reasons[review.reasons.length - 1] ?? null;
  const number = item.index + 1;
  const { evaluation } = item;
  const decision = decisionFor(
    actor,
    { confidence: item.confidence, status: item.status, startedById, submittedById, approvals: evaluation.approvals, required: evaluation.required, vetoed: evaluation.vetoed, approverIds: evaluation.approverIds, editedByIds: item.editedByIds },
    policy,
  );

  const replace = (action: RefinementAction) =>
    once(async () => {
      const previous = item.confidence;
      await edit.mutateAsync({ proposalId, index: item.index, action });
      setBefore(previous);
      setIsEditing(false);
      // The page's readable names are the server's: render them again for the edited action.
      router.refresh();
    });

  return (
    <article
      id={`action-${number}`}
      className={`action-card action-card--${item.confidence}${isSelected ? " is-selected" : ""}`}
      aria-labelledby={`action-${number}-title`}
      data-testid="action-card"
      data-index={item.index}
      data-confidence={item.confidence}
      data-action-type={item.action.type}
      data-status={item.status}
      data-approvals={`${evaluation.approvals}/${evaluation.required}`}
    >
      <header className="action-card__head">
        {isPending && decision.canDecide ? (
          <label className="action-card__pick">
            <input type="checkbox" checked={isSelected} onChange={() => onToggle(item.index)} data-testid="select-action" />
            <span className="sr-only">Include action {number} in the selection</span>
          </label>
        ) : null}
        <h3 id={`action-${number}-title`} className="action-card__title">
          Action {number}
        </h3>
        <ConfidenceBadge confidence={item.confidence} />
        <ScoreTag score={review.score} />
        <ActionStatusBadge status={item.status} version={item.status === "obsolete" ? item.obsoleteIn : item.appliedIn} graph={graph} reason={item.obsoleteReason} />
        {stats ? (
          <span className="action-card__stats small muted" data-testid="action-decision-stats" title="How reviewers decided on this graph's actions of the same kind and label">
            {describeLabelStats(stats)}
          </span>
        ) : null}
      </header>
      <div className="action-card__what">
        <ActionLabel action={item.action} text={review.text} />
        <p className="action-card__headline" data-testid="action-headline">
          {headline}
        </p>
        {notes.length > 0 ? (
          <ul className="action-card__notes small">
            {notes.map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
        ) : null}
        {before ? (
          <p className="notice small" role="status" data-testid="re-reviewed">
            Edited and reviewed again: {before === item.confidence ? `still ${item.confidence}` : `${before} → ${item.confidence}`}.
          </p>
        ) : null}
      </div>
      {verdict ? (
        <p className="action-card__verdict" data-testid="action-verdict">
          {verdict}
        </p>
      ) : null}
      {review.warnings.length > 0 ? (
        <section aria-label="Warnings">
          <ReviewWarnings warnings={review.warnings} />
        </section>
      ) : null}
      <details className="action-card__more" data-testid="action-details">
        <summary>
          Why {item.confidence}: {plural(review.signals?.length ?? 0, "score signal")}, {plural(review.evidence.length, "piece")} of evidence
        </summary>
        <div className="action-card__more-body">
          <section aria-label="Score signals" className="action-card__signals">
            <h4 className="section-title">{typeof review.score === "number" ? `Score ${review.score.toFixed(2)}: what moved it` : "Score"}</h4>
            <SignalList graph={graph} signals={review.signals} evidence={review.evidence} />
          </section>
          <div className="action-card__grid">
            <section aria-label={`Why ${item.confidence}`}>
              <h4 className="section-title">Why {item.confidence}</h4>
              <ol className="reasons" data-testid="reasons">
                {review.reasons.map((r, i) => (
                  <li key={i} className={i === review.reasons.length - 1 ? "reasons__verdict" : undefined}>
                    {r}
                  </li>
                ))}
              </ol>
            </section>
            <section aria-label="Evidence">
              <h4 className="section-title">Evidence</h4>
              <EvidenceList graph={graph} evidence={review.evidence} />
            </section>
          </div>
        </div>
      </details>
      {review.suggestions.length > 0 ? (
        <section aria-label="Suggested replacements">
          <h4 className="section-title">Suggested replacements</h4>
          <SuggestionList suggestions={review.suggestions} isEditable={isPending} isBusy={edit.isPending} onTake={(s) => replace(s.action)} />
        </section>
      ) : null}
      {isEditing && isPending ? (
        <EditActionForm
          graph={graph}
          action={item.action}
          idPrefix={`edit-${number}`}
          isPending={edit.isPending}
          error={edit.error?.message ?? null}
          onSubmit={replace}
          onCancel={() => setIsEditing(false)}
        />
      ) : null}
      {!isEditing && edit.error ? (
        <p className="inline-error" role="alert">
          Could not change the action: {edit.error.message}
        </p>
      ) : null}
      <ActionApprovals proposalId={proposalId} item={item} actor={actor} />
      {isPending && decision.canDecide ? (
        <footer className="action-card__decide">
          <button
            type="button"
            className={item.confidence === "LOW" ? "button button--danger-outline" : "button button--approve"}
            onClick={() => onApprove(item)}
            disabled={decision.refusal !== null}
            data-testid="approve-action"
          >
            {decision.approveLabel}
          </button>
          <button type="button" className="button" onClick={() => onReject(item)} data-testid="reject-action" title="Veto: nobody can approve it until you withdraw">
            Reject
          </button>
          {isEditing ? null : (
            <button type="button" className="button" onClick={() => setIsEditing(true)} data-testid="edit-action">
              Edit
            </button>
          )}
          {decision.refusal ? (
            <span className="action-card__refusal small" data-testid="approve-refusal">
              {decision.refusal}
            </span>
          ) : null}
        </footer>
      ) : isPending && decision.refusal ? (
        <p className="muted small" data-testid="approve-refusal">
          {decision.refusal}
        </p>
      ) : null}
    </article>
  );
}
