import type { ActionStatus } from "../api/proposal-types";

const LABEL: Record<ActionStatus, string> = {
  pending: "pending",
  applied: "applied",
  rejected: "rejected",
  skipped: "skipped",
  reverted: "undone",
};

const HINT: Record<ActionStatus, string> = {
  pending: "Waiting for a person's decision.",
  applied: "Approved and applied to the graph.",
  rejected: "Rejected: it will never be applied.",
  skipped: "Approved, but the graph already said this: nothing changed.",
  reverted: "Applied, then undone.",
};

export function ActionStatusBadge({ status, version }: { status: ActionStatus; version?: number | null }) {
  return (
    <span className={`astatus astatus--${status}`} title={HINT[status]} data-testid="action-status" data-status={status}>
      {LABEL[status]}
      {version && (status === "applied" || status === "skipped") ? ` in v${version}` : ""}
      {version && status === "reverted" ? ` (was applied in v${version})` : ""}
    </span>
  );
}
