/**
 * The one Prisma client of a process (server, CLI or test), memoised per database URL.
 * The database file is created and migrated on first use. Server-only: never import from
 * components/ or lib/ outside lib/server/.
 */
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "./generated/prisma/client";
import { resolveDatabaseUrl } from "./database-url";
import { migrateSqlite } from "./migrate";

export type Db = PrismaClient;

const globalForPrisma = globalThis as unknown as { refineryPrisma?: { url: string; client: PrismaClient } };

export function getDb(url = resolveDatabaseUrl()): PrismaClient {
  const cached = globalForPrisma.refineryPrisma;
  if (cached && cached.url === url) return cached.client;
  migrateSqlite(url);
  const client = new PrismaClient({ adapter: new PrismaBetterSQLite3({ url }) });
  globalForPrisma.refineryPrisma = { url, client };
  return client;
}

export async function disconnectDb(): Promise<void> {
  const cached = globalForPrisma.refineryPrisma;
  if (cached) {
    globalForPrisma.refineryPrisma = undefined;
    await cached.client.$disconnect();
  }
}
