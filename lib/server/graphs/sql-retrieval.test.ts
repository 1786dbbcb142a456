/**
 * SQL retrieval (PostgreSQL) against the in-memory path on shared graphs, step by step as the
 * hop loop runs them: step 1 queryGraph, steps 2–4 expandHops from the subgraph's entities
 * with the growing caps, excluding what earlier steps took. Every step's triples, edge keys and
 * seeds must be equal. On SQLite only the setting is checked (SQL retrieval is PostgreSQL-only).
 */
import fs from "node:fs";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KnowledgeGraph } from "../../graph/model";
import { expandHops } from "../../retrieve/expand-hops";
import { formatQueryText, queryGraph, questionFocus, questionTerms } from "../../retrieve/query-graph";
import { dataPath, readData } from "../../test/data";
import { getDb } from "../db/db";
import type { TestDatabase } from "../db/test-database";
import { testDialect, useTestDatabase } from "../db/test-database";
import { findGraphRow, loadGraph, versionSource } from "./graph-store";
import { importGraphFromPath } from "./import-graph";
import { nodeKeysOf } from "./sql-node-keys";
import { queryStoredGraph } from "./sql-query-graph";
import type { SqlGraphSource } from "./sql-retrieval";
import { sqlExpandHops, sqlQueryGraph } from "./sql-retrieval";
import { sqlRetrievalThreshold, usesSqlRetrieval } from "./sql-retrieval-setting";
import { withSqlRetrieval } from "../db/with-env";

describe("REFINERY_SQL_RETRIEVAL_EDGES", () => {
  it("defaults to 5,000,000 edges, 0 turns it off, and only PostgreSQL uses it", () => {
    expect(sqlRetrievalThreshold({})).toBe(5_000_000);
    expect(sqlRetrievalThreshold({ REFINERY_SQL_RETRIEVAL_EDGES: "1_000" })).toBe(1000);
    expect(() => sqlRetrievalThreshold({ REFINERY_SQL_RETRIEVAL_EDGES: "many" })).toThrow(/whole number/);
    const pg = { DATABASE_URL: "postgresql://x/y" };
    expect(usesSqlRetrieval(6_000_000, pg)).toBe(true);
    expect(usesSqlRetrieval(4_000_000, pg)).toBe(false);
    expect(usesSqlRetrieval(6_000_000, { ...pg, REFINERY_SQL_RETRIEVAL_EDGES: "0" })).toBe(false);
    expect(usesSqlRetrieval(6_000_000, { DATABASE_URL: "file:./x.db" })).toBe(false);
  });

  it("keys a node the way the in-memory label indexes do", () => {
    const keys = nodeKeysOf({ id: "n1", label: "HTTPTransport.send()", normLabel: "httptransport.send()", aliases: ["Transport"], community: null, fileType: null, sourceFile: "httpx/_transports/default.py", sourceLocation: null, attrs: {} });
    expect(keys).toEqual(
      expect.arrayContaining([
        { kind: "l", key: "httptransport.send()" },
        { kind: "a", key: "transport" },
        { kind: "k", key: "httptransport send" },
        { kind: "k", key: "transport" },
        { kind: "p", key: "httptransport send" },
        { kind: "w", key: "http" },
        { kind: "w", key: "transport" },
        { kind: "f", key: "httpx/_transports/default.py" },
      ]),
    );
  });
});

const CAPS = [5, 10, 15, 20];

interface StepResult {
  keys: string[];
  seeds?: string[];
}

/** The hop loop's retrieval, in memory or through SQL; `entities` are the subgraph's endpoints so far. */
async function runSteps(retrieve: {
  query: (limit: number) => Promise<{ edgeKeys: string[]; seeds: { id: string }[]; triples: { subject_id: string; object_id: string }[] }>;
  expand: (entities: string[], cap: number, exclude: Set<string>) => Promise<{ edgeKeys: string[]; triples: { subject_id: string; object_id: string }[] }>;
}): Promise<StepResult[]> {
  const steps: StepResult[] = [];
  const taken = new Set<string>();
  const entities: string[] = [];
  const add = (keys: string[], triples: { subject_id: string; object_id: string }[], cap: number) => {
    keys.forEach((k, i) => {
      if (taken.size >= cap || taken.has(k)) return;
      taken.add(k);
      const t = triples[i];
      if (t) for (const id of [t.subject_id, t.object_id]) if (!entities.includes(id)) entities.push(id);
    });
  };
  const first = await retrieve.query(CAPS[0] as number * 2 + 5);
  steps.push({ keys: first.edgeKeys, seeds: first.seeds.map((s) => s.id) });
  add(first.edgeKeys, first.triples, CAPS[0] as number);
  for (const cap of CAPS.slice(1)) {
    if (entities.length === 0) break;
    const want = (cap - taken.size) * 2 + 5;
    const result = await retrieve.expand([...entities], want, new Set(taken));
    steps.push({ keys: result.edgeKeys });
    add(result.edgeKeys, result.triples, cap);
  }
  return steps;
}

function compareOn(label: string, graphName: string, questions: () => string[], version?: () => Promise<number>) {
  describe.skipIf(testDialect() !== "postgres")(`SQL retrieval equals in-memory retrieval: ${label}`, () => {
    let graph: KnowledgeGraph;
    let source: SqlGraphSource;
    beforeAll(async () => {
      const v = version ? await version() : undefined;
      // The versions below are written as rows, not commits (no changesets for the version cache
      // to rewind by): the in-memory side loads each one whole from its rows.
      graph = v === undefined ? (await loadGraph(graphName)).graph : await versionSource(await findGraphRow(graphName)).load(v);
      const row = await getDb().graph.findUniqueOrThrow({ where: { name: graphName } });
      source = { graphId: row.id, version: v ?? row.currentVersion, sourcePath: row.sourcePath, meta: row.meta };
    }, 300_000);

    it("gives the same triples at every step", async () => {
      let compared = 0;
      let rounds = 0;
      let calls = 0;
      for (const question of questions()) {
        const memory = await runSteps({
          query: (limit) => Promise.resolve(queryGraph({ graph, question, limit })),
          expand: (entities, cap, exclude) => Promise.resolve(expandHops({ graph, entities, question, cap, exclude })),
        });
        const sql = await runSteps({
          query: async (limit) => {
            const r = await sqlQueryGraph(source, { question, limit });
            rounds += r.rounds;
            calls++;
            return r.result;
          },
          expand: async (entities, cap, exclude) => {
            const r = await sqlExpandHops(source, { entities, question, cap, exclude });
            rounds += r.rounds;
            calls++;
            return r.result;
          },
        });
        expect(sql, question).toEqual(memory);
        compared += memory.reduce((n, s) => n + s.keys.length, 0);
      }
      // The comparison must have compared something: real questions find triples.
      expect(compared).toBeGreaterThan(questions().length * 5);
      expect(rounds / calls).toBeGreaterThan(1);
    }, 600_000);
  });
}

let db: TestDatabase | undefined;
beforeAll(async () => {
  if (testDialect() !== "postgres") return;
  db = await useTestDatabase("sql-retrieval");
  await importGraphFromPath({ path: dataPath("metaqa", "kb.txt"), name: "metaqa" });
  // FB15k-237 with its entity names (entity2text.txt beside the file).
  await importGraphFromPath({ path: dataPath("fb15k237", "train.tsv.gz"), name: "fb15k" });
  await importGraphFromPath({ path: dataPath("graphify", "httpx"), name: "httpx" });
}, 600_000);

afterAll(async () => {
  await db?.cleanup();
});

const jsonl = (file: string) => readData("metaqa", file).split("\n").filter(Boolean).map((l) => (JSON.parse(l) as { question: string }).question);

compareOn("MetaQA 1-hop and 2-hop", "metaqa", () => [...jsonl("questions-1hop.jsonl").slice(0, 15), ...jsonl("questions-2hop.jsonl").slice(0, 15)]);

function fb15kQuestions(count: number, step: number): string[] {
  const labels = new Map<string, string>();
  for (const line of readData("fb15k237", "entity2text.txt").split("\n")) {
    const [id, label] = line.split("\t");
    if (id && label) labels.set(id, label.trim());
  }
  const lines = zlib.gunzipSync(fs.readFileSync(dataPath("fb15k237", "test.tsv.gz"))).toString("utf8").split("\n").filter(Boolean);
  const out: string[] = [];
  for (let i = 0; out.length < count && i < lines.length; i += step) {
    const [h, r] = (lines[i] ?? "").split("\t");
    const name = labels.get(h ?? "");
    if (!name || !r) continue;
    const words = r.split(/[/._]/).filter(Boolean).slice(-2).join(" ");
    out.push(`What is the ${words} of ${name}?`);
  }
  return out;
}

compareOn("FB15k-237", "fb15k", () => fb15kQuestions(20, 97));

compareOn("httpx (code graph: source files, camelCase words)", "httpx", () => [
  "how does Client send a request",
  "what calls build_request",
  "where is the transport for AsyncClient",
  "what does HTTPTransport inherit from",
  "which functions handle redirects and auth",
  // A snake_case word that names no node: expandHops scores with its parts ("send", "handlers"),
  // which are not the question's own terms (runOverSql fetches them after the first run).
  "which send_handlers does AsyncClient use",
]);

/**
 * Versions 2–6 of FB15k-237, each closing a share of the edges (validTo): degrees then differ
 * between versions, an old version counts edges closed after it (its degrees are not in
 * NodeDegree: more than four versions behind), a recent one reads them from NodeDegree.
 */
let versioned: Promise<void> | undefined;
function closeEdgesInVersions(): Promise<void> {
  versioned ??= (async () => {
    const db = getDb();
    const row = await db.graph.findUniqueOrThrow({ where: { name: "fb15k" } });
    for (let v = 2; v <= 6; v++) {
      await db.$executeRawUnsafe(`UPDATE "Edge" SET "validTo" = $1 WHERE "graphId" = $2 AND "validTo" IS NULL AND "ord" % 11 = $1`, v, row.id);
      const edges = await db.edge.count({ where: { graphId: row.id, validFrom: { lte: v }, OR: [{ validTo: null }, { validTo: { gt: v } }] } });
      const nodes = await db.node.count({ where: { graphId: row.id, validFrom: { lte: v }, OR: [{ validTo: null }, { validTo: { gt: v } }] } });
      await db.graphVersion.create({ data: { graphId: row.id, version: v, message: `close ord % 11 = ${v}`, nodeCount: nodes, edgeCount: edges } });
    }
    await db.graph.update({ where: { id: row.id }, data: { currentVersion: 6 } });
  })();
  return versioned;
}

compareOn("FB15k-237 at version 6 (degrees from NodeDegree)", "fb15k", () => fb15kQuestions(8, 211), async () => {
  await closeEdgesInVersions();
  return 6;
});

// Another instance committed more than four versions while retrievals of version 6 ran: its
// NodeDegree rows are deleted although this process's figures say they are there. Degrees are
// then counted, not read as 0 (other questions than above, so the row cache holds other nodes).
compareOn("FB15k-237 at version 6 with its NodeDegree rows deleted under it", "fb15k", () => fb15kQuestions(8, 307), async () => {
  await closeEdgesInVersions();
  const row = await getDb().graph.findUniqueOrThrow({ where: { name: "fb15k" } });
  const deleted = await getDb().$executeRawUnsafe(`DELETE FROM "NodeDegree" WHERE "graphId" = $1 AND "version" = 6`, row.id);
  expect(deleted).toBeGreaterThan(0);
  return 6;
});

compareOn("FB15k-237 at version 1 after five versions closed edges (degrees counted)", "fb15k", () => fb15kQuestions(8, 211), async () => {
  await closeEdgesInVersions();
  return 1;
});

describe.skipIf(testDialect() !== "postgres")("label substrings of expandHops's terms", () => {
  it("holds every node whose label contains a word outside the mentions, as the whole graph has them", async () => {
    // "header_encodings" names no node: expandHops scores with "header" and "encodings", not the
    // question's own term, and their idf counts every label containing them.
    const question = "which header_encodings does AsyncClient use";
    const { graph } = await loadGraph("httpx");
    const { anchors, relationText } = questionFocus(graph, question);
    expect(anchors.size).toBeGreaterThan(0);
    const terms = questionTerms(relationText).filter((t) => !questionTerms(question).includes(t));
    expect(terms).toContain("header");
    const row = await getDb().graph.findUniqueOrThrow({ where: { name: "httpx" } });
    const source = { graphId: row.id, version: row.currentVersion, sourcePath: row.sourcePath, meta: row.meta };
    const sql = await sqlExpandHops(source, { entities: [...anchors], question, cap: 10 });
    const containing = (g: KnowledgeGraph, t: string) => [...g.nodes.values()].filter((n) => n.normLabel.includes(t)).map((n) => n.id).sort();
    for (const t of terms) expect(containing(sql.graph, t), t).toEqual(containing(graph, t));
    expect(containing(graph, "header").length).toBeGreaterThan(1);
  }, 120_000);
});

describe.skipIf(testDialect() !== "postgres")("queryStoredGraph (refinery query, MCP query)", () => {
  it("answers through SQL above REFINERY_SQL_RETRIEVAL_EDGES and in memory below, alike", async () => {
    const question = "how does Client send a request";
    const sql = await withSqlRetrieval("1", () => queryStoredGraph({ name: "httpx", question, limit: 20 }));
    const memory = await withSqlRetrieval("0", () => queryStoredGraph({ name: "httpx", question, limit: 20 }));
    expect([sql.via, memory.via]).toEqual(["sql", "memory"]);
    expect(sql.result.triples.length).toBeGreaterThan(0);
    expect(sql.result).toEqual(memory.result);
    expect(formatQueryText(sql.graph, sql.result)).toBe(formatQueryText(memory.graph, memory.result));
  }, 120_000);
});
