/**
 * The row lock every decision on an action takes before it reads what it decides on. Under
 * PostgreSQL's READ COMMITTED, a read without it lets an edit, a veto or a second click of the
 * same person land between the check and the write (an approval counted for text nobody saw, a
 * veto and an approval both active, one person's approval stored twenty times). Locked
 * `FOR UPDATE` in index order, they queue behind each other on the action rows instead, and
 * each statement after the lock sees what the one before it committed.
 *
 * SQLite needs no lock: Prisma's SQLite adapter runs one interactive transaction at a time.
 */
import { dialectOf, resolveDatabaseUrl } from "./database-url";
import type { Prisma } from "./generated/prisma/client";

export async function lockActionRows(tx: Prisma.TransactionClient, proposalId: string, indexes: readonly number[]): Promise<void> {
  if (dialectOf(resolveDatabaseUrl()) !== "postgres") return;
  for (const index of [...new Set(indexes)].sort((a, b) => a - b)) {
    await tx.$queryRawUnsafe(`SELECT "id" FROM "ProposalAction" WHERE "proposalId" = $1 AND "index" = $2 FOR UPDATE`, proposalId, index);
  }
}

/**
 * Options for a transaction that takes these locks: behind twenty clicks on one action a
 * request may queue for a while, longer than Prisma's default 2 s wait and 5 s run time.
 */
export const LOCKING_TRANSACTION = { maxWait: 15_000, timeout: 30_000 } as const;
