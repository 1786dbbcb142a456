/**
 * The raw `pg` connection pool of a process (beside Prisma's own), memoised per URL. The
 * database itself must exist; its tables are migrated before first use (migrate-postgres.ts).
 */
import pg from "pg";

const INT8_OID = 20;
const TIMESTAMP_OID = 1114;

const globalForPg = globalThis as unknown as { refineryPgPools?: Map<string, pg.Pool> };
const pools = (globalForPg.refineryPgPools ??= new Map<string, pg.Pool>());

/**
 * COUNT(*) and other bigint results come back as JS numbers (graph sizes stay far below 2^53).
 * Prisma stores DateTime as `timestamp(3)` without zone, in UTC: read it as UTC, not local time.
 */
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => {
    if (oid === INT8_OID) return (v: string) => Number(v);
    if (oid === TIMESTAMP_OID) return (v: string) => new Date(`${v.replace(" ", "T")}Z`);
    return pg.types.getTypeParser(oid, format) as (v: string) => unknown;
  }) as typeof pg.types.getTypeParser,
};

export function getPgPool(url: string): pg.Pool {
  let pool = pools.get(url);
  if (!pool) {
    // JIT off: these are short indexed statements, and when a plan's estimated cost passes
    // jit_above_cost (a substring lookup expecting thousands of rows) PostgreSQL spends
    // 0.3-0.5 s compiling it, more than the statement itself (SQL retrieval at 10M edges).
    pool = new pg.Pool({ connectionString: url, max: Number(process.env.REFINERY_PG_POOL_SIZE ?? 5), types, options: "-c jit=off" });
    // An idle client losing its connection (server restart) must not crash the process.
    pool.on("error", () => undefined);
    pools.set(url, pool);
  }
  return pool;
}

export async function closePgPools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((p) => p.end().catch(() => undefined)));
}
