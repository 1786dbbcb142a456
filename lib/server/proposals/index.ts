/**
 * proposals/ — proposed changes and the versions they make: proposals with their reviewed actions
 * (proposals.ts: create, review, preview, apply), changesets committed as graph versions, reverted
 * and diffed (changesets.ts), obsolete actions, the queue's pages (find-proposal-page.ts), LLM
 * verification of reviews, calibration of the review thresholds, and mined graph rules per version.
 */
export * from "./changesets";
export * from "./find-proposal-page";
export * from "./graph-rules-cache";
export * from "./proposals";
export { reReviewWithoutRules, scheduleReReview } from "./re-review-after-mining";
export * from "./review-calibration";
export * from "./submit-proposal";
export * from "./contract";
export * from "./queue-proposals";
export { reviewOverSql } from "./sql-review";
