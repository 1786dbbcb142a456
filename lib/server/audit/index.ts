/**
 * audit/ — the audit log: the vocabulary of actions (audit-actions.ts), writing one event inside
 * the transaction that makes the change (audit.ts through Prisma, audit-sql.ts through raw SQL),
 * reading it back in keyset pages with filters (find-audit-events.ts, find-audit-facets.ts) and
 * the streamed JSONL export (export-audit-events.ts).
 */
export * from "./audit-sql";
export * from "./audit";
export * from "./contract";
