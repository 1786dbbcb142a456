"use client";

import Link from "next/link";
import { memo } from "react";
import { ActionLabel } from "../proposals/action-label";
import { ConfidenceBadge } from "../proposals/confidence-badge";
import { ActionStatusBadge } from "../proposals/action-status-badge";
import type { QueueRow } from "./queue-rows";

export function proposalHref(row: { proposalId: string; index: number }, edit = false): string {
  return `/proposals/${encodeURIComponent(row.proposalId)}${edit ? `?edit=${row.index}` : ""}#action-${row.index + 1}`;
}

interface RowProps {
  row: QueueRow;
  isSelected: boolean;
  onSelect: (key: string) => void;
  onApprove: (row: QueueRow) => void;
  onReject: (row: QueueRow) => void;
}

const QueueRowView = memo(function QueueRowView({ row, isSelected, onSelect, onApprove, onReject }: RowProps) {
  const isPending = row.status === "pending";
  return (
    <tr
      className={isSelected ? "queue-row is-selected" : "queue-row"}
      aria-selected={isSelected}
      onClick={() => onSelect(row.key)}
      data-testid="queue-row"
      data-key={row.key}
      data-confidence={row.confidence}
    >
      <td className="queue-row__label">
        <ConfidenceBadge confidence={row.confidence} />
      </td>
      <td>
        <div className="queue-row__change">
          <Link href={proposalHref(row)} className="queue-row__link" title={row.text} prefetch={false}>
            <ActionLabel action={row.action} />
          </Link>
          <span className="queue-row__why">{row.verdict}</span>
          {row.warnings.length > 0 ? (
            <span className="queue-row__warnings">
              {row.warnings.map((w, i) => (
                <span key={i} className="warning-code" title={w.message}>
                  {w.code}
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
      </td>
      <td className="queue-row__decide">
        {isPending ? (
          <span className="row">
            <button
              type="button"
              className={row.confidence === "LOW" ? "button button--small button--danger-outline" : "button button--small button--approve"}
              onClick={() => onApprove(row)}
              title={row.confidence === "LOW" ? "LOW: asks for a written reason first" : "Apply this change now"}
              data-testid="row-approve"
            >
              {row.confidence === "LOW" ? "Approve…" : "Approve"}
            </button>
            <button type="button" className="button button--small" onClick={() => onReject(row)} data-testid="row-reject">
              Reject
            </button>
          </span>
        ) : (
          <ActionStatusBadge status={row.status} version={row.appliedIn} />
        )}
      </td>
    </tr>
  );
});

interface QueueTableProps {
  rows: QueueRow[];
  selectedKey: string | null;
  onSelect: (key: string) => void;
  onApprove: (row: QueueRow) => void;
  onReject: (row: QueueRow) => void;
}

export function QueueTable({ rows, selectedKey, onSelect, onApprove, onReject }: QueueTableProps) {
  return (
    <div className="card table-card">
      <table className="table queue-table" data-testid="queue-table" aria-label="Actions to review">
        <thead>
          <tr>
            <th scope="col">Label</th>
            <th scope="col">Proposed change and why</th>
            <th scope="col">Question · graph</th>
            <th scope="col">Decision</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <QueueRowView key={row.key} row={row} isSelected={row.key === selectedKey} onSelect={onSelect} onApprove={onApprove} onReject={onReject} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
