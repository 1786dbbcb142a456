/**
 * policies/ — what a graph's approval policy says (policies.ts), where each action stands under it
 * (action-decisions.ts), and whether an approval still holds after the graph moved on
 * (stale-approvals.ts). Below proposals/ and approvals/, which both ask it.
 */
export * from "./action-decisions";
export * from "./policies";
export * from "./stale-approvals";
export * from "./contract";
