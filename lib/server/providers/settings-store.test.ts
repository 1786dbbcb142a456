import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../../errors";
import { closeSqlite, getSqlite } from "../sqlite";
import { getProvider } from "./index";
import { checkLlmConnection, describeLlmSettings, getEffectiveLlmSettings, saveLlmSettings } from "./settings-store";
import type { TestLlmServer } from "./test-llm-server";
import { completion, startTestLlmServer } from "./test-llm-server";

let tmp: string;
let server: TestLlmServer;
const saved = { ...process.env };

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "refinery-settings-"));
  process.env.DATABASE_URL = `file:${path.join(tmp, "s.db")}`;
  for (const k of Object.keys(process.env)) if (k.startsWith("REFINERY_LLM_")) delete process.env[k];
  process.env.REFINERY_LLM_API_KEY = "sk-secret-from-env";
  server = await startTestLlmServer({ handler: () => completion("<judge>No</judge>", { model: "served-model" }) });
});

afterAll(async () => {
  await server.close();
  closeSqlite();
  process.env = saved;
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("LLM settings page storage", () => {
  it("defaults to the offline heuristic provider", () => {
    const view = describeLlmSettings();
    expect(view.effective.provider).toBe("heuristic");
    expect(view.overridden).toEqual([]);
    expect(getProvider().isLlm).toBe(false);
  });

  it("refuses invalid values and writes nothing", () => {
    expect(() => saveLlmSettings({ provider: "openai" })).toThrow(AppError);
    expect(() => saveLlmSettings({ provider: "openai", baseUrl: "ftp://x", model: "m" })).toThrow(/http\(s\) URL/);
    expect(() => saveLlmSettings({ timeoutMs: "-1" })).toThrow(/Timeout \(ms\) must be an integer/);
    expect(describeLlmSettings().overridden).toEqual([]);
  });

  it("switches runs to an OpenAI-compatible server, keeps the key out of the database, and checks the connection", async () => {
    const view = saveLlmSettings({ provider: "openai", baseUrl: server.url, model: "deeprefine-8b", temperature: "0.2" });
    expect(view.effective).toMatchObject({ provider: "openai", model: "deeprefine-8b", temperature: 0.2, hasApiKey: true });
    expect(view.overridden.sort()).toEqual(["baseUrl", "model", "provider", "temperature"]);
    expect(view.apiKeySource).toBe("environment");
    expect(JSON.stringify(view)).not.toContain("sk-secret");
    const rows = getSqlite().prepare(`SELECT value FROM "Setting"`).all() as { value: string }[];
    expect(rows.map((r) => r.value).join()).not.toContain("sk-secret");

    expect(getProvider().name).toBe("openai");
    const check = await checkLlmConnection();
    expect(check).toMatchObject({ ok: true, provider: "openai", model: "served-model" });
    expect(check.detail).toContain("<judge>No</judge>");
    expect(server.requests.at(-1)?.headers.authorization).toBe("Bearer sk-secret-from-env");

    saveLlmSettings({ provider: null, baseUrl: null, model: "", temperature: null });
    expect(getEffectiveLlmSettings().provider).toBe("heuristic");
  });
});
