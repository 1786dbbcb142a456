/**
 * The PostgreSQL schema is derived from the SQLite one, and each dialect's migrations must
 * reach the current models: edit prisma/schema.prisma, then `npm run db:migration -- <name>`.
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { buildPgSchema, PG_SCHEMA, SQLITE_SCHEMA } from "./pg-schema";
import { DIALECTS } from "./new-migration";

/** The models only: generator and datasource blocks and comments do not change the tables. */
function models(schema: string): string {
  return schema
    .replace(/^(generator|datasource) \w+ \{[^}]*\}/gm, "")
    .replace(/^\s*\/\/.*$/gm, "")
    .replace(/\n\s*\n/g, "\n")
    .trim();
}

describe("prisma/postgres/schema.prisma", () => {
  it("is up to date with prisma/schema.prisma (run `npm run db:schema`)", () => {
    expect(fs.readFileSync(PG_SCHEMA, "utf8")).toBe(buildPgSchema(fs.readFileSync(SQLITE_SCHEMA, "utf8")));
  });

  it("swaps only the provider, the url and the client's output", () => {
    const pgText = buildPgSchema(fs.readFileSync(SQLITE_SCHEMA, "utf8"));
    expect(pgText).toContain('provider = "postgresql"');
    expect(pgText).toContain('"../../lib/server/db/generated/prisma-pg"');
    expect(models(pgText)).toBe(models(fs.readFileSync(SQLITE_SCHEMA, "utf8")));
  });

  it.each(DIALECTS.map((d) => [d.name, d] as const))("%s migrations cover every model (run `npm run db:migration -- <name>`)", (_name, dialect) => {
    expect(fs.existsSync(dialect.snapshot)).toBe(true);
    expect(models(fs.readFileSync(dialect.snapshot, "utf8"))).toBe(models(fs.readFileSync(dialect.schema, "utf8")));
  });
});
