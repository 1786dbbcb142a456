/**
 * The raw SQL interface behaves the same on both dialects (this file runs on whichever
 * REFINERY_TEST_DATABASE selects), and PostgreSQL migrates once when instances start together.
 */
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { containsInsensitive, getDb } from "./db";
import { findMigrationsDir } from "./migrate";
import { migratePostgres } from "./migrate-postgres";
import { getSql, isUniqueViolation, toPgPlaceholders } from "./sql";
import type { TestDatabase } from "./test-database";
import { testDialect, useTestDatabase } from "./test-database";

let db: TestDatabase;

beforeAll(async () => {
  db = await useTestDatabase("sql");
});

afterAll(async () => {
  await db.cleanup();
});

describe("SQL interface", () => {
  it.runIf(testDialect() === "postgres")("migrates once when two instances start at the same moment", async () => {
    // Distinct URLs for one database: separate pools and memos, as in two processes.
    const [a, b] = await Promise.all([migratePostgres(`${db.url}?application_name=a`), migratePostgres(`${db.url}?application_name=b`)]);
    const all = fs.readdirSync(findMigrationsDir(process.cwd(), "postgres"), { withFileTypes: true }).filter((d) => d.isDirectory()).length;
    expect(a.applied.length + b.applied.length).toBe(all);
    const rows = await getSql().query<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "_prisma_migrations"`);
    expect(rows).toEqual([{ n: all }]);
  });

  it("runs on the dialect the tests asked for", () => {
    expect(getSql().dialect).toBe(testDialect());
    expect(db.dialect).toBe(testDialect());
  });

  it("turns ? into $n outside quotes", () => {
    expect(toPgPlaceholders(`SELECT "a?" FROM t WHERE x = ? AND y = '?' AND z = ?`)).toBe(`SELECT "a?" FROM t WHERE x = $1 AND y = '?' AND z = $2`);
  });

  it("writes and reads camelCase columns, booleans, timestamps and counts the same way", async () => {
    const sql = getSql();
    const when = new Date("2026-01-02T03:04:05.678Z");
    await sql.execute(
      `INSERT INTO "Graph" ("id", "name", "format", "meta", "currentVersion", "createdAt", "updatedAt") VALUES (?, ?, 'triples', '{}', 1, ?, ?)`,
      ["g1", "one", when, when],
    );
    const rows = Array.from({ length: 12_345 }, (_, i) => ["g1", `q${i}`, `question ${i}`, "user", null, i % 2 === 0, i, when]);
    let reported = 0;
    await sql.insertMany("Question", ["graphId", "queryId", "text", "source", "answers", "refined", "ord", "createdAt"], rows, (n) => (reported += n));
    expect(reported).toBe(12_345);
    const counts = await sql.get<{ n: number; refined: number }>(
      `SELECT COUNT(*) AS "n", SUM(CASE WHEN "refined" THEN 1 ELSE 0 END) AS "refined" FROM "Question" WHERE "graphId" = ?`,
      ["g1"],
    );
    expect(counts).toEqual({ n: 12_345, refined: 6_173 });
    const graph = await sql.get<{ createdAt: string | Date; currentVersion: number }>(`SELECT "createdAt", "currentVersion" FROM "Graph" WHERE "id" = ?`, ["g1"]);
    expect(new Date(graph?.createdAt ?? 0).toISOString()).toBe(when.toISOString());
    expect(graph?.currentVersion).toBe(1);
  });

  it("bulk-inserts inside a transaction (COPY on PostgreSQL) with every value kept: tabs, newlines, backslashes, a literal \\N, nulls", async () => {
    const sql = getSql();
    const when = new Date("2026-03-04T05:06:07.089Z");
    await sql.execute(
      `INSERT INTO "Graph" ("id", "name", "format", "meta", "currentVersion", "createdAt", "updatedAt") VALUES (?, ?, 'triples', '{}', 1, ?, ?)`,
      ["g-copy", "copy", when, when],
    );
    const texts = ["tab\there", "line\nbreak\r\nend", "back\\slash \\N \\t", "\\N", "", "naïve 東京 🙂", "quote ' and \" and ,"];
    const rows = Array.from({ length: 5_001 }, (_, i) => ["g-copy", `q${i}`, texts[i % texts.length] as string, "user", i % 3 === 0 ? null : `a\t${i}`, i % 2 === 1, i, when]);
    // Taken first: the SQLite path converts booleans and dates in the row arrays it is given.
    const expected = rows.map((r) => [r[1], r[2], r[4], r[5], r[6], when.toISOString()]);
    await sql.transaction((tx) => tx.insertMany("Question", ["graphId", "queryId", "text", "source", "answers", "refined", "ord", "createdAt"], rows));
    const back = await sql.query<{ queryId: string; text: string; answers: string | null; refined: boolean | number; ord: number; createdAt: string | Date }>(
      `SELECT "queryId", "text", "answers", "refined", "ord", "createdAt" FROM "Question" WHERE "graphId" = ? ORDER BY "ord"`,
      ["g-copy"],
    );
    expect(back.map((r) => [r.queryId, r.text, r.answers, Boolean(r.refined), r.ord, new Date(r.createdAt).toISOString()])).toEqual(expected);
  });

  it("stores constant columns as bound ones would (quotes, dates, booleans) and refuses a row that differs", async () => {
    const sql = getSql();
    const when = new Date("2026-05-06T07:08:09.010Z");
    const graphId = "g-const 'quoted'";
    await sql.execute(
      `INSERT INTO "Graph" ("id", "name", "format", "meta", "currentVersion", "createdAt", "updatedAt") VALUES (?, ?, 'triples', '{}', 1, ?, ?)`,
      [graphId, "fixed-values", when, when],
    );
    const columns = ["graphId", "queryId", "text", "source", "answers", "refined", "ord", "createdAt"];
    const rows = Array.from({ length: 450 }, (_, i) => [graphId, `q${i}`, `it's ${i}`, "user", i % 2 ? null : "[1]", true, i, when]);
    const expected = rows.map((r) => [r[1], r[2], r[4], r[5], r[6], when.toISOString()]);
    await sql.transaction((tx) => tx.insertMany("Question", columns, rows, undefined, ["graphId", "refined", "createdAt"]));
    const back = await sql.query<{ queryId: string; text: string; answers: string | null; refined: boolean | number; ord: number; createdAt: string | Date }>(
      `SELECT "queryId", "text", "answers", "refined", "ord", "createdAt" FROM "Question" WHERE "graphId" = ? ORDER BY "ord"`,
      [graphId],
    );
    expect(back.map((r) => [r.queryId, r.text, r.answers, Boolean(r.refined), r.ord, new Date(r.createdAt).toISOString()])).toEqual(expected);
    if (sql.dialect === "sqlite") {
      const differing = [[graphId, "x0", "t", "user", null, true, 1000, when], ["g1", "x1", "t", "user", null, true, 1001, when]];
      await expect(sql.transaction((tx) => tx.insertMany("Question", columns, differing, undefined, ["graphId"]))).rejects.toThrow(/graphId is not the same/);
      expect(await sql.get(`SELECT COUNT(*) AS "n" FROM "Question" WHERE "queryId" LIKE 'x%'`)).toEqual({ n: 0 });
    }
  });

  it("finds text case-insensitively through Prisma on both dialects", async () => {
    const names = await getDb().graph.findMany({ where: { name: containsInsensitive("ON") }, select: { name: true } });
    expect(names).toEqual([{ name: "one" }]);
  });

  it("rolls a failed transaction back and reports unique violations by table and column", async () => {
    const sql = getSql();
    const error = await sql
      .transaction(async (tx) => {
        await tx.execute(`UPDATE "Graph" SET "currentVersion" = 2 WHERE "id" = ?`, ["g1"]);
        await tx.execute(`INSERT INTO "Graph" ("id", "name", "format", "meta", "updatedAt") VALUES ('g2', 'one', 'triples', '{}', ?)`, [new Date()]);
      })
      .catch((e: unknown) => e);
    expect(isUniqueViolation(error, "Graph", "name")).toBe(true);
    expect(isUniqueViolation(error, "Graph", "id")).toBe(false);
    expect(await sql.get(`SELECT "currentVersion" FROM "Graph" WHERE "id" = ?`, ["g1"])).toEqual({ currentVersion: 1 });
  });

  it("serialises writers: concurrent read-check-write transactions on one row never lose an update", async () => {
    const sql = getSql();
    await Promise.all(
      Array.from({ length: 8 }, () =>
        sql.transaction(async (tx) => {
          const row = await tx.get<{ v: number }>(`SELECT "currentVersion" AS "v" FROM "Graph" WHERE "id" = ?${tx.forUpdate}`, ["g1"]);
          await new Promise((r) => setTimeout(r, 5));
          await tx.execute(`UPDATE "Graph" SET "currentVersion" = ? WHERE "id" = ?`, [(row?.v ?? 0) + 1, "g1"]);
        }),
      ),
    );
    expect(await sql.get(`SELECT "currentVersion" FROM "Graph" WHERE "id" = ?`, ["g1"])).toEqual({ currentVersion: 9 });
  });
});
