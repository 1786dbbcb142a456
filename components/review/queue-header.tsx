import { memo, useMemo } from "react";
import type { Confidence } from "../api/proposal-types";
import { CONFIDENCES } from "../api/proposal-types";
import { CONFIDENCE_MEANING } from "../proposals/confidence";
import { ConfidenceBadge } from "../proposals/confidence-badge";
import type { QueueRow } from "./queue-rows";

const plural = (n: number, word: string) => `${n.toLocaleString("en")} ${word}${n === 1 ? "" : "s"}`;

function summarize(rows: QueueRow[]): string {
  const pending = rows.filter((r) => r.status === "pending");
  if (pending.length === 0) return "No action is waiting for a decision.";
  const proposals = new Set(pending.flatMap((r) => r.sources.map((s) => s.proposalId))).size;
  const graphs = new Set(pending.map((r) => r.graph)).size;
  const byLabel: Record<Confidence, number> = { HIGH: 0, MEDIUM: 0, LOW: 0 };
  for (const r of pending) byLabel[r.confidence]++;
  return `${plural(pending.length, "proposed change")} waiting for a decision, in ${plural(proposals, "proposal")} across ${plural(graphs, "graph")}: ${byLabel.HIGH.toLocaleString("en")} HIGH, ${byLabel.MEDIUM.toLocaleString("en")} MEDIUM, ${byLabel.LOW.toLocaleString("en")} LOW.`;
}

/**
 * `totals`: while only the newest proposals are loaded, the server's counts of the whole queue
 * (the rows at hand would understate it: "999 waiting" of 5,000).
 */
export const QueueHeader = memo(function QueueHeader({
  rows,
  totals,
  onHelp,
}: {
  rows: QueueRow[];
  totals?: { pendingActions: number; pendingByLabel: Record<Confidence, number> };
  onHelp: () => void;
}) {
  const fromRows = useMemo(() => summarize(rows), [rows]);
  const summary =
    totals && totals.pendingActions > 0
      ? `${plural(totals.pendingActions, "proposed change")} waiting for a decision: ${totals.pendingByLabel.HIGH.toLocaleString("en")} HIGH, ${totals.pendingByLabel.MEDIUM.toLocaleString("en")} MEDIUM, ${totals.pendingByLabel.LOW.toLocaleString("en")} LOW.`
      : fromRows;
  return (
    <header className="queue-header">
      <div className="page-heading">
        <h1>Review queue</h1>
        <p className="muted" data-testid="queue-summary">
          {summary} Nothing changes a graph until a person approves it.
        </p>
      </div>
      <dl className="label-legend" aria-label="What the labels mean">
        {CONFIDENCES.map((c) => (
          <div key={c}>
            <dt>
              <ConfidenceBadge confidence={c} />
            </dt>
            <dd>{CONFIDENCE_MEANING[c]}</dd>
          </div>
        ))}
      </dl>
      <button type="button" className="button button--small queue-header__keys" onClick={onHelp} data-testid="show-keys">
        <kbd>?</kbd> Keyboard shortcuts
      </button>
    </header>
  );
});
