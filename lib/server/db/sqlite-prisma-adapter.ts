/**
 * Prisma's SQLite driver adapter, made to share sqlite.ts's write path: its connection never
 * busy-waits (timeout 0), its transactions and autocommit writes take the process's writer lock
 * (the same one raw sql.ts transactions take), BEGIN IMMEDIATE and autocommit statements retry
 * SQLITE_BUSY from other processes after an async pause, and `$transaction` callbacks run
 * holding the lock, so a raw transaction opened inside one fails at once instead of hanging.
 */
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { acquireSqliteWriter, retryWhileBusy, withSqliteWriter } from "./sqlite";

type Adapter = Awaited<ReturnType<PrismaBetterSQLite3["connect"]>>;
type Transaction = Awaited<ReturnType<Adapter["startTransaction"]>>;
type Query = Parameters<Adapter["queryRaw"]>[0];

/** Statements that only read (Prisma sends SELECTs, and writes as INSERT/UPDATE/DELETE … RETURNING). */
function isRead(query: Query): boolean {
  return /^\s*(SELECT|WITH\b(?![\s\S]*\b(INSERT|UPDATE|DELETE)\b))/i.test(query.sql);
}

function wrapAdapter(adapter: Adapter): Adapter {
  const queryRaw = adapter.queryRaw.bind(adapter);
  const executeRaw = adapter.executeRaw.bind(adapter);
  const executeScript = adapter.executeScript.bind(adapter);
  const autocommit = <T>(query: Query, run: () => Promise<T>): Promise<T> =>
    isRead(query) ? retryWhileBusy(run) : withSqliteWriter("prisma", () => retryWhileBusy(run));
  const wrapped: Adapter = Object.create(adapter) as Adapter;
  Object.assign(wrapped, {
    queryRaw: (query: Query) => autocommit(query, () => queryRaw(query)),
    executeRaw: (query: Query) => autocommit(query, () => executeRaw(query)),
    async startTransaction(isolationLevel?: Parameters<Adapter["startTransaction"]>[0]): Promise<Transaction> {
      if (isolationLevel && isolationLevel !== "SERIALIZABLE") return adapter.startTransaction(isolationLevel);
      const release = await acquireSqliteWriter("prisma");
      try {
        // IMMEDIATE: take the write lock now, so no statement inside can meet SQLITE_BUSY.
        await retryWhileBusy(() => executeScript("BEGIN IMMEDIATE"));
      } catch (error) {
        release();
        throw error;
      }
      // Prisma sends COMMIT / ROLLBACK itself (usePhantomQuery: false), then calls these.
      const tx: Transaction = {
        provider: adapter.provider,
        adapterName: adapter.adapterName,
        options: { usePhantomQuery: false },
        queryRaw,
        executeRaw,
        commit: () => Promise.resolve(release()),
        rollback: () => Promise.resolve(release()),
      };
      return tx;
    },
  });
  return wrapped;
}

export function createSqlitePrismaAdapter(url: string): PrismaBetterSQLite3 {
  const factory = new PrismaBetterSQLite3({ url, timeout: 0 });
  const wrapped: PrismaBetterSQLite3 = Object.create(factory) as PrismaBetterSQLite3;
  wrapped.connect = async () => wrapAdapter(await factory.connect());
  return wrapped;
}

/** Make `$transaction` callbacks (and batches) run holding the writer lock (see the header). */
export function withSqliteWriterTransactions<C extends { $transaction: (...args: never[]) => unknown }>(client: C): C {
  const original = client.$transaction.bind(client) as (...args: unknown[]) => Promise<unknown>;
  (client as { $transaction: unknown }).$transaction = (...args: unknown[]) => withSqliteWriter("prisma", () => original(...args));
  return client;
}
