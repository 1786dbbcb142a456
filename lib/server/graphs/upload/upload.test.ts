/**
 * Upload safety and streaming: a multipart body is received to disk as it arrives
 * (receive-upload.ts) — split anywhere, the parts come out byte for byte; graphify JSON and
 * projects stop at the limit over a real HTTP connection (413, the rest never read) while a
 * triple file has none; a body cut off or a client gone mid-body leaves no temporary folder.
 * Unpacking refuses zip-slip names, absolute paths, symbolic links, too many entries and zip
 * bombs, writing nothing outside its folder.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { isAppError } from "../../../errors";
import type { ReceivedUpload } from "./receive-upload";
import { boundaryOf, receiveUpload } from "./receive-upload";
import { findProjectFolder, placeFolderFiles, unpackZip } from "./unpack-project";
import { buildZip } from "./zip-test-support";

const LIMIT = 1024 * 1024;
const BOUNDARY = "----refinery-test-7d1f";
let tempRoot: string;
let server: http.Server;
let port = 0;
let bytesReadByServer = 0;
/** Whoever waits for the next request's outcome (what the server's receiveUpload ended with). */
const waiting: ((outcome: string) => void)[] = [];
const nextOutcome = () => new Promise<string>((resolve) => waiting.push(resolve));

const sha = (data: Uint8Array | string) => createHash("sha256").update(data).digest("hex");
const leftovers = () => fs.readdirSync(tempRoot);

interface Summary {
  fields: Record<string, string[]>;
  files: { field: string; name: string; bytes: number; sha: string }[];
}

function summarize(upload: ReceivedUpload): Summary {
  return {
    fields: Object.fromEntries(upload.fields),
    files: upload.files.map((f) => ({ field: f.field, name: f.name, bytes: f.bytes, sha: sha(fs.readFileSync(f.file)) })),
  };
}

beforeAll(async () => {
  tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), "refinery-receive-test-"));
  server = http.createServer((req, res) => {
    let seen = 0;
    // The request stream itself as the body, as Next.js hands it to a route (read as it is pulled).
    async function* counted() {
      for await (const chunk of req) {
        seen += (chunk as Buffer).length;
        yield chunk as Buffer;
      }
    }
    const request = new Request(`http://localhost${req.url}`, { method: "POST", headers: req.headers as Record<string, string>, body: Readable.from(counted()), duplex: "half" } as unknown as RequestInit);
    const settle = waiting.shift() ?? (() => {});
    receiveUpload(request, { limitBytes: LIMIT, tempRoot }).then(
      (upload) => {
        const summary = summarize(upload);
        upload.remove();
        settle("received");
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(summary));
      },
      (e: unknown) => {
        bytesReadByServer = seen;
        settle(isAppError(e) ? e.code : `not an AppError: ${(e as Error).message}`);
        const status = isAppError(e) && e.code === "TOO_LARGE" ? 413 : 400;
        if (res.writable) res.writeHead(status, { "content-type": "application/json", connection: "close" }).end(JSON.stringify({ error: { code: isAppError(e) ? e.code : "INTERNAL", message: (e as Error).message } }));
        req.destroy();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(tempRoot, { recursive: true, force: true });
});

type Part = { name: string; fileName?: string; data: Uint8Array | string };

function partHead(p: Part): string {
  const disposition = `form-data; name="${p.name}"${p.fileName !== undefined ? `; filename="${p.fileName}"` : ""}`;
  return `--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${p.fileName !== undefined ? "Content-Type: application/octet-stream\r\n" : ""}\r\n`;
}

function multipart(parts: Part[], { close = true } = {}): Buffer {
  const pieces: Buffer[] = [];
  for (const p of parts) pieces.push(Buffer.from(partHead(p)), Buffer.from(p.data), Buffer.from("\r\n"));
  if (close) pieces.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(pieces);
}

/** A Request whose body arrives in the given pieces (then ends, or errors as a client gone away does). */
function requestOf(pieces: Uint8Array[], { fail = false } = {}): Request {
  let i = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < pieces.length) controller.enqueue(pieces[i++]);
      else if (fail) controller.error(new Error("aborted"));
      else controller.close();
    },
  });
  return new Request("http://localhost/upload", { method: "POST", headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` }, body, duplex: "half" } as RequestInit);
}

/** Deterministic pseudo-random piece sizes (1..max bytes). */
function split(body: Buffer, seed: number, max: number): Buffer[] {
  const pieces: Buffer[] = [];
  let x = seed;
  for (let at = 0; at < body.length; ) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const n = 1 + (x % max);
    pieces.push(body.subarray(at, at + n));
    at += n;
  }
  return pieces;
}

const outcome = async (p: Promise<ReceivedUpload>) => {
  try {
    (await p).remove();
    return "received";
  } catch (e) {
    return isAppError(e) ? e.code : `not an AppError: ${(e as Error).message}`;
  }
};

/** POSTs a multipart body with one file part of `totalBytes`, in 64 KiB chunks with Transfer-Encoding: chunked (no Content-Length). */
function postChunked(totalBytes: number, fileName: string, { abortAfter }: { abortAfter?: number } = {}): Promise<{ status: number; body: string; sent: number }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method: "POST", path: "/upload", headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}`, "transfer-encoding": "chunked" } });
    expect(req.getHeader("content-length")).toBeUndefined();
    let sent = 0;
    let stopped = false;
    req.on("response", (res) => {
      stopped = true;
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, sent }));
    });
    req.on("error", (e) => (stopped ? undefined : reject(e)));
    req.write(partHead({ name: "name", data: "" }) + "big\r\n" + partHead({ name: "file", fileName, data: "" }));
    const chunk = Buffer.alloc(64 * 1024, "# padding line\n");
    const pump = () => {
      while (!stopped && sent < totalBytes) {
        if (abortAfter !== undefined && sent >= abortAfter) {
          // The client goes away mid-body: the socket closes with the body unfinished.
          stopped = true;
          req.destroy();
          resolve({ status: 0, body: "", sent });
          return;
        }
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!stopped) req.end(`\r\n--${BOUNDARY}--\r\n`);
    };
    pump();
  });
}

describe("receiveUpload", () => {
  afterEach(() => {
    expect(leftovers()).toEqual([]);
  });

  it("writes every part byte for byte, however the body is split", async () => {
    // File data that looks like the start of a delimiter, a header end and a boundary without its CRLF.
    const tricky = Buffer.concat([Buffer.from(`a|b|c\r\n--${BOUNDARY.slice(0, 9)}\r\n\r\n--${BOUNDARY.slice(0, -1)}`), Buffer.from([0, 0xff, 0x0d, 0x0a, 0x2d]), Buffer.from(`\r\n-\r\n--`)]);
    const binary = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7919) % 256));
    const parts: Part[] = [
      { name: "name", data: "my graph" },
      { name: "files", fileName: "g/graph.json", data: tricky },
      { name: "paths", data: "g/graph.json" },
      { name: "files", fileName: "empty.txt", data: "" },
      { name: "paths", data: "g/raw/empty.txt" },
      { name: "files", fileName: "bin", data: binary },
      { name: "paths", data: "g/raw/bin" },
    ];
    const body = Buffer.concat([Buffer.from("a preamble to ignore\r\n"), multipart(parts), Buffer.from("an epilogue to ignore")]);
    const expected: Summary = {
      fields: { name: ["my graph"], paths: ["g/graph.json", "g/raw/empty.txt", "g/raw/bin"] },
      files: [
        { field: "files", name: "g/graph.json", bytes: tricky.length, sha: sha(tricky) },
        { field: "files", name: "empty.txt", bytes: 0, sha: sha("") },
        { field: "files", name: "bin", bytes: binary.length, sha: sha(binary) },
      ],
    };
    for (const [seed, max] of [[1, 1], [2, 3], [3, 17], [4, 64], [5, 4096], [6, body.length]] as const) {
      const upload = await receiveUpload(requestOf(split(body, seed, max)), { tempRoot });
      expect(summarize(upload), `pieces of 1..${max} bytes`).toEqual(expected);
      upload.remove();
    }
  });

  it("reads the boundary from the content type, quoted or not", () => {
    expect(boundaryOf(`multipart/form-data; boundary=${BOUNDARY}`)).toBe(BOUNDARY);
    expect(boundaryOf('multipart/form-data; charset=utf-8; boundary="a b:c"')).toBe("a b:c");
    expect(boundaryOf("application/json")).toBeNull();
    expect(boundaryOf("multipart/form-data")).toBeNull();
  });

  it("refuses a body cut off before its closing boundary, leaving nothing behind", async () => {
    const whole = multipart([{ name: "file", fileName: "kb.txt", data: "a|b|c\n".repeat(1000) }]);
    for (const cut of [10, 80, whole.length - 40, whole.length - 3]) {
      expect(await outcome(receiveUpload(requestOf([whole.subarray(0, cut)]), { tempRoot })), `cut at ${cut}`).toBe("INVALID_INPUT");
    }
    // No closing boundary at all, though the last part is complete.
    expect(await outcome(receiveUpload(requestOf([multipart([{ name: "file", fileName: "kb.txt", data: "a|b|c\n" }], { close: false })]), { tempRoot }))).toBe("INVALID_INPUT");
  });

  it("removes the folder when the body stream fails mid-file (a client gone away)", async () => {
    const whole = multipart([{ name: "file", fileName: "kb.txt", data: "a|b|c\n".repeat(100_000) }]);
    expect(await outcome(receiveUpload(requestOf(split(whole.subarray(0, whole.length / 2), 9, 65536), { fail: true }), { tempRoot }))).toBe("INVALID_INPUT");
  });

  it("refuses a part without a field name and a field over 64 KiB", async () => {
    const noName = Buffer.from(`--${BOUNDARY}\r\nContent-Type: text/plain\r\n\r\nx\r\n--${BOUNDARY}--\r\n`);
    expect(await outcome(receiveUpload(requestOf([noName]), { tempRoot }))).toBe("INVALID_INPUT");
    expect(await outcome(receiveUpload(requestOf([multipart([{ name: "name", data: "x".repeat(65 * 1024) }])]), { tempRoot }))).toBe("TOO_LARGE");
  });

  it("limits graphify JSON, a .zip (by name or by its bytes) and a folder, never a triple file", async () => {
    const big = "a|b|c\n".repeat(Math.ceil((2 * LIMIT) / 6));
    const zipBytes = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(2 * LIMIT)]);
    const receive = (parts: Part[]) => outcome(receiveUpload(requestOf(split(multipart(parts), 7, 65536)), { tempRoot, limitBytes: LIMIT }));
    expect(await receive([{ name: "file", fileName: "graph.json", data: big }])).toBe("TOO_LARGE");
    expect(await receive([{ name: "file", fileName: "project.zip", data: big }])).toBe("TOO_LARGE");
    expect(await receive([{ name: "file", fileName: "kb.txt", data: zipBytes }])).toBe("TOO_LARGE");
    expect(await receive([{ name: "format", data: "graphify" }, { name: "file", fileName: "kb.txt", data: big }])).toBe("TOO_LARGE");
    const half = "a|b|c\n".repeat(Math.ceil(LIMIT / 2 / 6) + 1);
    expect(await receive([{ name: "files", fileName: "a.py", data: half }, { name: "files", fileName: "b.py", data: half }])).toBe("TOO_LARGE");
    expect(await receive([{ name: "file", fileName: "kb.txt", data: big }])).toBe("received");
    expect(await receive([{ name: "format", data: "triples" }, { name: "file", fileName: "graph.json", data: big }])).toBe("received");
  });
});

describe("receiveUpload over HTTP", () => {
  afterEach(() => {
    expect(leftovers()).toEqual([]);
  });

  it("answers 413 to a chunked graph.json upload past the limit and stops reading it", async () => {
    const { status, body, sent } = await postChunked(64 * LIMIT, "graph.json");
    expect(status).toBe(413);
    expect((JSON.parse(body) as { error: { message: string } }).error.message).toMatch(/over the 1 MiB upload limit/);
    // The server read about the limit (plus what was in flight), not 64 MiB.
    expect(bytesReadByServer).toBeLessThan(4 * LIMIT);
    expect(sent).toBeLessThan(64 * LIMIT);
  });

  it("receives a chunked triple file far past that limit, whole", async () => {
    const { status, body } = await postChunked(8 * LIMIT, "kb.txt");
    expect(status).toBe(200);
    const summary = JSON.parse(body) as Summary;
    expect(summary.fields).toEqual({ name: ["big"] });
    expect(summary.files.map((f) => [f.field, f.name, f.bytes])).toEqual([["file", "kb.txt", 8 * LIMIT]]);
    const chunk = Buffer.alloc(64 * 1024, "# padding line\n");
    expect(summary.files[0]?.sha).toBe(sha(Buffer.concat(Array.from({ length: 128 }, () => chunk))));
  });

  it("removes what it received when the client goes away mid-body", async () => {
    const outcome = nextOutcome();
    const { sent } = await postChunked(64 * LIMIT, "kb.txt", { abortAfter: 2 * LIMIT });
    expect(sent).toBeLessThan(64 * LIMIT);
    expect(await outcome).toBe("INVALID_INPUT");
  });
});

describe("unpacking an upload", () => {
  const dirs: string[] = [];
  const fresh = () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), "refinery-unpack-test-"));
    dirs.push(d);
    return d;
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });
  const code = async (p: Promise<unknown>) => {
    try {
      await p;
      return "resolved";
    } catch (e) {
      return isAppError(e) ? e.code : `not an AppError: ${(e as Error).message}`;
    }
  };

  it("unpacks a project zip and finds graph.json inside its top folder", async () => {
    const dir = fresh();
    const zip = buildZip([
      { name: "httpx/" },
      { name: "httpx/graph.json", data: '{"nodes":[],"links":[]}', deflate: true },
      { name: "httpx/raw/client.py", data: "class Client: pass\n" },
    ]);
    expect(await unpackZip({ bytes: zip, dir })).toEqual({ files: 2, bytes: 42 });
    expect(findProjectFolder(dir)).toBe(path.join(dir, "httpx"));
    expect(fs.readFileSync(path.join(dir, "httpx", "raw", "client.py"), "utf8")).toBe("class Client: pass\n");
  });

  it.each([
    ["zip-slip", "../../evil.py"],
    ["zip-slip inside", "httpx/../../evil.py"],
    ["absolute", "/tmp/evil.py"],
    ["drive letter", "C:/evil.py"],
    ["backslashes", "..\\evil.py"],
  ])("refuses a %s name and writes nothing outside", async (_, name) => {
    const dir = fresh();
    expect(await code(unpackZip({ bytes: buildZip([{ name, data: "x" }]), dir }))).toBe("INVALID_INPUT");
    expect(fs.existsSync(path.join(dir, "..", "evil.py"))).toBe(false);
    expect(fs.existsSync(path.join(path.dirname(dir), "..", "evil.py"))).toBe(false);
  });

  it("refuses symbolic links", async () => {
    const dir = fresh();
    const zip = buildZip([{ name: "raw/passwd", data: "/etc/passwd", mode: 0o120777 }]);
    expect(await code(unpackZip({ bytes: zip, dir }))).toBe("INVALID_INPUT");
    expect(fs.existsSync(path.join(dir, "raw", "passwd"))).toBe(false);
  });

  it("refuses more entries than the limit", async () => {
    const zip = buildZip(Array.from({ length: 11 }, (_, i) => ({ name: `f${i}.txt`, data: "x" })));
    expect(await code(unpackZip({ bytes: zip, dir: fresh(), limits: { maxEntries: 10, maxBytes: LIMIT } }))).toBe("TOO_LARGE");
  });

  it("stops a zip bomb: declared too big, or inflating past what it declares", async () => {
    const zeros = new Uint8Array(8 * LIMIT);
    const honest = buildZip([{ name: "bomb.txt", data: zeros, deflate: true }]);
    expect(honest.length).toBeLessThan(LIMIT / 10);
    expect(await code(unpackZip({ bytes: honest, dir: fresh(), limits: { maxEntries: 10, maxBytes: LIMIT } }))).toBe("TOO_LARGE");
    const lying = buildZip([{ name: "bomb.txt", data: zeros, deflate: true, declaredSize: 100 }]);
    const dir = fresh();
    expect(await code(unpackZip({ bytes: lying, dir, limits: { maxEntries: 10, maxBytes: LIMIT } }))).not.toBe("resolved");
    expect(fs.statSync(path.join(dir, "bomb.txt")).size).toBeLessThanOrEqual(LIMIT + 64 * 1024);
  });

  it("unpacks a zip file on disk, as an upload is received", async () => {
    const dir = fresh();
    const file = path.join(dir, "upload.zip");
    fs.writeFileSync(file, buildZip([{ name: "p/graph.json", data: '{"nodes":[],"links":[]}', deflate: true }]));
    expect(await unpackZip({ file, dir: path.join(dir, "out") })).toEqual({ files: 1, bytes: 23 });
    expect(findProjectFolder(path.join(dir, "out"))).toBe(path.join(dir, "out", "p"));
  });

  it("refuses a folder upload's climbing path and a name sent twice", () => {
    const dir = fresh();
    const received = (n: number) => {
      const f = path.join(dir, `part-${n}`);
      fs.writeFileSync(f, "x");
      return f;
    };
    const thrown = (run: () => void) => {
      try {
        run();
      } catch (e) {
        return isAppError(e) ? e.code : String(e);
      }
      return "no error";
    };
    expect(thrown(() => placeFolderFiles({ files: [{ path: "httpx/../../evil.py", file: received(0) }], dir: path.join(dir, "a") }))).toBe("INVALID_INPUT");
    expect(fs.existsSync(path.join(dir, "..", "evil.py"))).toBe(false);
    expect(thrown(() => placeFolderFiles({ files: [{ path: "p/x.py", file: received(1) }, { path: "p//x.py", file: received(2) }], dir: path.join(dir, "b") }))).toBe("INVALID_INPUT");
  });
});
