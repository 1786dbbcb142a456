import Link from "next/link";
import type { ProposalDetails, ProposalStatus } from "../api/proposal-types";
import { CONFIDENCES } from "../api/proposal-types";
import { formatTimestamp } from "../runs/run-format";
import { ConfidenceBadge } from "./confidence-badge";

const STATUS_TEXT: Record<ProposalStatus, string> = {
  pending: "awaiting review",
  partially_applied: "partly applied",
  applied: "applied",
  rejected: "rejected",
};

export function ProposalHeader({ proposal, currentVersion }: { proposal: ProposalDetails; currentVersion: number | null }) {
  const graphHref = `/graphs/${encodeURIComponent(proposal.graph)}`;
  const pending = proposal.actions.filter((a) => a.status === "pending").length;
  const total = proposal.actions.length;
  return (
    <header className="run-header proposal-header">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link href="/review">Review queue</Link>
        <span aria-hidden="true">/</span>
        <Link href={graphHref}>{proposal.graph}</Link>
        <span aria-hidden="true">/</span>
        <span className="mono">proposal {proposal.id}</span>
      </nav>
      <div className="run-header__title">
        <h1 data-testid="proposal-question">{proposal.question ?? "Proposed changes (no question recorded)"}</h1>
        <span className={`pstatus pstatus--${proposal.status}`} data-testid="proposal-status">
          {STATUS_TEXT[proposal.status]}
        </span>
      </div>
      <p className="proposal-header__intro">
        The system proposes <strong>{total}</strong> change{total === 1 ? "" : "s"} to graph <Link href={graphHref}>{proposal.graph}</Link>
        {proposal.question ? " because it could not answer the question above" : ""}. Each is labelled by how well the graph and its sources
        support it. <strong>Nothing changes until you approve</strong>; {pending} of {total} still wait{pending === 1 ? "s" : ""} for a decision.
      </p>
      <div className="row row--wrap">
        {CONFIDENCES.map((c) => (
          <ConfidenceBadge key={c} confidence={c} count={proposal.counts[c]} />
        ))}
        <span className="muted small">
          made from version {proposal.baseVersion}
          {currentVersion !== null && currentVersion !== proposal.baseVersion
            ? ` (the graph is now at version ${currentVersion}; approving applies on top unless a later change touches the same nodes)`
            : ""}{" "}
          · {formatTimestamp(proposal.createdAt)}
        </span>
      </div>
    </header>
  );
}
