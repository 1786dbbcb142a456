/**
 * The CLI end to end against a real, freshly created SQLite database: import → stats →
 * query → export, and what happens with bad input (exit codes, messages, nothing half-written).
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataPath, readData } from "../lib/test/data";
import { getSql } from "../lib/server/db/sql";
import { getDb } from "../lib/server/db/db";
import type { TestDatabase } from "../lib/server/db/test-database";
import { useTestDatabase } from "../lib/server/db/test-database";
import { main } from "./main";

let db: TestDatabase;
let tmp: string;

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await main(argv, { out: (t) => (out += t + "\n"), err: (t) => (err += t + "\n") });
  return { code, out, err };
}

async function runJson<T = Record<string, unknown>>(...argv: string[]): Promise<T> {
  const r = await run(...argv, "--json");
  expect(r.err.includes('"error"') ? r.err : "", `refinery ${argv.join(" ")}`).toBe("");
  expect(r.code).toBe(0);
  return JSON.parse(r.out) as T;
}

beforeAll(async () => {
  db = await useTestDatabase("cli");
  tmp = db.dir;
  // SQLite: a database path whose folder does not exist yet: the first command creates and migrates it.
  if (db.dialect === "sqlite") process.env.DATABASE_URL = `file:${path.join(tmp, "nested", "dir", "test.db")}`;
});

afterAll(async () => {
  await db.cleanup();
});

describe("refinery CLI", () => {
  it("lists no graphs on a fresh database it creates itself", async () => {
    expect(await runJson<unknown[]>("graphs")).toEqual([]);
    if (db.dialect === "sqlite") expect(fs.existsSync(path.join(tmp, "nested", "dir", "test.db"))).toBe(true);
    const human = await run("graphs");
    expect(human.out).toContain("no graphs yet");
  });

  it("imports graphify httpx with its source files, round-trips the export", async () => {
    const report = await runJson<{ nodes: number; edges: number; documents: number; version: number; corpus: { missing: string[] } }>(
      "import",
      dataPath("graphify", "httpx"),
      "--name",
      "httpx",
    );
    expect(report).toMatchObject({ nodes: 144, edges: 330, version: 1 });
    expect(report.documents).toBe(6);
    expect(report.corpus.missing).toEqual([]);
    const audited = await getDb().auditEvent.findFirstOrThrow({ where: { action: "graph.import", graphName: "httpx" } });
    expect(audited).toMatchObject({ actorKind: "cli", actorName: "command line", summary: "imported httpx (graphify: 144 nodes, 330 edges, 6 documents)" });

    const stats = await runJson<{ nodes: number; edges: number; documents: number; version: number; relations: { relation: string }[] }>("stats", "httpx");
    expect(stats).toMatchObject({ nodes: 144, edges: 330, documents: 6, version: 1 });
    expect(stats.relations.map((r) => r.relation)).toContain("imports_from");

    const out = path.join(tmp, "out", "graph.json");
    expect((await run("export", "httpx", "--out", out)).code).toBe(0);
    expect(fs.readFileSync(out, "utf8")).toBe(readData("graphify", "httpx", "graph.json"));
    const printed = await run("export", "httpx", "--version", "1");
    expect(printed.out).toBe(readData("graphify", "httpx", "graph.json") + "\n");
  });

  it("round-trips every graphify graph through the database", async () => {
    for (const name of ["karpathy-repos", "mixed-corpus", "rsl-siege-manager"]) {
      await runJson("import", dataPath("graphify", name, "graph.json"), "--name", name);
      const out = path.join(tmp, `${name}.json`);
      expect((await run("export", name, "--out", out)).code).toBe(0);
      expect(fs.readFileSync(out, "utf8") === readData("graphify", name, "graph.json"), name).toBe(true);
    }
  });

  it("answers queries with triples that carry ids, in stored direction", async () => {
    const result = await runJson<{ seeds: { id: string }[]; triples: Record<string, string>[] }>("query", "httpx", "How does the Client send a request?");
    expect(result.seeds.length).toBeGreaterThan(0);
    expect(result.triples.length).toBeGreaterThan(0);
    const graph = JSON.parse(readData("graphify", "httpx", "graph.json")) as { links: { _src: string; _tgt: string; relation: string }[] };
    for (const t of result.triples) {
      expect(Object.keys(t).sort()).toEqual(["object", "object_id", "relation", "subject", "subject_id"]);
      expect(graph.links.some((l) => l._src === t.subject_id && l._tgt === t.object_id && l.relation === t.relation)).toBe(true);
    }
    const text = await run("query", "httpx", "How does the Client send a request?");
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^EDGE /m);
  });

  it("imports the MuSiQue bundle with passages and questions, MetaQA and Countries triples", async () => {
    const musique = await runJson<{ nodes: number; edges: number; documents: number; questions: number }>("import", dataPath("musique"));
    expect(musique).toMatchObject({ edges: 17234, documents: 1890, questions: 50 });
    const countries = await runJson<{ edges: number }>("import", dataPath("countries_S1", "graph.txt"), "--name", "countries");
    expect(countries.edges).toBe(1111);
    const metaqa = await runJson<{ edges: number }>("import", dataPath("metaqa", "kb.txt"), "--name", "metaqa");
    expect(metaqa.edges).toBe(128185);
    const names = (await runJson<{ name: string }[]>("graphs")).map((g) => g.name);
    expect(names).toEqual(expect.arrayContaining(["httpx", "musique", "countries", "metaqa"]));
  });

  it("refuses a reserved name", async () => {
    const r = await run("import", dataPath("graphify", "mixed-corpus"), "--name", "upload");
    expect(r.code).toBe(1);
    expect(r.err).toContain('"upload" is reserved');
  });

  it("refuses a duplicate name and unknown graphs with exit 1", async () => {
    const dup = await run("import", dataPath("graphify", "mixed-corpus"), "--name", "httpx");
    expect(dup.code).toBe(1);
    expect(dup.err).toContain('a graph named "httpx" already exists');
    const missing = await run("stats", "nope", "--json");
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.err)).toMatchObject({ error: { code: "NOT_FOUND" } });
    const version = await run("export", "httpx", "--version", "9");
    expect(version.code).toBe(1);
    expect(version.err).toContain("has versions 1..1");
  });

  it("exits 2 on usage errors", async () => {
    expect((await run("import")).code).toBe(2);
    expect((await run("frobnicate")).code).toBe(2);
    expect((await run("import", "x", "--format", "xml")).code).toBe(2);
    expect((await run("query", "httpx", "q", "--limit", "zero")).code).toBe(2);
    expect((await run("--help")).code).toBe(0);
  });

  describe("bad input: a clear error naming the file, exit 1, nothing imported", () => {
    const cases: [string, string | Buffer, string][] = [
      ["malformed.json", '{"nodes": [\n  {"id": "a"},\n  {"id": }\n]}', "malformed.json: line 3, column 10"],
      ["types.json", '{"nodes": [{"id": "a", "label": 7}], "links": []}', '"label" must be a string'],
      ["dangling.json", '{"nodes": [{"id": "a"}], "links": [{"source": "a", "target": "b"}]}', 'refers to unknown node "b"'],
      ["dupes.json", '{"nodes": [{"id": "a"}, {"id": "a"}], "links": []}', 'duplicate node id "a"'],
      ["empty.json", "", "the file is empty"],
      ["empty.txt", "", "no triples found"],
      ["latin1.txt", Buffer.from([0x61, 0x7c, 0x72, 0x7c, 0xe9, 0x0a]), "not valid UTF-8 (first bad byte at offset 4)"],
      ["short.tsv", "a\tb\tc\nd\te\n", "line 2: expected 3 tab-separated fields"],
    ];
    it.each(cases)("%s", async (file, content, message) => {
      const p = path.join(tmp, file);
      fs.writeFileSync(p, content);
      const before = (await runJson<unknown[]>("graphs")).length;
      const r = await run("import", p, "--name", `bad-${file.replace(/\W/g, "")}`);
      expect(r.code).toBe(1);
      expect(r.err).toContain(file);
      expect(r.err).toContain(message);
      expect((await runJson<unknown[]>("graphs")).length).toBe(before);
    });

    it("refuses files over 512 MiB without reading them", async () => {
      const p = path.join(tmp, "huge.json");
      fs.closeSync(fs.openSync(p, "w"));
      fs.truncateSync(p, 512 * 1024 * 1024 + 1);
      const r = await run("import", p);
      expect(r.code).toBe(1);
      expect(r.err).toContain("over the 512 MiB import limit");
      expect(r.err).toContain("files over 512 MiB are supported as triple files");
      fs.rmSync(p);
    });

    it("streams a triple file of any size, refusing a line with no end without holding it", async () => {
      // 600 MiB of a sparse file: one "line" of NUL characters, never read whole.
      const p = path.join(tmp, "huge.tsv");
      fs.writeFileSync(p, "a\tr\tb\n");
      fs.truncateSync(p, 600 * 1024 * 1024);
      const r = await run("import", p, "--name", "huge-line");
      expect(r.code).toBe(1);
      expect(r.err).toContain(`${p}: line 2 is over 1,048,576 characters with no line break`);
      fs.rmSync(p);
    });

    it("rolls back everything when the database fails half-way", async () => {
      // A trigger makes the last edge insert fail after the graph, nodes and earlier edges were written.
      const sql = getSql();
      if (sql.dialect === "sqlite") {
        await sql.execute(`CREATE TRIGGER boom BEFORE INSERT ON "Edge" WHEN NEW.relation = 'boom' BEGIN SELECT RAISE(ABORT, 'boom'); END`);
      } else {
        await sql.execute(
          `CREATE FUNCTION boom() RETURNS trigger AS $$ BEGIN IF NEW.relation = 'boom' THEN RAISE EXCEPTION 'boom'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`,
        );
        await sql.execute(`CREATE TRIGGER boom BEFORE INSERT ON "Edge" FOR EACH ROW EXECUTE FUNCTION boom()`);
      }
      const p = path.join(tmp, "boom.txt");
      fs.writeFileSync(p, "a|r|b\nb|r|c\nc|boom|d\n");
      const r = await run("import", p, "--name", "boom");
      await sql.execute(sql.dialect === "sqlite" ? "DROP TRIGGER boom" : `DROP TRIGGER boom ON "Edge"`);
      expect(r.code).toBe(1);
      expect(await sql.get(`SELECT COUNT(*) AS "n" FROM "Graph" WHERE "name" = 'boom'`)).toEqual({ n: 0 });
      expect(await sql.get(`SELECT COUNT(*) AS "n" FROM "Node" WHERE "nodeId" = 'c'`)).toEqual({ n: 0 });
    });
  });

  it("never reads source files outside the project root", async () => {
    const project = path.join(tmp, "project");
    fs.mkdirSync(path.join(project, "src"), { recursive: true });
    fs.writeFileSync(path.join(project, "src", "ok.py"), "def ok():\n    pass\n");
    const secret = path.join(tmp, "secret.txt");
    fs.writeFileSync(secret, "TOP SECRET");
    fs.symlinkSync(secret, path.join(project, "src", "link.py"));
    const graph = {
      directed: false,
      multigraph: false,
      graph: {},
      nodes: [
        { id: "ok", label: "ok()", source_file: "src/ok.py", source_location: "L1" },
        { id: "up", label: "up", source_file: "../secret.txt" },
        { id: "abs", label: "abs", source_file: secret },
        { id: "link", label: "link", source_file: "src/link.py" },
      ],
      links: [],
    };
    fs.writeFileSync(path.join(project, "graph.json"), JSON.stringify(graph, null, 2));
    const report = await runJson<{ documents: number; corpus: { missing: string[] } }>("import", path.join(project, "graph.json"), "--name", "confined");
    expect(report.documents).toBe(1);
    expect(report.corpus.missing.sort()).toEqual(["../secret.txt", secret, "src/link.py"].sort());
    const texts = await getSql().query<{ text: string }>(`SELECT d."text" FROM "Document" d JOIN "Graph" g ON g."id" = d."graphId" WHERE g."name" = 'confined'`);
    expect(texts.map((t) => t.text).join()).not.toContain("TOP SECRET");
  });
});
