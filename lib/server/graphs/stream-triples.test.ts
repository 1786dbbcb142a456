/**
 * Triple files imported from a path are streamed (stream-triples.ts): read in chunks, parsed
 * line by line, written in batches. On SQLite (or PostgreSQL with REFINERY_TEST_DATABASE=postgres),
 * on the real MetaQA knowledge base (134k triples: three edge batches) rewritten with CRLF,
 * gzipped, with a label file beside it: the stored rows equal those of the whole-file path
 * (the same text uploaded, and the in-memory rows of `contentOfTriples`); a bad line past the
 * first batches fails with its line number and leaves nothing; the chunked reader gives the
 * whole-file reader's text and errors.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAppError } from "../../errors";
import { parseLabelFile, parseTripleLines } from "../../import/parse-triples";
import { dataPath } from "../../test/data";
import { getSql } from "../db/sql";
import type { TestDatabase } from "../db/test-database";
import { useTestDatabase } from "../db/test-database";
import { importGraphFromPath, importGraphFromText } from "./import-graph";
import { readTextChunks, readTextFile } from "./read-input";
import { EDGE_BATCH_ROWS } from "./stream-triples";
import { contentOfTriples } from "./write-graph";

let db: TestDatabase;
let dir: string;
const KB_TEXT = fs.readFileSync(dataPath("metaqa", "kb.txt"), "utf8");
/** The knowledge base with CRLF line ends and a BOM. */
const CRLF_TEXT = `\uFEFF${KB_TEXT.replace(/\n/g, "\r\n")}`;

async function collect(file: string): Promise<string> {
  let text = "";
  for await (const chunk of readTextChunks(file).chunks) text += chunk;
  return text;
}

async function storedRows(name: string): Promise<{ nodes: unknown[][]; edges: unknown[][] }> {
  const sql = getSql();
  const g = await sql.get<{ id: string }>(`SELECT "id" FROM "Graph" WHERE "name" = ?`, [name]);
  if (!g) throw new Error(`no graph ${name}`);
  const nodes = await sql.queryRows(`SELECT "nodeId", "label", "normLabel", "ord", "data", "validFrom", "validTo" FROM "Node" WHERE "graphId" = ? ORDER BY "ord"`, [g.id]);
  const edges = await sql.queryRows(
    `SELECT "edgeKey", "source", "target", "relation", "ord", "data", "validFrom", "validTo" FROM "Edge" WHERE "graphId" = ? ORDER BY "ord"`,
    [g.id],
  );
  const norm = (rows: unknown[][]) => rows.map((r) => r.map((v) => (typeof v === "bigint" ? Number(v) : v)));
  return { nodes: norm(nodes), edges: norm(edges) };
}

/** The first row where two row lists differ (a readable failure, not a diff of 130k rows), or null. */
function firstDifference(a: unknown[][], b: unknown[][]): { at: number; got: unknown; want: unknown } | null {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (JSON.stringify(a[i]) !== JSON.stringify(b[i])) return { at: i, got: a[i], want: b[i] };
  }
  return null;
}

async function errorOf(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    return { code: isAppError(error) ? error.code : "not an AppError", message: (error as Error).message };
  }
  return { code: "no error", message: "" };
}

beforeAll(async () => {
  db = await useTestDatabase("stream-triples");
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "refinery-stream-"));
});

afterAll(async () => {
  await db.cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("readTextChunks", () => {
  it("gives readTextFile's text for plain, gzipped, BOM and UTF-16 files", async () => {
    const cases: [string, Buffer][] = [
      ["plain.txt", Buffer.from(CRLF_TEXT, "utf8")],
      ["kb.txt.gz", gzipSync(Buffer.from(CRLF_TEXT, "utf8"))],
      ["utf16.txt", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("a\tr\tb\r\nc\tr\td\n", "utf16le")])],
      ["one-byte.txt", Buffer.from("x")],
    ];
    for (const [name, bytes] of cases) {
      const file = path.join(dir, name);
      fs.writeFileSync(file, bytes);
      expect(await collect(file)).toBe(readTextFile(file));
    }
  });

  it("names the bad byte of a file that is not UTF-8, and a broken gzip file", async () => {
    const bad = path.join(dir, "bad.txt");
    const bytes = Buffer.from(KB_TEXT.slice(0, 700_000), "utf8");
    bytes[600_000] = 0xff;
    fs.writeFileSync(bad, bytes);
    expect(await errorOf(collect(bad))).toEqual({ code: "PARSE_ERROR", message: `${bad}: not valid UTF-8 (first bad byte at offset 600000); save the file as UTF-8 and import again` });
    const gz = path.join(dir, "broken.tsv.gz");
    fs.writeFileSync(gz, gzipSync(bytes).subarray(0, 50_000));
    const broken = await errorOf(collect(gz));
    expect(broken.code).toBe("PARSE_ERROR");
    const notGz = path.join(dir, "not.tsv.gz");
    fs.writeFileSync(notGz, "a\tr\tb\n");
    const notGzError = await errorOf(collect(notGz));
    expect(notGzError.code).toBe("PARSE_ERROR");
    expect(notGzError.message).toContain(`${notGz}: not a valid gzip file`);
  });
});

describe("a streamed triple import", () => {
  it("stores the rows of the whole-file path (CRLF, BOM, .gz, a label file beside it)", async () => {
    const sub = path.join(dir, "kb");
    fs.mkdirSync(sub);
    const file = path.join(sub, "kb.txt.gz");
    fs.writeFileSync(file, gzipSync(Buffer.from(CRLF_TEXT, "utf8")));
    const triples = parseTripleLines(KB_TEXT);
    expect(triples.length).toBeGreaterThan(2 * EDGE_BATCH_ROWS);
    // Labels for every third entity, one of them hostile (over 1,000 characters: shortened with a warning).
    const ids = [...new Set(triples.flatMap((t) => [t.subject, t.object]))];
    const labelText = ids
      .filter((_, i) => i % 3 === 0)
      .map((id, i) => `${id}\t${i === 0 ? "x".repeat(5000) : id.toUpperCase()}`)
      .join("\r\n");
    fs.writeFileSync(path.join(sub, "entity2text.txt"), labelText);

    const lines: string[] = [];
    const report = await importGraphFromPath({ path: file, name: "streamed", worker: false, onProgress: (m) => lines.push(m) });
    expect(report.graph).toMatchObject({ nodes: ids.length, edges: triples.length });
    expect(report.warnings).toEqual([expect.stringContaining("1 label longer than 1,000 characters")]);
    expect(lines.filter((l) => l.startsWith("wrote ")).length).toBeGreaterThanOrEqual(2);

    const streamed = await storedRows("streamed");
    // The whole-file rows: in memory, as the old path built them from the parsed file …
    const content = contentOfTriples(triples, parseLabelFile(labelText));
    const copy = (rows: Iterable<unknown[]>) => {
      const out: unknown[][] = [];
      for (const r of rows) out.push([...r.slice(1), null]); // one by one: the generator reuses its row array
      return out;
    };
    expect(firstDifference(streamed.nodes, copy(content.nodeRows("g")))).toBeNull();
    expect(firstDifference(streamed.edges, copy(content.edgeRows("g")))).toBeNull();
    expect(streamed.nodes.some((r) => r[1] !== r[0])).toBe(true);
    // … and stored through the whole-text import (the text uploaded; no label file there).
    await importGraphFromText({ name: "whole", fileName: "kb.txt", text: CRLF_TEXT, worker: false });
    const plain = path.join(dir, "kb-plain.txt");
    fs.writeFileSync(plain, CRLF_TEXT);
    await importGraphFromPath({ path: plain, name: "streamed plain", worker: true });
    const [viaPath, viaText] = [await storedRows("streamed plain"), await storedRows("whole")];
    expect(firstDifference(viaPath.nodes, viaText.nodes)).toBeNull();
    expect(firstDifference(viaPath.edges, viaText.edges)).toBeNull();
    expect(viaPath.edges).toHaveLength(triples.length);
    const versions = await getSql().query<{ nodeCount: number; edgeCount: number }>(
      `SELECT v."nodeCount", v."edgeCount" FROM "GraphVersion" v JOIN "Graph" g ON g."id" = v."graphId" WHERE g."name" IN ('streamed', 'streamed plain', 'whole')`,
    );
    expect(versions.map((v) => [Number(v.nodeCount), Number(v.edgeCount)])).toEqual([0, 1, 2].map(() => [ids.length, triples.length]));
  }, 120_000);

  it("fails on a bad line past the first batches with its line number, leaving nothing", async () => {
    const lines = KB_TEXT.split("\n");
    const at = 2 * EDGE_BATCH_ROWS + 123;
    lines[at - 1] = "only|two";
    const file = path.join(dir, "bad-late.txt");
    fs.writeFileSync(file, lines.join("\n"));
    for (const worker of [false, true]) {
      const failed = await errorOf(importGraphFromPath({ path: file, name: "bad late", worker }));
      expect(failed).toEqual({ code: "PARSE_ERROR", message: `${file}: line ${at}: expected 3 '|'-separated fields (subject, relation, object), found 2` });
      expect(await getSql().get(`SELECT "id" FROM "Graph" WHERE "name" = ?`, ["bad late"])).toBeUndefined();
    }
    const orphans = await getSql().get<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "Edge" WHERE "graphId" NOT IN (SELECT "id" FROM "Graph")`);
    expect(Number(orphans?.n)).toBe(0);
    expect((await errorOf(importGraphFromPath({ path: path.join(dir, "kb-plain.txt"), name: "whole", worker: false }))).code).toBe("CONFLICT");
  }, 120_000);
});
