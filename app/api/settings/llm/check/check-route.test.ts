/**
 * POST /api/settings/llm/check tests the values it is sent (the settings form's, unsaved), not
 * the saved ones, and saves nothing; without a body it tests the saved settings.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/server/db/db";
import { createTestUser, signInHeaders } from "@/lib/server/auth/test-support";
import { useTestDatabase } from "@/lib/server/db/test-database";
import type { TestDatabase } from "@/lib/server/db/test-database";
import { POST } from "./route";

let db: TestDatabase;
let server: http.Server;
let baseUrl = "";
const requests: { model?: string }[] = [];
const saved = { ...process.env };

beforeAll(async () => {
  db = await useTestDatabase("settings-check");
  for (const k of Object.keys(process.env)) if (k.startsWith("REFINERY_LLM_")) delete process.env[k];
  await createTestUser({ username: "ada", role: "admin" });
  // A real OpenAI-compatible endpoint on a local port: what a person would type into the form.
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      requests.push(JSON.parse(body) as { model?: string });
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ model: "form-model", choices: [{ index: 0, message: { role: "assistant", content: "Yes, connected." }, finish_reason: "stop" }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await db.cleanup();
  process.env = saved;
});

const check = async (body?: unknown) =>
  POST(
    new Request("http://refinery.test/api/settings/llm/check", {
      method: "POST",
      headers: { "content-type": "application/json", ...(await signInHeaders("ada")) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );

describe("POST /api/settings/llm/check", () => {
  it("without a body tests the saved settings (the offline heuristic here)", async () => {
    const res = await check();
    expect(res.status).toBe(200);
    expect(((await res.json()) as { ok: boolean; provider: string }).provider).toBe("heuristic");
    expect(requests).toHaveLength(0);
  });

  it("with the form's values calls the server they name, and saves nothing", async () => {
    const res = await check({ provider: "openai", baseUrl, model: "form-model", timeoutMs: "5000", maxRetries: "0" });
    expect(res.status).toBe(200);
    const result = (await res.json()) as { ok: boolean; provider: string; detail: string };
    expect(result.ok).toBe(true);
    expect(result.detail).toContain("Yes, connected.");
    expect(requests.map((r) => r.model)).toEqual(["form-model"]);
    expect(await getDb().setting.count()).toBe(0);
  });

  it("refuses invalid form values as a save would", async () => {
    const res = await check({ provider: "openai", baseUrl, model: "m", timeoutMs: "-1" });
    expect(res.status).toBe(400);
  });
});
