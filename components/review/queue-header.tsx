import type { Confidence } from "../api/proposal-types";
import { CONFIDENCES } from "../api/proposal-types";
import { CONFIDENCE_MEANING } from "../proposals/confidence";
import { ConfidenceBadge } from "../proposals/confidence-badge";
import type { QueueRow } from "./queue-rows";

export function QueueHeader({ rows, onHelp }: { rows: QueueRow[]; onHelp: () => void }) {
  const pending = rows.filter((r) => r.status === "pending");
  const proposals = new Set(pending.flatMap((r) => r.sources.map((s) => s.proposalId))).size;
  const graphs = new Set(pending.map((r) => r.graph)).size;
  const byLabel: Record<Confidence, number> = { HIGH: 0, MEDIUM: 0, LOW: 0 };
  for (const r of pending) byLabel[r.confidence]++;
  return (
    <header className="queue-header">
      <div className="page-heading">
        <h1>Review queue</h1>
        <p className="muted" data-testid="queue-summary">
          {pending.length === 0
            ? "No action is waiting for a decision."
            : `${pending.length} proposed change${pending.length === 1 ? "" : "s"} waiting for a decision, in ${proposals} proposal${proposals === 1 ? "" : "s"} across ${graphs} graph${graphs === 1 ? "" : "s"}: ${byLabel.HIGH} HIGH, ${byLabel.MEDIUM} MEDIUM, ${byLabel.LOW} LOW.`}{" "}
          Nothing changes a graph until a person approves it.
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
}
