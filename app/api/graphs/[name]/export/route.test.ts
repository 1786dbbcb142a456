/**
 * GET /api/graphs/{name}/export through the real handler: the body streams in several chunks
 * that join into the graph's graph.json byte for byte (plus a final newline), names the version,
 * and bad requests fail before any byte of the body.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestUser, signInHeaders } from "@/lib/server/auth/test-support";
import { importGraphFromPath } from "@/lib/server/graphs/import-graph";
import type { TestDatabase } from "@/lib/server/db/test-database";
import { useTestDatabase } from "@/lib/server/db/test-database";
import { dataPath, readData } from "@/lib/test/data";
import { GET } from "./route";

let db: TestDatabase;

const ctx = (name: string) => ({ params: Promise.resolve({ name }) });

async function get(name: string, query = "") {
  return GET(new Request(`http://localhost/api/graphs/${encodeURIComponent(name)}/export${query}`, { headers: await signInHeaders("vic") }), ctx(name));
}

beforeAll(async () => {
  db = await useTestDatabase("export-route");
  await importGraphFromPath({ path: dataPath("graphify", "rsl-siege-manager", "graph.json"), name: "rsl", format: "graphify" });
  await createTestUser({ username: "vic", role: "viewer" });
});

afterAll(async () => {
  await db.cleanup();
});

describe("GET /api/graphs/{name}/export", () => {
  it("streams graph.json in chunks that join into the imported file", async () => {
    const res = await get("rsl");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-refinery-version")).toBe("1");
    expect(res.headers.get("content-type")).toContain("application/json");
    const body = res.body;
    if (!body) throw new Error("no body");
    const reader = body.getReader();
    const parts: Uint8Array[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
    }
    expect(parts.length).toBeGreaterThan(10);
    expect(Buffer.concat(parts).toString("utf8")).toBe(readData("graphify", "rsl-siege-manager", "graph.json") + "\n");
  });

  it("answers a version that does not exist and an unknown graph with an error, not a body", async () => {
    const missing = await get("rsl", "?version=7");
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
    expect((await get("nosuch")).status).toBe(404);
    expect((await get("rsl", "?version=zero")).status).toBe(400);
  });
});
