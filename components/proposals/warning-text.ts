import type { ReviewWarning } from "../api/proposal-types";

type WarningCode = ReviewWarning["code"];

/**
 * The one place a review warning's code becomes words. The code stays a machine's key (tests,
 * the API, `data-code`); a person reads the sentence and the review's own explanation after it.
 */
export const WARNING_SENTENCE: Record<WarningCode, string> = {
  UNPARSEABLE: "The action could not be read.",
  UNKNOWN_ENTITY: "A name in it is not in the graph.",
  AMBIGUOUS_NAME: "A name in it matches several nodes.",
  GENERIC_NAME: "A name in it is too common to point at one thing.",
  GENERIC_OBJECT: "Its object is a placeholder, not a thing.",
  EDGE_EXISTS: "The graph already has this link.",
  PARALLEL_RELATION: "The two nodes are already linked.",
  CROSS_COMMUNITY_NO_PATH: "The two nodes are far apart in the graph.",
  DELETE_MISSING: "There is no such link to remove.",
  MERGE_EXISTING: "Both names are existing nodes, so this merges them.",
  SELF_LOOP: "Both ends are the same node.",
  OUTSIDE_RETRIEVED: "The run never looked at these nodes.",
  RULES_NOT_MINED: "The graph is too large to mine rules: reviewed from the nodes' neighbourhood only.",
};

/** The sentence for a code from anywhere (a queue row's string); an unknown code gets a plain one. */
export function warningSentence(code: string): string {
  return (WARNING_SENTENCE as Record<string, string | undefined>)[code] ?? "The review has a concern.";
}

/** Warnings that force LOW whatever the score. */
const BLOCKING: ReadonlySet<WarningCode> = new Set(["UNPARSEABLE", "UNKNOWN_ENTITY", "AMBIGUOUS_NAME", "GENERIC_NAME", "GENERIC_OBJECT", "CROSS_COMMUNITY_NO_PATH", "DELETE_MISSING", "SELF_LOOP"]);

export function isBlockingWarning(code: WarningCode): boolean {
  return BLOCKING.has(code);
}

/** The review's explanation as a sentence: capital first letter, a full stop at the end. */
export function asSentence(text: string): string {
  const t = text.trim();
  if (t === "") return "";
  const first = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?…)]$/.test(first) ? first : `${first}.`;
}
