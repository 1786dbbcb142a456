/**
 * Runs work with an environment variable set, and puts the old value back (or removes it)
 * afterwards, whether the work succeeds or throws. The SQL-retrieval tests compare the same call
 * with `REFINERY_SQL_RETRIEVAL_EDGES` on and off (`withSqlRetrieval`).
 */
export async function withEnv<T>(name: string, value: string, work: () => Promise<T>): Promise<T> {
  const saved = process.env[name];
  process.env[name] = value;
  try {
    return await work();
  } finally {
    if (saved === undefined) delete process.env[name];
    else process.env[name] = saved;
  }
}

/** `REFINERY_SQL_RETRIEVAL_EDGES` for the work: "1" serves every graph through SQL (on PostgreSQL), "0" never. */
export function withSqlRetrieval<T>(value: string, work: () => Promise<T>): Promise<T> {
  return withEnv("REFINERY_SQL_RETRIEVAL_EDGES", value, work);
}
