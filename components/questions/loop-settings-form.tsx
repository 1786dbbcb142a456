"use client";

import type { Step1Retrieval } from "../api/ask-types";
import { useLoopSettings, useUpdateLoopSettings } from "../api/asks";
import { useCan } from "../auth/session-context";
import { Spinner } from "../ui/states";

const CHOICES: Array<{ value: Step1Retrieval; label: string; hint: string }> = [
  { value: "graphify_query", label: "Keyword query", hint: "graphify-style: nodes matching the question's words and their edges" },
  { value: "graph_rft_plan", label: "Planned retrieval", hint: "the Ask plan's subgraph: relations chosen for the question, chains to the answer first" },
];

/** How this graph's loop retrieves at step 1 (admins change it; everyone sees it). */
export function LoopSettingsForm({ graphName }: { graphName: string }) {
  const settings = useLoopSettings(graphName);
  const update = useUpdateLoopSettings(graphName);
  const canChange = useCan("admin");
  if (settings.isPending) return <p className="muted small">Loading…</p>;
  if (settings.isError) return <p className="inline-error">Could not load the loop settings: {settings.error.message}</p>;
  const current = update.isPending && update.variables ? update.variables : settings.data.step1Retrieval;
  return (
    <fieldset className="form loop-settings" disabled={!canChange || update.isPending} data-testid="loop-settings">
      <legend className="sr-only">Step 1 retrieval</legend>
      {CHOICES.map((c) => (
        <label key={c.value} className="checkbox loop-settings__choice">
          <input type="radio" name="step1Retrieval" value={c.value} checked={current === c.value} onChange={() => update.mutate(c.value)} />
          <span>
            <strong>{c.label}</strong> <span className="muted small">— {c.hint}</span>
          </span>
        </label>
      ))}
      <p className="hint">
        {update.isPending ? <Spinner size={12} /> : null}
        {canChange ? "Applies to the next runs; later steps always expand hop by hop." : "Only admins change this."}
      </p>
      {update.error ? (
        <p className="inline-error" role="alert">
          Could not save: {update.error.message}
        </p>
      ) : null}
    </fieldset>
  );
}
