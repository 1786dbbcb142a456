/**
 * approvals/ — people deciding on proposals: approvals under the graph's policy, the only way a
 * graph changes (approvals.ts, approvals-apply.ts), vetoes and
 * withdrawals (approvals-veto.ts), a proposal's timeline and comments, and the request contracts of
 * the proposal routes (contract.ts).
 */
export * from "./contract";
export * from "./approvals-timeline";
export * from "./approvals-veto";
export * from "./approvals";
export { findApplyBlocker } from "./approvals-apply";
export * from "./comments";
