/** Words and small helpers the Ask components share. */
import type { AskRowStatus, AskToolCall, PlanStep } from "../api/ask-types";

export const ASK_STATUS_LABEL: Record<AskRowStatus, string> = {
  running: "Running",
  answered: "Answered",
  no_answer: "No answer",
  failed: "Failed",
  interrupted: "Interrupted",
};

export const ASK_STATUS_HINT: Record<AskRowStatus, string> = {
  running: "Planning and searching the graph.",
  answered: "The plan reached an answer.",
  no_answer: "The plan ran but neither the graph nor the corpus gave an answer.",
  failed: "The ask stopped with an error.",
  interrupted: "The server stopped before the ask finished.",
};

export const TOOL_LABEL: Record<AskToolCall["tool"], string> = {
  relation_search: "relation search",
  neighbor_search: "neighbour search",
  web_search: "corpus search",
};

export const VIA_LABEL = { graph: "from the graph", corpus: "from a passage", model: "the model's words" } as const;

/** The plan step as the seed writes it: `Ans2 = SearchKG(t=person | h=Ans1, r=directed by)`. */
export function formatPlanStep(step: PlanStep): string {
  if (step.op === "search") {
    const head = "entity" in step.head ? step.head.entity : step.head.ref;
    return `SearchKG(t=${step.targetType} | h=${head}, r=${step.relation})`;
  }
  if (step.op === "negation") return `Negation(${[step.main, ...step.args].join(", ")})`;
  return `${step.op === "intersect" ? "Intersect" : "Union"}(${step.args.join(", ")})`;
}

/** The steps a plan step builds on (its children in the tree). */
export function planChildren(step: PlanStep): string[] {
  if (step.op === "search") return "ref" in step.head ? [step.head.ref] : [];
  if (step.op === "negation") return [step.main, ...step.args];
  return step.args;
}

export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
