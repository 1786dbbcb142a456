import Link from "next/link";
import type { ActionStatus } from "../api/proposal-types";

const LABEL: Record<ActionStatus, string> = {
  pending: "pending",
  applied: "applied",
  rejected: "rejected",
  skipped: "skipped",
  reverted: "undone",
  obsolete: "obsolete",
};

const HINT: Record<ActionStatus, string> = {
  pending: "Waiting for a person's decision.",
  applied: "Approved and applied to the graph.",
  rejected: "Rejected: it will never be applied.",
  skipped: "Approved, but the graph already said this: nothing changed.",
  reverted: "Applied, then undone.",
  obsolete: "A later version made it moot (a copy of it was applied, or the graph already says it): nothing to decide.",
};

/** `graph` and `reason`: an obsolete action links to the version that made it moot and says why. */
export function ActionStatusBadge({ status, version, graph, reason }: { status: ActionStatus; version?: number | null; graph?: string; reason?: string | null }) {
  if (status === "obsolete" && version && graph) {
    return (
      <span className="astatus astatus--obsolete" title={reason ?? HINT.obsolete} data-testid="action-status" data-status={status}>
        obsolete since{" "}
        <Link href={`/graphs/${encodeURIComponent(graph)}/versions/${version}`} prefetch={false} data-testid="obsolete-version">
          v{version}
        </Link>
      </span>
    );
  }
  return (
    <span className={`astatus astatus--${status}`} title={HINT[status]} data-testid="action-status" data-status={status}>
      {LABEL[status]}
      {version && (status === "applied" || status === "skipped") ? ` in v${version}` : ""}
      {version && status === "obsolete" ? ` since v${version}` : ""}
      {version && status === "reverted" ? ` (was applied in v${version})` : ""}
    </span>
  );
}
