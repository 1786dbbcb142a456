/**
 * Version figures at what a version changed (PostgreSQL, sql-version-figures.ts): after random
 * commits and reverts, each new version's figures — derived from the previous version's and its
 * changeset, some of them over a chain of versions nobody queried — equal a whole pass over its
 * rows; every node's degree read from `NodeDegree` (base rows plus changed nodes' rows) equals
 * its counted degree without falling back to counting; SQL retrieval and the explorer's hubs
 * still equal the in-memory answers; and only the first version took a whole pass. A delta
 * missing one op is caught by the same comparison. Skipped on SQLite.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAppError } from "../../errors";
import { queryGraph } from "../../retrieve/query-graph";
import { expandHops } from "../../retrieve/expand-hops";
import { dataPath } from "../../test/data";
import { planRandom, randomSource } from "../../test/random-changesets";
import { getPgPool } from "../db/pg-pool";
import { resolveDatabaseUrl } from "../db/database-url";
import type { TestDatabase } from "../db/test-database";
import { testDialect, useTestDatabase } from "../db/test-database";
import { withSqlRetrieval } from "../db/with-env";
import { commitChangeset, revertVersion } from "../proposals";
import { parseChangeset } from "../../changes/changeset";
import { findHubNodes } from "./explore-graph";
import { getGraphRecord, loadGraph } from "./graph-store";
import { importGraphFromPath } from "./import-graph";
import { sqlExpandHops, sqlQueryGraph } from "./sql-retrieval";
import type { SqlGraphSource } from "./sql-retrieval";
import { applyDelta, countedDegreeSql, touchedFigures, versionFigureStats, versionFiguresOf, wholePass } from "./sql-version-figures";

const pg = testDialect() === "postgres";

async function rows(text: string, values: unknown[]): Promise<unknown[][]> {
  return (await getPgPool(resolveDatabaseUrl()).query({ text, values, rowMode: "array" })).rows as unknown[][];
}

async function sourceOf(name: string): Promise<SqlGraphSource> {
  const record = await getGraphRecord(name);
  return { graphId: record.id, version: record.currentVersion, sourcePath: record.sourcePath, meta: record.meta };
}

/** Each live node's degree at the version: its newest NodeDegree row in [base, version] (no fallback) and counted. */
async function degreesOf(source: SqlGraphSource, base: number): Promise<{ mismatched: unknown[][]; nodes: number; rowsAtVersion: number }> {
  const all = await rows(
    `SELECT n."nodeId", COALESCE((SELECT d."degree" FROM "NodeDegree" d WHERE d."graphId" = n."graphId" AND d."nodeId" = n."nodeId" AND d."version" <= $2 AND d."version" >= $3 ORDER BY d."version" DESC LIMIT 1), 0) AS tabled,
       ${countedDegreeSql()} AS counted
     FROM "Node" n WHERE n."graphId" = $1 AND n."validFrom" <= $2 AND (n."validTo" IS NULL OR n."validTo" > $2)`,
    [source.graphId, source.version, base],
  );
  const [at] = await rows(`SELECT COUNT(*) FROM "NodeDegree" WHERE "graphId" = $1 AND "version" = $2`, [source.graphId, source.version]);
  return { mismatched: all.filter((r) => Number(r[1]) !== Number(r[2])), nodes: all.length, rowsAtVersion: Number(at?.[0] ?? 0) };
}

describe.skipIf(!pg)("version figures derived from changesets", () => {
  let db: TestDatabase | undefined;
  beforeAll(async () => {
    db = await useTestDatabase("version-figures");
    await importGraphFromPath({ path: dataPath("graphify", "httpx"), name: "httpx" });
    await importGraphFromPath({ path: dataPath("countries_S1", "graph.txt"), name: "countries" });
  }, 600_000);
  afterAll(async () => {
    await db?.cleanup();
  });

  for (const name of ["httpx", "countries"]) {
    it(`equal a whole pass after random commits and reverts on ${name}, with retrieval equal to memory`, async () => {
      const random = randomSource(name.length * 104_729);
      const first = await sourceOf(name);
      await withSqlRetrieval("1", () => sqlQueryGraph(first, { question: "what is it", limit: 10 }));
      const stats = { ...versionFigureStats };
      let reverts = 0;
      let queried = 0;
      for (let round = 0; round < 14; round++) {
        const held = await withSqlRetrieval("0", () => loadGraph(name));
        if (round > 2 && random(3) === 0) {
          try {
            await withSqlRetrieval("0", () => revertVersion({ graph: name, version: 2 + random(held.version - 1) }));
            reverts++;
          } catch (error) {
            if (!isAppError(error) || error.code !== "CONFLICT") throw error;
          }
        } else {
          const edgeKeyPrefix = `v${held.version + 1}.`;
          const changeset = planRandom(held.graph, random, round, edgeKeyPrefix);
          await withSqlRetrieval("0", () => commitChangeset({ graph: name, baseVersion: held.version, changeset, kind: "apply", message: `Random ${round}.`, edgeKeyPrefix }));
        }
        // Some versions are never queried: the next query derives over the chain of them.
        if (round % 3 === 1) continue;
        queried++;
        const source = await sourceOf(name);
        const { graph } = await withSqlRetrieval("0", () => loadGraph(name));
        const nodes = [...graph.nodes.values()];
        const questions = ["how does Client send a request", ...[0, 1, 2].map(() => `what is ${nodes[random(nodes.length)]?.label ?? "x"}`)];
        for (const question of questions) {
          const sql = await withSqlRetrieval("1", () => sqlQueryGraph(source, { question, limit: 15 }));
          expect(sql.result, question).toEqual(queryGraph({ graph, question, limit: 15 }));
          const entities = sql.result.seeds.map((s) => s.id).slice(0, 3);
          if (entities.length > 0) expect((await sqlExpandHops(source, { entities, question, cap: 10 })).result, question).toEqual(expandHops({ graph, entities, question, cap: 10 }));
        }
        expect(await withSqlRetrieval("1", () => findHubNodes({ name, limit: 25 }))).toEqual(await withSqlRetrieval("0", () => findHubNodes({ name, limit: 25 })));
        const known = await versionFiguresOf(source.graphId, source.version);
        expect(known.figures).toEqual((await wholePass(source.graphId, source.version, { store: false })).figures);
        expect(known.figures.nodeCount).toBe(graph.nodes.size);
        expect(known.degreeBase).not.toBeNull();
        const degrees = await degreesOf(source, known.degreeBase as number);
        expect(degrees.mismatched).toEqual([]);
        // Only the changed nodes' degrees are written per version, not every node's.
        expect(degrees.rowsAtVersion).toBeLessThan(degrees.nodes / 4);
      }
      expect(reverts).toBeGreaterThan(0);
      expect(queried).toBeGreaterThan(5);
      // One whole pass (version 1, before the loop), every later version derived, one base of degrees.
      expect(versionFigureStats.wholePasses).toBe(stats.wholePasses);
      const last = await sourceOf(name);
      await withSqlRetrieval("1", () => sqlQueryGraph(last, { question: "what is it", limit: 10 }));
      expect(versionFigureStats.derived - stats.derived).toBe(last.version - first.version);
      expect(versionFigureStats.fullDegrees).toBe(stats.fullDegrees);
    }, 600_000);
  }

  it("catches a delta that misses one op", async () => {
    const current = await sourceOf("httpx");
    // The newest version whose ops add or remove something.
    const [changeset] = await rows(
      `SELECT "version", "ops" FROM "Changeset" WHERE "graphId" = $1 AND ("ops" LIKE '%"add_edge"%' OR "ops" LIKE '%"remove_edge"%') ORDER BY "version" DESC LIMIT 1`,
      [current.graphId],
    );
    const source = { ...current, version: Number(changeset?.[0]) };
    const ops = parseChangeset(changeset?.[1] as string).ops;
    const previous = await versionFiguresOf(source.graphId, source.version - 1);
    const whole = (await wholePass(source.graphId, source.version, { store: false })).figures;
    expect(applyDelta(previous.figures, await touchedFigures(source.graphId, source.version, ops))).toEqual(whole);
    // Each op that changes a figure, skipped, gives other figures.
    let caught = 0;
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i];
      if (!op || !["add_edge", "remove_edge", "add_node", "remove_node"].includes(op.op)) continue;
      const skipped = applyDelta(previous.figures, await touchedFigures(source.graphId, source.version, ops.filter((_, j) => j !== i)));
      expect(skipped).not.toEqual(whole);
      caught++;
    }
    expect(caught).toBeGreaterThan(0);
  }, 120_000);
});
