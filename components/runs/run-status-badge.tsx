import type { RunSummary } from "../api/run-types";
import { providerLabel } from "./run-format";
import { describeRunOutcome } from "./run-outcome-text";

/**
 * What the run came to ("answered", "not answerable · 3 changes proposed"); colour and text both
 * carry it, so it reads without colour vision too. `data-status` keeps the loop's own status.
 */
export function RunStatusBadge({ run }: { run: Pick<RunSummary, "status" | "answeredAt" | "actions" | "applied"> }) {
  const outcome = describeRunOutcome(run);
  return (
    <span className={`status status--${outcome.kind}`} data-testid="run-status" data-status={run.status} data-outcome={outcome.kind} title={outcome.sentence}>
      <span className="status__dot" aria-hidden="true" />
      {outcome.label}
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
