/**
 * The explorer's reads through SQL (PostgreSQL, sql-explore.ts) against the in-memory path on
 * shared graphs: search, hubs, neighbourhoods (hubs with truncation, depth 1 and 2) and node
 * details must be deeply equal, and the SQL path must load no whole graph. On SQLite it is
 * skipped (SQL retrieval is PostgreSQL-only).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataPath } from "../../test/data";
import type { TestDatabase } from "../db/test-database";
import { testDialect, useTestDatabase } from "../db/test-database";
import { withSqlRetrieval } from "../db/with-env";
import { findHubNodes, getNeighbourhood, getNodeDetails, searchNodes } from "./explore-graph";
import { evictGraphs, getVersionCacheStats, loadGraph } from "./graph-store";
import { importGraphFromPath } from "./import-graph";
import { sqlExploreStats } from "./sql-explore";
import { queryStoredGraph } from "./sql-query-graph";

const pg = testDialect() === "postgres";

/** The call's result, or its error's code and message: both paths must fail alike too. */
async function outcome<T>(work: () => Promise<T>): Promise<T | { error: string }> {
  try {
    return await work();
  } catch (error) {
    const e = error as { code?: string; message?: string };
    return { error: `${e.code ?? ""} ${e.message ?? String(error)}` };
  }
}

interface Calls {
  name: string;
  searches: string[];
  nodes: string[];
}

async function runAll({ name, searches, nodes }: Calls): Promise<unknown[]> {
  const out: unknown[] = [];
  out.push(await outcome(() => findHubNodes({ name })));
  out.push(await outcome(() => findHubNodes({ name, limit: 40 })));
  for (const q of searches) {
    out.push(await outcome(() => searchNodes({ name, q })));
    out.push(await outcome(() => searchNodes({ name, q, limit: 5 })));
  }
  for (const nodeId of nodes) {
    out.push(await outcome(() => getNeighbourhood({ name, nodeId })));
    out.push(await outcome(() => getNeighbourhood({ name, nodeId, depth: 2, limit: 40 })));
    out.push(await outcome(() => getNeighbourhood({ name, nodeId, depth: 1, limit: 8 })));
    out.push(await outcome(() => getNodeDetails({ name, nodeId })));
  }
  return out;
}

/** Hubs, a few ordinary nodes and a missing id; labels, fragments, a misspelling, nonsense. */
async function callsFor(name: string, extraSearches: string[]): Promise<Calls> {
  const { graph } = await withSqlRetrieval("0", () => loadGraph(name));
  const hubs = (await withSqlRetrieval("0", () => findHubNodes({ name, limit: 3 }))).map((h) => h.id);
  const all = [...graph.nodes.values()];
  const some = [all[0], all[Math.floor(all.length / 3)], all[Math.floor(all.length / 2)], all[all.length - 1]].flatMap((n) => (n ? [n] : []));
  const searches = [...extraSearches, ...some.slice(0, 3).map((n) => n.label), ...some.slice(0, 2).map((n) => n.label.slice(0, 4)), (some[0]?.label ?? "x").slice(1, -1) + "zq", "", "qqqxzzv"];
  return { name, searches, nodes: [...hubs, ...some.map((n) => n.id), "no-such-node-id"] };
}

describe.skipIf(!pg)("the explorer through SQL", () => {
  let db: TestDatabase | undefined;
  beforeAll(async () => {
    db = await useTestDatabase("sql-explore");
    await importGraphFromPath({ path: dataPath("graphify", "httpx"), name: "httpx" });
    await importGraphFromPath({ path: dataPath("metaqa", "kb.txt"), name: "metaqa" });
  }, 600_000);
  afterAll(async () => {
    await db?.cleanup();
  });

  for (const [name, extra] of [
    ["httpx", ["Client", "send", "httpx/_client.py::Client", "AsyncClient.send()", "transprt", "request"]],
    ["metaqa", ["Tom Hanks", "the", "Kubrick", "stanley kubrik", "1999", "drama"]],
  ] as const) {
    it(`gives the in-memory answers on ${name}, loading no graph`, async () => {
      const calls = await callsFor(name, [...extra]);
      const memory = await withSqlRetrieval("0", () => runAll(calls));
      evictGraphs();
      const loads = getVersionCacheStats().loads;
      const before = sqlExploreStats.calls;
      const sql = await withSqlRetrieval("1", () => runAll(calls));
      expect(getVersionCacheStats().loads).toBe(loads);
      expect(sqlExploreStats.calls).toBeGreaterThan(before);
      expect(sql).toEqual(memory);
      // Again with the version's degrees in NodeDegree (the SQL retrieval writes them).
      await withSqlRetrieval("1", () => queryStoredGraph({ name, question: "what is it" }));
      expect(await withSqlRetrieval("1", () => runAll(calls))).toEqual(memory);
      expect(getVersionCacheStats().loads).toBe(loads);
      const matched = new Set(memory.flatMap((r) => ((r as { hits?: { matchedBy: string }[] }).hits ?? []).map((h) => h.matchedBy)));
      expect([...matched]).toEqual(expect.arrayContaining(["fuzzy", "substring", "label"]));
      // Something real was compared: truncated hub neighbourhoods and found nodes.
      expect(memory.some((r) => (r as { truncated?: boolean }).truncated === true)).toBe(true);
      expect(memory.filter((r) => Array.isArray((r as { hits?: unknown[] }).hits) && ((r as { hits: unknown[] }).hits.length > 0)).length).toBeGreaterThan(5);
    }, 600_000);
  }
});
