/**
 * Upload safety: a chunked body without Content-Length stops at the limit over a real HTTP
 * connection (413, the rest never read), and unpacking refuses zip-slip names, absolute paths,
 * symbolic links, too many entries and zip bombs, writing nothing outside its folder.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { isAppError } from "../../../errors";
import { readUploadForm } from "./read-upload-form";
import { findProjectFolder, unpackZip, writeFolderFiles } from "./unpack-project";
import { buildZip } from "./zip-test-support";

const LIMIT = 1024 * 1024;
let server: http.Server;
let port = 0;
let bytesReadByServer = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let seen = 0;
    const counted = Readable.toWeb(req.on("data", (c: Buffer) => (seen += c.length))) as ReadableStream<Uint8Array>;
    const request = new Request(`http://localhost${req.url}`, { method: "POST", headers: req.headers as Record<string, string>, body: counted, duplex: "half" } as RequestInit);
    readUploadForm(request, LIMIT).then(
      (form) => {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ fields: [...form.keys()] }));
      },
      (e: unknown) => {
        bytesReadByServer = seen;
        const status = isAppError(e) && e.code === "TOO_LARGE" ? 413 : 400;
        res.writeHead(status, { "content-type": "application/json", connection: "close" }).end(JSON.stringify({ error: { code: isAppError(e) ? e.code : "INTERNAL", message: (e as Error).message } }));
        req.destroy();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** POSTs a multipart body in 64 KiB chunks with Transfer-Encoding: chunked (no Content-Length). */
function postChunked(totalBytes: number): Promise<{ status: number; body: string; sent: number }> {
  return new Promise((resolve, reject) => {
    const boundary = "----refinery-test";
    const req = http.request({ host: "127.0.0.1", port, method: "POST", path: "/upload", headers: { "content-type": `multipart/form-data; boundary=${boundary}`, "transfer-encoding": "chunked" } });
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
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="graph.json"\r\nContent-Type: application/json\r\n\r\n`);
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (!stopped && sent < totalBytes) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!stopped) req.end(`\r\n--${boundary}--\r\n`);
    };
    pump();
  });
}

describe("readUploadForm over HTTP", () => {
  it("answers 413 to a chunked upload past the limit and stops reading it", async () => {
    const { status, body, sent } = await postChunked(64 * LIMIT);
    expect(status).toBe(413);
    expect((JSON.parse(body) as { error: { message: string } }).error.message).toMatch(/over the 1 MiB upload limit/);
    // The server read about the limit (plus the form's allowance and what was in flight), not 64 MiB.
    expect(bytesReadByServer).toBeLessThan(4 * LIMIT);
    expect(sent).toBeLessThan(64 * LIMIT);
  });

  it("reads a chunked upload within the limit", async () => {
    const { status, body } = await postChunked(LIMIT / 4);
    expect(status).toBe(200);
    expect((JSON.parse(body) as { fields: string[] }).fields).toEqual(["file"]);
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

  it("refuses a folder upload's climbing path", () => {
    let thrown: unknown = null;
    try {
      writeFolderFiles({ files: [{ path: "httpx/../../evil.py", data: new Uint8Array([1]) }], dir: fresh() });
    } catch (e) {
      thrown = e;
    }
    expect(isAppError(thrown) && thrown.code).toBe("INVALID_INPUT");
  });
});
