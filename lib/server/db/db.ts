/**
 * The one Prisma client of a process (server, CLI or test), memoised per database URL.
 * DATABASE_URL picks the dialect: `file:` is SQLite (created and migrated on first use),
 * `postgresql://` is PostgreSQL (migrated before Prisma's first connection). Server-only:
 * never import from components/ or lib/ outside lib/server/.
 */
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/prisma/client";
import { PrismaClient as PgPrismaClient } from "./generated/prisma-pg/client";
import { dialectOf, resolveDatabaseUrl } from "./database-url";
import { migrateSqlite } from "./migrate";
import { migratePostgres } from "./migrate-postgres";
import { createSqlitePrismaAdapter, withSqliteWriterTransactions } from "./sqlite-prisma-adapter";

export type Db = PrismaClient;

const globalForPrisma = globalThis as unknown as { refineryPrisma?: { url: string; client: PrismaClient } };

export function getDb(url = resolveDatabaseUrl()): PrismaClient {
  const cached = globalForPrisma.refineryPrisma;
  if (cached && cached.url === url) return cached.client;
  const client = dialectOf(url) === "postgres" ? createPgClient(url) : createSqliteClient(url);
  globalForPrisma.refineryPrisma = { url, client };
  return client;
}

function createSqliteClient(url: string): PrismaClient {
  migrateSqlite(url);
  // Shares sqlite.ts's writer lock and async busy retry: no synchronous busy wait on the event loop.
  return withSqliteWriterTransactions(new PrismaClient({ adapter: createSqlitePrismaAdapter(url) }));
}

function createPgClient(url: string): PrismaClient {
  const factory = new PrismaPg({ connectionString: url, max: Number(process.env.REFINERY_PG_POOL_SIZE ?? 5) });
  // Prisma connects lazily through the factory: migrating there keeps getDb() synchronous.
  const migrating: PrismaPg = Object.create(factory) as PrismaPg;
  migrating.connect = async () => {
    await migratePostgres(url);
    return factory.connect();
  };
  // Both clients are generated from the same models (prisma/postgres/schema.prisma is derived
  // from prisma/schema.prisma), so their model APIs agree; the generated types differ only in
  // provider-specific extras (e.g. `mode: "insensitive"`), which callers must not rely on.
  return new PgPrismaClient({ adapter: migrating }) as unknown as PrismaClient;
}

/**
 * A case-insensitive `contains` filter on either dialect: SQLite's LIKE already ignores ASCII
 * case, PostgreSQL needs `mode: "insensitive"` (which the SQLite client's types do not know).
 */
export function containsInsensitive(value: string, url = resolveDatabaseUrl()): { contains: string } {
  return dialectOf(url) === "postgres" ? ({ contains: value, mode: "insensitive" } as { contains: string }) : { contains: value };
}

// In close.ts, which loads no Prisma: a process that never made a client closes without loading one.
export { disconnectDb } from "./close";
