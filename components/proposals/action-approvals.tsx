"use client";

import type { Actor } from "@/lib/auth/permissions";
import type { ProposalActionItem } from "../api/proposal-types";
import { useWithdrawDecision } from "../api/withdraw-decision";
import { useSingleFlight } from "../ui/use-single-flight";

interface ActionApprovalsProps {
  proposalId: string;
  item: ProposalActionItem;
  actor: Actor | null;
}

/**
 * Who approved or vetoed this action, which approvals were dismissed and why, and the withdraw
 * button for your own decision (admins: also for someone else's veto).
 */
export function ActionApprovals({ proposalId, item, actor }: ActionApprovalsProps) {
  const withdraw = useWithdrawDecision();
  const once = useSingleFlight();
  const me = actor?.kind === "user" ? actor : null;
  const isOpen = item.status === "pending" || item.status === "rejected";
  const { evaluation } = item;
  return (
    <section aria-label="Approvals" className="action-approvals" data-testid="action-approvals">
      <h4 className="section-title">
        Approvals{" "}
        <span className="action-approvals__tally" data-testid="approval-tally">
          {evaluation.approvals} of {evaluation.required}
        </span>
        {evaluation.needsReason ? <span className="muted small"> · each with a written reason</span> : null}
        {item.decisions.length === 0 ? <span className="muted small"> · no one has decided yet</span> : null}
      </h4>
      {item.changedSinceApproved ? (
        <p className="notice notice--warning small" data-testid="changed-since-approved">
          <strong>Changed since approved.</strong> {item.changedSinceApproved.replace(/^changed since approved: /, "")}: earlier approvals no longer count.
        </p>
      ) : null}
      {item.decisions.length === 0 ? null : (
        <ul className="decision-list small">
          {item.decisions.map((d) => {
            const isActive = d.withdrawnAt === null && d.dismissedAt === null;
            const isMine = me !== null && d.userId === me.userId;
            const mayWithdraw = isOpen && isActive && (isMine || (d.kind === "reject" && me?.role === "admin"));
            const state = d.withdrawnAt ? "withdrawn" : d.dismissedAt ? `dismissed: ${d.dismissedReason ?? "stale"}` : null;
            return (
              <li key={d.id} className={isActive ? "decision" : "decision decision--inactive"} data-testid="decision" data-kind={d.kind}>
                <span className={d.kind === "reject" ? "decision__kind decision__kind--reject" : "decision__kind"}>{d.kind === "reject" ? "Vetoed" : "Approved"}</span>{" "}
                by <strong>{d.userName}</strong> <span className="muted">at version {d.graphVersion}</span>
                {d.reason ? <span className="decision__reason">: “{d.reason}”</span> : null}
                {state ? <span className="muted"> ({state})</span> : null}
                {mayWithdraw ? (
                  <button
                    type="button"
                    className="link-button small"
                    disabled={withdraw.isPending}
                    onClick={() => once(() => withdraw.mutateAsync({ proposalId, action: item.index, ...(isMine ? {} : { decision: d.id }) }))}
                    data-testid="withdraw-decision"
                  >
                    Withdraw{isMine ? "" : ` ${d.userName}'s veto`}
                  </button>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      {withdraw.error ? (
        <p className="inline-error" role="alert">
          Could not withdraw: {withdraw.error.message}
        </p>
      ) : null}
    </section>
  );
}
