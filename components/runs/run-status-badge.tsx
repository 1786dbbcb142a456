import type { RunStatus } from "../api/run-types";
import { STATUS_HINT, STATUS_LABEL, providerLabel } from "./run-format";

/** Colour and text both carry the status, so it reads without colour vision too. */
export function RunStatusBadge({ status }: { status: RunStatus }) {
  return (
    <span className={`status status--${status}`} data-testid="run-status" data-status={status} title={STATUS_HINT[status]}>
      <span className="status__dot" aria-hidden="true" />
      {STATUS_LABEL[status]}
    </span>
  );
}

/** The provider of a run, with the reminder that the heuristic one is not a language model. */
export function ProviderNote({ provider, model, isLlm }: { provider: string; model: string; isLlm: boolean }) {
  return (
    <span className="provider-note">
      <span className="mono">{providerLabel({ provider, model })}</span>
      {isLlm ? null : <span className="not-llm">not an LLM</span>}
    </span>
  );
}
