import type { RunSummary } from "../api/run-types";
import { plural } from "@/lib/text/plural";

export type RunOutcomeKind = "running" | "failed" | "interrupted" | "answered" | "refined" | "proposed" | "nothing";

export interface RunOutcomeText {
  kind: RunOutcomeKind;
  /** The badge: "answered", "not answerable · 3 changes proposed". */
  label: string;
  /** One sentence under the question. */
  sentence: string;
}

/**
 * What a run came to, in the words a reviewer uses: whether the graph answered the question, and
 * if not, whether the run found something to change and whether a change was applied. The run's
 * stored status says how the loop ended; this says what that means for the question.
 */
export function describeRunOutcome(run: Pick<RunSummary, "status" | "answeredAt" | "actions" | "applied">): RunOutcomeText {
  if (run.status === "running") return { kind: "running", label: "running", sentence: "The loop is still retrieving and judging on the server." };
  if (run.status === "failed") return { kind: "failed", label: "failed", sentence: "The run stopped with an error; nothing was proposed." };
  if (run.status === "interrupted") return { kind: "interrupted", label: "interrupted", sentence: "The server stopped before the run finished; nothing was proposed." };
  const changes = plural(run.actions, "change");
  if (run.applied > 0) {
    return {
      kind: "refined",
      label: `refined · ${run.applied} of ${changes} applied`,
      sentence: `${run.answeredAt === null ? "The graph could not answer the question" : `Answerable at step ${run.answeredAt}`}; ${run.applied} of the ${changes} it proposed ${run.applied === 1 ? "was" : "were"} approved and applied.`,
    };
  }
  if (run.answeredAt !== null) {
    return {
      kind: "answered",
      label: run.actions > 0 ? `answered · ${changes} proposed` : "answered",
      sentence:
        run.actions > 0
          ? `The graph answers it at step ${run.answeredAt}; the run still proposes ${changes} for review.`
          : run.answeredAt === 1
            ? "The graph answers it at step 1: no refinement needed."
            : `The graph answers it at step ${run.answeredAt}; the run proposes no change.`,
    };
  }
  if (run.actions > 0) {
    return { kind: "proposed", label: `not answerable · ${changes} proposed`, sentence: `The graph could not answer it; the run proposes ${changes}, applied only when people approve.` };
  }
  return { kind: "nothing", label: "not answerable · nothing to propose", sentence: "The graph could not answer it, and the run found no change to propose." };
}
