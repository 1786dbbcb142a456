/**
 * runs/ — the hop loop on the server: the question queue (questions.ts), runs stored step by step
 * (runs.ts) and launched in the background (run-launcher.ts) under a lease that another process
 * can take over (leases.ts), pushed to the browser as events (run-events.ts, stream-run-events.ts),
 * per-graph loop settings, the planned step 1 (plan-retrieval.ts) and the answer a step gives.
 */
export * from "./leases";
export * from "./loop-settings";
export * from "./questions";
export * from "./run-events";
export * from "./run-launcher";
export * from "./runs";
export * from "./step-answer";
export * from "./contract";
