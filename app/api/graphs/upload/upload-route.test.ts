/**
 * POST /api/graphs/upload with a real session: a graphify project as a .zip or as a folder's
 * files keeps its source files (the review can quote them), graph.json alone has none, and an
 * unsafe archive is refused with nothing imported. Fixture: the bundled demo project (demo/httpx).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ImportReport } from "@/components/api/types";
import { createTestUser, signInHeaders } from "@/lib/server/auth/test-support";
import { findGraphs } from "@/lib/server/graphs/graph-store";
import type { TestDatabase } from "@/lib/server/db/test-database";
import { useTestDatabase } from "@/lib/server/db/test-database";
import { buildZip } from "@/lib/server/graphs/upload/zip-test-support";
import { POST } from "./route";

const demo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..", "demo", "httpx");
const projectFiles = ["graph.json", ...fs.readdirSync(path.join(demo, "raw")).map((f) => `raw/${f}`)];
let db: TestDatabase;

beforeAll(async () => {
  db = await useTestDatabase("upload-route");
  await createTestUser({ username: "ada", role: "admin" });
});

afterAll(async () => {
  await db.cleanup();
});

async function upload(form: FormData): Promise<{ status: number; body: ImportReport & { error?: { code: string; message: string } } }> {
  const res = await POST(new Request("http://localhost/api/graphs/upload", { method: "POST", body: form, headers: await signInHeaders("ada") }));
  return { status: res.status, body: (await res.json()) as ImportReport & { error?: { code: string; message: string } } };
}

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
