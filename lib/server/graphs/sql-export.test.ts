/**
 * graph.json straight from a version's rows (sql-export.ts) against the in-memory export of the
 * same version, byte for byte: a graphify graph with attributes (httpx), MetaQA's triples and a
 * hostile graph (quotes, newlines, unicode, a `__proto__` attribute, number texts JSON.parse
 * would change), each through random commits and a revert, at the current and older versions,
 * against the cached (advanced or rewound) graph and a fresh load. A graph over
 * REFINERY_SQL_RETRIEVAL_EDGES exports from rows without any whole load. Runs on both dialects
 * (the row reader is plain SQL); on SQLite the setting never picks SQL.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { isAppError } from "../../errors";
import { graphifyJsonChunks } from "../../export/export-graphify";
import { dataPath } from "../../test/data";
import { hostileGraphJson } from "../../test/hostile-graph";
import { planRandom, randomSource } from "../../test/random-changesets";
import type { TestDatabase } from "../db/test-database";
import { testDialect, useTestDatabase } from "../db/test-database";
import { commitChangeset, revertVersion } from "../proposals";
import { evictGraphs, getVersionCacheStats, loadGraph } from "./graph-store";
import { importGraphFromPath, importGraphFromText } from "./import-graph";
import { openGraphExport } from "./sql-export";

/** Every whole load by name (the SQL path must make none). */
const loads = vi.hoisted(() => [] as string[]);
vi.mock("./graph-store", async (importOriginal) => {
  // (Typed by what is used.)
  const actual = await importOriginal<{ loadGraph: (name: string, version?: number) => Promise<unknown> }>();
  return {
    ...actual,
    loadGraph: (name: string, version?: number) => {
      loads.push(name);
      return actual.loadGraph(name, version);
    },
  };
});

let db: TestDatabase;

const QUOTED = 'say "hi"\n\tthen \\ back\r\n</script>';
const UNICODE = "naïve café 😀 \u2028 \u202Eevil\u202C 日本語 e\u0301";

/** The hostile graph plus labels and numbers a careless writer would change. */
function hostileText(): string {
  const doc = JSON.parse(hostileGraphJson()) as { nodes: Record<string, unknown>[]; links: Record<string, unknown>[] };
  doc.nodes.push({ id: "quoted", label: QUOTED, weight: "@W1@" }, { id: "unicode ✓", label: UNICODE, score: "@W2@" });
  doc.links.push({ relation: 'rel "with"\nnewline', source: "quoted", target: "unicode ✓", weight: "@W3@" });
  return JSON.stringify(doc, null, 1).replace('"@W1@"', "1.0").replace('"@W2@"', "1e400").replace('"@W3@"', "-0.0");
}

const GRAPHS = ["httpx", "metaqa", "hostile"] as const;

beforeAll(async () => {
  db = await useTestDatabase("sql-export");
  await importGraphFromPath({ path: dataPath("graphify", "httpx"), name: "httpx" });
  await importGraphFromPath({ path: dataPath("metaqa", "kb.txt"), name: "metaqa" });
  await importGraphFromText({ name: "hostile", fileName: "graph.json", text: hostileText(), worker: false });
}, 600_000);

afterAll(async () => {
  await db?.cleanup();
});

async function withSetting<T>(value: string, work: () => Promise<T>): Promise<T> {
  const saved = process.env.REFINERY_SQL_RETRIEVAL_EDGES;
  process.env.REFINERY_SQL_RETRIEVAL_EDGES = value;
  try {
    return await work();
  } finally {
    if (saved === undefined) delete process.env.REFINERY_SQL_RETRIEVAL_EDGES;
    else process.env.REFINERY_SQL_RETRIEVAL_EDGES = saved;
  }
}

async function rowsText(name: string, version?: number): Promise<string> {
  const exported = await openGraphExport(name, version, { via: "sql" });
  expect(exported.via).toBe("sql");
  const parts: string[] = [];
  for await (const chunk of exported.chunks()) parts.push(chunk);
  return parts.join("");
}

async function memoryText(name: string, version?: number): Promise<string> {
  return [...graphifyJsonChunks((await loadGraph(name, version)).graph)].join("");
}

/** Equal texts, or where they part (a whole-text diff of megabytes helps no one). */
function expectSameText(actual: string, expected: string, what: string): void {
  if (actual === expected) return;
  let i = 0;
  while (i < actual.length && actual[i] === expected[i]) i++;
  expect(actual.slice(Math.max(0, i - 200), i + 200), `${what}: first difference at ${i}`).toBe(expected.slice(Math.max(0, i - 200), i + 200));
  expect(actual.length, what).toBe(expected.length);
}

describe("graph.json from rows", () => {
  it.each(GRAPHS)(
    "%s: byte-identical to the in-memory export at every version, through commits and a revert",
    async (name) => {
      const random = randomSource(name.length * 104_729);
      let reverted = false;
      for (let round = 0; round < 5; round++) {
        const held = await loadGraph(name);
        if (round === 3) {
          try {
            await revertVersion({ graph: name, version: 2 });
            reverted = true;
          } catch (error) {
            if (!isAppError(error) || error.code !== "CONFLICT") throw error;
          }
          continue;
        }
        const edgeKeyPrefix = `v${held.version + 1}.`;
        const changeset = planRandom(held.graph, random, round, edgeKeyPrefix);
        await commitChangeset({ graph: name, baseVersion: held.version, changeset, kind: "apply", message: `Random ${round}.`, edgeKeyPrefix });
      }
      const last = (await loadGraph(name)).version;
      expect(last).toBeGreaterThanOrEqual(4);
      for (const version of [last, 1, 2, last - 1]) {
        // The cached graph: advanced through the commits, older versions rewound from it.
        expectSameText(await rowsText(name, version), await memoryText(name, version), `v${version} cached`);
      }
      for (const version of [last, 1, 2]) {
        evictGraphs();
        expectSameText(await rowsText(name, version), await memoryText(name, version), `v${version} fresh`);
      }
      expectSameText(await rowsText(name), await memoryText(name, last), "current");
      console.log(`${name}: ${last} versions${reverted ? " (one a revert)" : ""}`);
    },
    600_000,
  );

  it("round-trips hostile labels, a __proto__ attribute and number texts", async () => {
    const text = await rowsText("hostile", 1);
    const doc = JSON.parse(text) as { nodes: Record<string, unknown>[]; links: Record<string, unknown>[] };
    expect(doc.nodes.find((n) => n.id === "quoted")?.label).toBe(QUOTED);
    expect(doc.nodes.find((n) => n.id === "unicode ✓")?.label).toBe(UNICODE);
    expect(doc.links.some((l) => l.relation === 'rel "with"\nnewline')).toBe(true);
    for (const number of ['"weight": 1.0\n', '"score": 1e400\n', '"weight": -0.0\n']) expect(text.includes(number), number).toBe(true);
    expect(text).toContain('"__proto__": {\n');
    // graphify's formatting: ASCII only.
    expect([...text].every((c) => c.charCodeAt(0) < 0x80)).toBe(true);
  });

  it("refuses a version that does not exist before the first byte", async () => {
    await expect(openGraphExport("httpx", 999, { via: "sql" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(openGraphExport("no such graph")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it.skipIf(testDialect() !== "postgres")("exports a graph over REFINERY_SQL_RETRIEVAL_EDGES from rows, with no whole load", async () => {
    const expected = new Map<string, string>();
    for (const name of GRAPHS) expected.set(name, await memoryText(name));
    evictGraphs();
    const loadsBefore = getVersionCacheStats().loads;
    const calls = loads.length;
    await withSetting("10", async () => {
      for (const name of GRAPHS) {
        const exported = await openGraphExport(name);
        expect(exported.via).toBe("sql");
        const body = await new Response(exported.stream({ trailer: "\n" })).text();
        expectSameText(body, `${expected.get(name) ?? ""}\n`, name);
      }
    });
    expect(loads.slice(calls)).toEqual([]);
    expect(getVersionCacheStats().loads).toBe(loadsBefore);
    // Under the setting: from memory, as before.
    expect((await withSetting("0", () => openGraphExport("httpx"))).via).toBe("memory");
  });
});
