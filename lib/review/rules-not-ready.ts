/**
 * The reason a review gives when it ran before its version's graph rules were mined, apart from
 * review-actions.ts so that the browser can recognise it without loading the review.
 */

/** What marks such a review (the server reviews it again once the rules are mined). */
export const RULES_NOT_READY_MARK = "were still being mined when this was reviewed";

/**
 * Worded for a review that is stored and read later: the server reviews a pending action again
 * once the rules are mined (lib/server/proposals/re-review-after-mining.ts), which replaces it.
 */
export const RULES_NOT_READY = `the graph rules of this version ${RULES_NOT_READY_MARK}: no path-rule, signature or functional evidence (a pending action is reviewed again once they are mined)`;

/** Whether this review was made before its version's rules were mined (it gave that reason). */
export function madeWithoutRules(review: { readonly reasons: readonly string[] } | undefined): boolean {
  return review?.reasons.some((r) => r.includes(RULES_NOT_READY_MARK)) ?? false;
}
