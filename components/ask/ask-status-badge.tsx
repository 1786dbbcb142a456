import type { AskRowStatus } from "../api/ask-types";
import { ASK_STATUS_HINT, ASK_STATUS_LABEL } from "./ask-format";

/** Status in words and colour; reuses the run badges' colours (answered reads as finished). */
const TONE: Record<AskRowStatus, string> = {
  running: "running",
  answered: "finished",
  no_answer: "awaiting_review",
  failed: "failed",
  interrupted: "interrupted",
};

export function AskStatusBadge({ status }: { status: AskRowStatus }) {
  return (
    <span className={`status status--${TONE[status]}`} data-testid="ask-status" data-status={status} title={ASK_STATUS_HINT[status]}>
      <span className="status__dot" aria-hidden="true" />
      {ASK_STATUS_LABEL[status]}
    </span>
  );
}
