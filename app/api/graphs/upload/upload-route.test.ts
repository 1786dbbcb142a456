/**
 * POST /api/graphs/upload with a real session: a graphify project as a .zip or as a folder's
 * files keeps its source files (the review can quote them), graph.json alone has none, and an
 * unsafe archive is refused with nothing imported. A triple file is received to disk as it
 * arrives and imported through the streamed path import, with progress from its first byte
 * (GET /api/graphs/imports): 600 MiB of it goes through in flat memory; a body cut off, a
 * client gone mid-body or bad UTF-8 import nothing and leave no temporary file. Fixture: the
 * bundled demo project (demo/httpx); the big upload is generated as it is sent.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ImportReport } from "@/components/api/types";
import { createTestUser, signInHeaders } from "@/lib/server/auth/test-support";
import { findGraphs, loadGraph } from "@/lib/server/graphs/graph-store";
import { importsInProgress } from "@/lib/server/graphs/import-graph";
import type { TestDatabase } from "@/lib/server/db/test-database";
import { useTestDatabase } from "@/lib/server/db/test-database";
import { buildZip } from "@/lib/server/graphs/upload/zip-test-support";
import { POST } from "./route";

const demo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..", "demo", "httpx");
const projectFiles = ["graph.json", ...fs.readdirSync(path.join(demo, "raw")).map((f) => `raw/${f}`)];
const BOUNDARY = "----refinery-route-test-51c2";
let db: TestDatabase;
let uploadDir: string;
const previousUploadDir = process.env.REFINERY_UPLOAD_DIR;

beforeAll(async () => {
  db = await useTestDatabase("upload-route");
  await createTestUser({ username: "ada", role: "admin" });
  // Uploads are received here, so a test can tell that nothing was left behind.
  uploadDir = fs.mkdtempSync(path.join(os.tmpdir(), "refinery-upload-route-test-"));
  process.env.REFINERY_UPLOAD_DIR = uploadDir;
});

afterAll(async () => {
  if (previousUploadDir === undefined) delete process.env.REFINERY_UPLOAD_DIR;
  else process.env.REFINERY_UPLOAD_DIR = previousUploadDir;
  fs.rmSync(uploadDir, { recursive: true, force: true });
  await db.cleanup();
});

afterEach(() => {
  expect(fs.readdirSync(uploadDir), "temporary upload folders left behind").toEqual([]);
});

async function upload(form: FormData): Promise<{ status: number; body: ImportReport & { error?: { code: string; message: string } } }> {
  const res = await POST(new Request("http://localhost/api/graphs/upload", { method: "POST", body: form, headers: await signInHeaders("ada") }));
  return { status: res.status, body: (await res.json()) as ImportReport & { error?: { code: string; message: string } } };
}

type Answer = { status: number; body: ImportReport & { error?: { code: string; message: string } } };

/** A multipart body sent as a stream of pieces (name field first, as the upload form sends it); `fail`: the stream errors after them, as the body of a client gone away does. */
async function uploadStream(pieces: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, { fail = false } = {}): Promise<Answer> {
  const iterator = Symbol.asyncIterator in pieces ? pieces[Symbol.asyncIterator]() : pieces[Symbol.iterator]();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (!next.done) controller.enqueue(next.value);
      else if (fail) controller.error(new Error("aborted"));
      else controller.close();
    },
  });
  const headers = { ...(await signInHeaders("ada")), "content-type": `multipart/form-data; boundary=${BOUNDARY}` };
  const res = await POST(new Request("http://localhost/api/graphs/upload", { method: "POST", body, headers, duplex: "half" } as RequestInit));
  return { status: res.status, body: (await res.json()) as Answer["body"] };
}

const enc = new TextEncoder();
const fieldPart = (name: string, value: string) => enc.encode(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
const fileHead = (fileName: string) => enc.encode(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: text/plain\r\n\r\n`);
const closing = enc.encode(`\r\n--${BOUNDARY}--\r\n`);

/** Triple lines `s<i> r<i%5> s<i+1>` for i in [from, to). */
function tripleLines(from: number, to: number): string {
  let text = "";
  for (let i = from; i < to; i++) text += `s${i}\tr${i % 5}\ts${i + 1}\n`;
  return text;
}

describe("POST /api/graphs/upload, triple files streamed", () => {
  it("imports a triple file through the worker, with progress from the first byte", async () => {
    // ~1.5 MiB: over WORKER_MIN_BYTES, so it goes through the import worker as a path import does.
    const text = tripleLines(0, 70_000);
    expect(text.length).toBeGreaterThan(1024 * 1024);
    const seen: string[] = [];
    const pieces = async function* () {
      yield fieldPart("name", "streamed");
      yield fileHead("kb.tsv");
      for (let at = 0; at < text.length; at += 64 * 1024) {
        yield enc.encode(text.slice(at, at + 64 * 1024));
        for (const p of importsInProgress()) seen.push(`${p.name}: ${p.message}`);
      }
      yield closing;
    };
    const { status, body } = await uploadStream(pieces());
    expect(status, JSON.stringify(body)).toBe(201);
    expect(body.graph).toMatchObject({ name: "streamed", edges: 70_000, nodes: 70_001, sourcePath: null });
    expect(seen.some((line) => line.startsWith("streamed: receiving the upload"))).toBe(true);
    expect(importsInProgress()).toEqual([]);
    const { graph } = await loadGraph("streamed");
    expect([...graph.edges.values()].slice(0, 2).map((e) => [e.source, e.relation, e.target])).toEqual([
      ["s0", "r0", "s1"],
      ["s1", "r1", "s2"],
    ]);
  });

  it("refuses bad UTF-8, naming the file the client sent and the offset; nothing imported", async () => {
    const good = enc.encode(tripleLines(0, 100));
    const { status, body } = await uploadStream([fieldPart("name", "badutf8"), fileHead("bad.txt"), good, new Uint8Array([0x61, 0xc3, 0x28, 0x0a]), closing]);
    expect(status).toBe(400);
    expect(body.error?.code).toBe("PARSE_ERROR");
    expect(body.error?.message).toMatch(new RegExp(`^bad\\.txt: not valid UTF-8 \\(first bad byte at offset ${good.length + 1}\\)`));
    expect((await findGraphs()).map((g) => g.name)).not.toContain("badutf8");
  });

  it("imports nothing from a body cut off before its end", async () => {
    const { status, body } = await uploadStream([fieldPart("name", "cut"), fileHead("kb.txt"), enc.encode(tripleLines(0, 1000))]);
    expect(status).toBe(400);
    expect(body.error?.message).toMatch(/cut off/);
    expect((await findGraphs()).map((g) => g.name)).not.toContain("cut");
  });

  it("imports nothing when the client goes away mid-body", async () => {
    const { status } = await uploadStream([fieldPart("name", "gone"), fileHead("kb.txt"), enc.encode(tripleLines(0, 50_000))], { fail: true });
    expect(status).toBe(400);
    expect((await findGraphs()).map((g) => g.name)).not.toContain("gone");
    expect(importsInProgress()).toEqual([]);
  });

  it("takes a 600 MiB triple file in flat memory", async () => {
    // Generated as it is sent: 600 blocks of 1 MiB, each 10 triples and comment lines of padding.
    const BLOCKS = 600;
    const MIB = 1024 * 1024;
    const padLine = `# ${"x".repeat(1021)}\n`;
    const padding = enc.encode(padLine.repeat(Math.ceil(MIB / padLine.length))).subarray(0, MIB);
    let peakRss = 0;
    const rss0 = process.memoryUsage().rss;
    const messages = new Set<string>();
    const sample = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
      for (const p of importsInProgress()) messages.add(p.message.replace(/\d[\d,.]*/g, "N"));
    }, 25);
    const pieces = async function* () {
      yield fieldPart("name", "big");
      yield fileHead("big.tsv");
      for (let b = 0; b < BLOCKS; b++) {
        // Each block is 1 MiB of its own memory (a server that kept the body would keep it all):
        // its triples, then comment lines of padding, the last one cut to fit.
        const block = new Uint8Array(MIB);
        const triples = enc.encode(tripleLines(b * 10, b * 10 + 10));
        block.set(triples);
        block.set(padding.subarray(0, MIB - triples.length), triples.length);
        block[MIB - 1] = 0x0a;
        yield block;
      }
      yield closing;
    };
    try {
      const { status, body } = await uploadStream(pieces());
      expect(status, JSON.stringify(body)).toBe(201);
      expect(body.graph).toMatchObject({ name: "big", edges: BLOCKS * 10, nodes: BLOCKS * 10 + 1 });
    } finally {
      clearInterval(sample);
    }
    expect(messages).toContain("receiving the upload: N MiB so far");
    expect([...messages].some((m) => m.startsWith("streaming big.tsv (N MiB)"))).toBe(true);
    console.log(`600 MiB upload: RSS ${(rss0 / MIB).toFixed(0)} → peak ${(peakRss / MIB).toFixed(0)} MiB; progress lines: ${[...messages].join(" | ")}`);
    // Neither the body nor the file was ever held whole: 600 MiB went through.
    expect((peakRss - rss0) / MIB).toBeLessThan(300);
  }, 300_000);
});

describe("POST /api/graphs/upload", () => {
  it("imports a project .zip with its source files, recording no server path", async () => {
    const zip = buildZip(projectFiles.map((f) => ({ name: `httpx/${f}`, data: fs.readFileSync(path.join(demo, f)), deflate: true })));
    const form = new FormData();
    form.append("file", new File([new Uint8Array(zip)], "httpx.zip", { type: "application/zip" }));
    form.append("name", "zipped");
    const { status, body } = await upload(form);
    expect(status, JSON.stringify(body)).toBe(201);
    expect(body.graph.documents).toBe(6);
    expect(body.corpus.missing).toEqual([]);
    expect(body.graph.sourcePath).toBeNull();
  });

  it("imports a folder's files sent with their relative paths", async () => {
    const form = new FormData();
    for (const f of projectFiles) {
      form.append("files", new File([fs.readFileSync(path.join(demo, f))], path.basename(f)));
      form.append("paths", `httpx/${f}`);
    }
    const { status, body } = await upload(form);
    expect(status, JSON.stringify(body)).toBe(201);
    expect(body.graph.name).toBe("httpx");
    expect(body.graph.documents).toBe(6);
  });

  it("imports graph.json alone without source text", async () => {
    const form = new FormData();
    form.append("file", new File([fs.readFileSync(path.join(demo, "graph.json"))], "graph.json"));
    form.append("name", "alone");
    const { status, body } = await upload(form);
    expect(status).toBe(201);
    expect(body.graph.documents).toBe(0);
  });

  it("refuses a zip-slip archive and imports nothing", async () => {
    const zip = buildZip([
      { name: "graph.json", data: fs.readFileSync(path.join(demo, "graph.json")) },
      { name: "../../outside.py", data: "x = 1\n" },
    ]);
    const form = new FormData();
    form.append("file", new File([new Uint8Array(zip)], "evil.zip"));
    form.append("name", "evil");
    const { status, body } = await upload(form);
    expect(status).toBe(400);
    expect(body.error?.code).toBe("INVALID_INPUT");
    expect((await findGraphs()).map((g) => g.name)).not.toContain("evil");
  });

  it("refuses a folder upload whose paths do not match its files", async () => {
    const form = new FormData();
    form.append("files", new File(["{}"], "graph.json"));
    const { status, body } = await upload(form);
    expect(status).toBe(400);
    expect(body.error?.message).toMatch(/one 'paths' entry per file/);
  });
});
