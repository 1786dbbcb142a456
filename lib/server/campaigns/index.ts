/**
 * campaigns/ — refinement campaigns: iterations over a question set stored as they finish, kept
 * only when they improve the score (campaigns.ts), the best one becoming ONE proposal in the queue
 * (campaign-proposal.ts); the request contracts of its routes (contract.ts).
 */
export * from "./contract";
