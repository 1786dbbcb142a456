"use client";

import Link from "next/link";
import { memo } from "react";
import type { Actor } from "@/lib/auth/permissions";
import { decisionFor } from "../proposals/decision-rules";
import { ActionLabel } from "../proposals/action-label";
import { OriginChip } from "../proposals/origin-chip";
import { warningSentence } from "../proposals/warning-text";
import { ConfidenceBadge } from "../proposals/confidence-badge";
import { ActionStatusBadge } from "../proposals/action-status-badge";
import { ScoreTag, formatContribution } from "../proposals/score-tag";
import type { LabelDecisionStats } from "@/lib/review/count-decisions";
import { describeLabelStats } from "@/lib/review/count-decisions";
import type { QueueRow } from "./queue-rows";
import { decisionSubjectOf } from "./queue-rows";

export function proposalHref(row: { proposalId: string; index: number }, edit = false): string {
  return `/proposals/${encodeURIComponent(row.proposalId)}${edit ? `?edit=${row.index}` : ""}#action-${row.index + 1}`;
}

function sourceName(source: QueueRow["sources"][number]): string {
  const when = source.createdAt.slice(0, 10);
  const what = source.runId ? "run" : "proposal";
  return source.question ? `${what} of ${when}: ${source.question.length > 60 ? `${source.question.slice(0, 57)}…` : source.question}` : `${what} of ${when}`;
}

/** The proposals a merged row's copies came from; the first is the copy the row decides on. */
function QueueSources({ row }: { row: QueueRow }) {
  const runs = row.sources.filter((s) => s.runId !== null).length;
  return (
    <span className="queue-row__sources small" data-testid="row-sources" data-count={row.sources.length}>
      Proposed {row.sources.length} times{runs > 1 ? ` (by ${runs} runs)` : ""}:{" "}
      {row.sources.map((source, i) => (
        <span key={`${source.proposalId}:${source.index}`}>
          {i > 0 ? "; " : null}
          <Link href={proposalHref(source)} prefetch={false} data-testid="row-source" title={i === 0 ? "the copy this row approves" : `${source.approvals} approval(s) on this copy`}>
            {sourceName(source)}
          </Link>
          {i === 0 ? <span className="muted"> (decided here)</span> : null}
        </span>
      ))}
    </span>
  );
}

interface RowProps {
  row: QueueRow;
  /** How people decided on this graph's actions of the same kind and label. */
  stats: LabelDecisionStats | undefined;
  actor: Actor | null;
  isSelected: boolean;
  onSelect: (key: string) => void;
  onApprove: (row: QueueRow) => void;
  onReject: (row: QueueRow) => void;
}

const QueueRowView = memo(function QueueRowView({ row, stats, actor, isSelected, onSelect, onApprove, onReject }: RowProps) {
  const isPending = row.status === "pending";
  const decision = decisionFor(actor, decisionSubjectOf(row), row.policy);
  return (
    <tr
      className={isSelected ? "queue-row is-selected" : "queue-row"}
      aria-selected={isSelected}
      onClick={() => onSelect(row.key)}
      data-testid="queue-row"
      data-key={row.key}
      data-confidence={row.confidence}
      data-approvals={`${row.approvals}/${row.required}`}
    >
      <td className="queue-row__label">
        <span className="queue-row__score">
          <ConfidenceBadge confidence={row.confidence} />
          <ScoreTag score={row.score} />
        </span>
      </td>
      <td className="queue-row__main">
        <div className="queue-row__change">
          <Link href={proposalHref(row)} className="queue-row__link" title={row.text} prefetch={false}>
            <ActionLabel action={row.action} text={row.text} />
          </Link>
          <span className="queue-row__why">{row.verdict}</span>
          {row.signals.length > 0 ? (
            <span className="queue-row__signals small" data-testid="row-signals">
              {row.signals.map((s, i) => (
                <span key={i} className={`queue-signal queue-signal--${s.contribution >= 0 ? "pos" : "neg"}`} title={s.summary}>
                  <span className="mono">{formatContribution(s.contribution)}</span> {s.kind}
                  {/* The verdict usually quotes the strongest signal already: its text is not repeated. */}
                  {row.verdict.includes(s.summary) ? null : <span className="queue-signal__summary">: {s.summary}</span>}
                </span>
              ))}
            </span>
          ) : null}
          {stats ? (
            <span className="queue-row__stats small muted" data-testid="row-decision-stats" title="How reviewers decided on this graph's actions of the same kind and label">
              {describeLabelStats(stats, `on ${row.graph}`)}
            </span>
          ) : null}
          {row.warnings.length > 0 ? (
            <span className="queue-row__warnings">
              {row.warnings.map((w, i) => (
                <span key={i} className="warning-code" title={w.message} data-code={w.code}>
                  {warningSentence(w.code)}
                </span>
              ))}
            </span>
          ) : null}
        </div>
      </td>
      <td className="queue-row__context">
        <span className="queue-row__question">{row.question ?? <span className="muted">no question (imported)</span>}</span>
        <span className="table__sub">
          {row.graph} · action {row.index + 1}
        </span>
        <span className="queue-row__origin">
          <OriginChip of={row} />
        </span>
        {row.sources.length > 1 ? <QueueSources row={row} /> : null}
      </td>
      <td className="queue-row__decide">
        {isPending ? (
          <div className="queue-row__decision">
            <span className="queue-row__tally small" data-testid="row-approvals" title="approvals that count now, of those this label needs">
              {row.approvals} of {row.required} approval{row.required === 1 ? "" : "s"}
            </span>
            {row.changedSinceApproved ? (
              <span className="status-chip status-chip--changed" title={row.changedSinceApproved} data-testid="row-changed">
                changed since approved
              </span>
            ) : null}
            {decision.canDecide ? (
              <span className="row">
                <button
                  type="button"
                  className={row.confidence === "LOW" ? "button button--small button--danger-outline" : "button button--small button--approve"}
                  onClick={() => onApprove(row)}
                  disabled={decision.refusal !== null}
                  title={decision.refusal ?? (row.confidence === "LOW" ? "LOW: asks for a written reason first" : decision.approveLabel)}
                  data-testid="row-approve"
                >
                  {decision.approveLabel}
                </button>
                <button type="button" className="button button--small" onClick={() => onReject(row)} data-testid="row-reject" title="Veto: blocks it until you withdraw">
                  Reject
                </button>
              </span>
            ) : null}
            {decision.refusal ? (
              <span className="queue-row__refusal small muted" data-testid="row-refusal">
                {decision.refusal}
              </span>
            ) : null}
          </div>
        ) : (
          <span className="queue-row__decision">
            <ActionStatusBadge status={row.status} version={row.status === "obsolete" ? row.obsoleteIn : row.appliedIn} graph={row.graph} reason={row.obsoleteReason} />
            {row.obsoleteReason ? (
              <span className="small muted" data-testid="row-obsolete">
                {row.obsoleteReason}
              </span>
            ) : null}
            {row.vetoedBy.length > 0 ? (
              <span className="small muted" data-testid="row-vetoed">
                vetoed by {row.vetoedBy.join(", ")}
              </span>
            ) : null}
          </span>
        )}
      </td>
    </tr>
  );
});

interface QueueTableProps {
  rows: QueueRow[];
  statsOf: (row: QueueRow) => LabelDecisionStats | undefined;
  actor: Actor | null;
  selectedKey: string | null;
  onSelect: (key: string) => void;
  onApprove: (row: QueueRow) => void;
  onReject: (row: QueueRow) => void;
}

export function QueueTable({ rows, statsOf, actor, selectedKey, onSelect, onApprove, onReject }: QueueTableProps) {
  return (
    <div className="card table-card">
      <table className="table queue-table" data-testid="queue-table" aria-label="Actions to review">
        <thead>
          <tr>
            <th scope="col">Label · score</th>
            <th scope="col">Proposed change and why</th>
            <th scope="col">Question · graph</th>
            <th scope="col">Decision</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <QueueRowView key={row.key} row={row} stats={statsOf(row)} actor={actor} isSelected={row.key === selectedKey} onSelect={onSelect} onApprove={onApprove} onReject={onReject} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
