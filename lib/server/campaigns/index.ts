/**
 * campaigns/ — refinement campaigns: iterations over a question set stored as they finish, kept
 * only when they improve the score (campaigns.ts), the best one becoming ONE proposal in the queue
 * (campaign-proposal.ts); the request shapes of its routes (campaigns-requests.ts).
 */
export * from "./campaigns-requests";
