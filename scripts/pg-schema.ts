/**
 * prisma/postgres/schema.prisma is generated from prisma/schema.prisma: the same models, with
 * only the datasource provider/url and the client's output folder swapped. Edit the SQLite
 * schema, then run `npm run db:schema` (or `npm run db:migration -- <name>` to also write the
 * next migration of both dialects). `scripts/pg-schema.test.ts` fails when this file is stale.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const SQLITE_SCHEMA = path.join(ROOT, "prisma", "schema.prisma");
export const PG_SCHEMA = path.join(ROOT, "prisma", "postgres", "schema.prisma");

const HEADER = `// GENERATED from ../schema.prisma by scripts/pg-schema.ts (npm run db:schema): do not edit.\n\n`;

function replaceOnce(text: string, pattern: RegExp, replacement: string, what: string): string {
  if (!pattern.test(text)) throw new Error(`prisma/schema.prisma: cannot find ${what}`);
  return text.replace(pattern, replacement);
}

/** The PostgreSQL schema text for a SQLite schema text. */
export function buildPgSchema(sqlite: string): string {
  let out = replaceOnce(sqlite, /(generator client \{[^}]*?output\s*=\s*)"[^"]*"/, `$1"../../lib/server/db/generated/prisma-pg"`, "the client generator's output");
  out = replaceOnce(out, /(datasource db \{[^}]*?provider\s*=\s*)"sqlite"/, `$1"postgresql"`, 'datasource provider "sqlite"');
  // A literal url keeps `prisma generate` from looking for engines; the app passes DATABASE_URL to the adapter.
  out = replaceOnce(out, /(datasource db \{[^}]*?url\s*=\s*)"[^"]*"/, `$1"postgresql://localhost:5432/refinery"`, "datasource url");
  return HEADER + out;
}

export function writePgSchema(): boolean {
  const next = buildPgSchema(fs.readFileSync(SQLITE_SCHEMA, "utf8"));
  const current = fs.existsSync(PG_SCHEMA) ? fs.readFileSync(PG_SCHEMA, "utf8") : null;
  if (current === next) return false;
  fs.mkdirSync(path.dirname(PG_SCHEMA), { recursive: true });
  fs.writeFileSync(PG_SCHEMA, next);
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const changed = writePgSchema();
  console.log(`${path.relative(process.cwd(), PG_SCHEMA)} ${changed ? "updated" : "up to date"}`);
}
