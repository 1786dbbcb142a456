/**
 * Versions in O(change), on the real store (SQLite, and PostgreSQL with
 * REFINERY_TEST_DATABASE=postgres): after each random commit or revert the cached graph is
 * advanced in memory, and equals a fresh load of that version from the rows (nodes, edges,
 * attributes, positions, adjacency); older versions rewound from it equal their fresh loads; a
 * reader holding a version keeps seeing it; a failed transaction leaves the cache as it was; and
 * a version committed by another process is caught up from its stored changeset.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAppError } from "../../errors";
import type { KnowledgeGraph } from "../../graph/model";
import { dataPath } from "../../test/data";
import { graphSnapshot, planRandom, randomSource } from "../../test/random-changesets";
import type { TestDatabase } from "../db/test-database";
import { useTestDatabase } from "../db/test-database";
import { getGraphRecord, getVersionCacheStats, importGraphFromPath, loadGraph, versionSource } from "../graphs";
import { commitChangeset, revertVersion } from "./changesets";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..", "..", "..");
let db: TestDatabase;

const GRAPHS: [string, string][] = [
  ["httpx", dataPath("graphify", "httpx")],
  ["countries", dataPath("countries_S1", "graph.txt")],
];

/** The version as a whole load from its rows gives it (what a cold process would see). */
async function freshLoad(name: string, version: number): Promise<KnowledgeGraph> {
  return versionSource(await getGraphRecord(name)).load(version);
}

/** `ordered`: each node's edge lists in the same order too (promised for the newest version). */
async function expectCachedEqualsFresh(name: string, version?: number, ordered = true): Promise<void> {
  const cached = await loadGraph(name, version);
  expect(graphSnapshot(cached.graph, ordered)).toEqual(graphSnapshot(await freshLoad(name, cached.version), ordered));
}

beforeAll(async () => {
  db = await useTestDatabase("advance");
  for (const [name, file] of GRAPHS) await importGraphFromPath({ path: file, name });
});

afterAll(async () => {
  await db.cleanup();
});

describe.each(GRAPHS)("versions of %s in memory", (name) => {
  it("advances on each random commit and revert, equal to a fresh load, without reloading", async () => {
    const random = randomSource(name.length * 7919);
    await loadGraph(name);
    const loadsBefore = getVersionCacheStats().loads;
    let reverts = 0;
    for (let round = 0; round < 12; round++) {
      const held = await loadGraph(name);
      const heldSnapshot = graphSnapshot(held.graph, false);
      if (round > 2 && random(3) === 0) {
        // Undo a random earlier version: refused when later versions touched the same items.
        try {
          await revertVersion({ graph: name, version: 2 + random(held.version - 1) });
          reverts++;
        } catch (error) {
          if (!isAppError(error) || error.code !== "CONFLICT") throw error;
        }
      } else {
        const edgeKeyPrefix = `v${held.version + 1}.`;
        const changeset = planRandom(held.graph, random, round, edgeKeyPrefix);
        await commitChangeset({ graph: name, baseVersion: held.version, changeset, kind: "apply", message: `Random ${round}.`, edgeKeyPrefix });
      }
      await expectCachedEqualsFresh(name);
      // The request that loaded the older version still sees exactly it.
      // (Its edges; each node's list in the same order is not promised once the graph moved on.)
      expect(graphSnapshot(held.graph, false)).toEqual(heldSnapshot);
      expect(graphSnapshot((await loadGraph(name, held.version)).graph, false)).toEqual(heldSnapshot);
    }
    expect(reverts).toBeGreaterThan(0);
    expect(getVersionCacheStats().loads).toBe(loadsBefore);
    // Every older version, rewound from the live graph through the stored inverses.
    const { version } = await loadGraph(name);
    for (let v = 1; v < version; v++) await expectCachedEqualsFresh(name, v, false);
    expect(getVersionCacheStats().loads).toBe(loadsBefore);
  }, 120_000);

  it("leaves the cache as it was when the commit's transaction fails", async () => {
    const held = await loadGraph(name);
    const before = graphSnapshot(held.graph);
    const edgeKeyPrefix = `v${held.version + 1}.`;
    const changeset = planRandom(held.graph, randomSource(5), 99, edgeKeyPrefix);
    await expect(
      commitChangeset({
        graph: name,
        baseVersion: held.version,
        changeset,
        kind: "apply",
        message: "Fails.",
        edgeKeyPrefix,
        inTransaction: () => {
          throw new Error("the proposal write failed");
        },
      }),
    ).rejects.toThrow(/proposal write failed/);
    const after = await loadGraph(name);
    expect(after.version).toBe(held.version);
    expect(after.graph).toBe(held.graph);
    expect(graphSnapshot(after.graph)).toEqual(before);
  });

  it("catches up with a version another process committed, from its stored changeset", async () => {
    const held = await loadGraph(name);
    const before = graphSnapshot(held.graph, false);
    const stats = getVersionCacheStats();
    const out = execFileSync(process.execPath, ["--import", "tsx", path.join(here, "commit-random.child.ts"), name, "31"], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: db.url },
      encoding: "utf8",
    });
    expect(JSON.parse(out)).toEqual({ version: held.version + 1 });
    await expectCachedEqualsFresh(name);
    const now = getVersionCacheStats();
    expect(now.caughtUp).toBe(stats.caughtUp + 1);
    expect(now.loads).toBe(stats.loads);
    expect(graphSnapshot(held.graph, false)).toEqual(before);
  }, 60_000);
});
