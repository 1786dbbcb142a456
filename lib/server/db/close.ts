/**
 * Closing a process's database connections without loading what it never used: a CLI command
 * that read only through sql.ts (`refinery query`) must not load Prisma's client at exit just to
 * learn that there is none to close. db.ts keeps its client on `globalThis.refineryPrisma`.
 */
import { closeSql } from "./sql";

const globalForPrisma = globalThis as unknown as { refineryPrisma?: { url: string; client: { $disconnect(): Promise<void> } } };

/** Close the Prisma client (if one was made) and the raw SQL connections (a PostgreSQL pool keeps a process alive). */
export async function disconnectDb(): Promise<void> {
  const cached = globalForPrisma.refineryPrisma;
  if (cached) {
    globalForPrisma.refineryPrisma = undefined;
    await cached.client.$disconnect();
  }
  await closeSql();
}
