import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../../errors";
import { getSql } from "../db/sql";
import type { TestDatabase } from "../db/test-database";
import { useTestDatabase } from "../db/test-database";
import { getProvider } from "./index";
import { checkLlmConnection } from "./check-connection";
import { describeLlmSettings, getEffectiveLlmSettings, saveLlmSettings } from "./settings-store";
import type { TestLlmServer } from "./test-llm-server";
import { completion, startTestLlmServer } from "./test-llm-server";

let db: TestDatabase;
let server: TestLlmServer;
const saved = { ...process.env };

beforeAll(async () => {
  db = await useTestDatabase("settings");
  for (const k of Object.keys(process.env)) if (k.startsWith("REFINERY_LLM_")) delete process.env[k];
  process.env.REFINERY_LLM_API_KEY = "sk-secret-from-env";
  server = await startTestLlmServer({ handler: () => completion("<judge>No</judge>", { model: "served-model" }) });
});

afterAll(async () => {
  await server.close();
  await db.cleanup();
  process.env = saved;
});

describe("LLM settings page storage", () => {
  it("defaults to the offline heuristic provider", async () => {
    const view = await describeLlmSettings();
    expect(view.effective.provider).toBe("heuristic");
    expect(view.overridden).toEqual([]);
    expect((await getProvider()).isLlm).toBe(false);
  });

  it("refuses invalid values and writes nothing", async () => {
    await expect(saveLlmSettings({ provider: "openai" })).rejects.toThrow(AppError);
    await expect(saveLlmSettings({ provider: "openai", baseUrl: "ftp://x", model: "m" })).rejects.toThrow(/http\(s\) URL/);
    await expect(saveLlmSettings({ timeoutMs: "-1" })).rejects.toThrow(/Timeout \(ms\) must be an integer/);
    expect((await describeLlmSettings()).overridden).toEqual([]);
  });

  it("switches runs to an OpenAI-compatible server, keeps the key out of the database, and checks the connection", async () => {
    const view = await saveLlmSettings({ provider: "openai", baseUrl: server.url, model: "deeprefine-8b", temperature: "0.2" });
    expect(view.effective).toMatchObject({ provider: "openai", model: "deeprefine-8b", temperature: 0.2, hasApiKey: true });
    expect(view.overridden.sort()).toEqual(["baseUrl", "model", "provider", "temperature"]);
    expect(view.apiKeySource).toBe("environment");
    expect(JSON.stringify(view)).not.toContain("sk-secret");
    const rows = await getSql().query<{ value: string }>(`SELECT "value" FROM "Setting"`);
    expect(rows.map((r) => r.value).join()).not.toContain("sk-secret");

    expect((await getProvider()).name).toBe("openai");
    const check = await checkLlmConnection();
    expect(check).toMatchObject({ ok: true, provider: "openai", model: "served-model" });
    expect(check.detail).toContain("<judge>No</judge>");
    expect(server.requests.at(-1)?.headers.authorization).toBe("Bearer sk-secret-from-env");

    await saveLlmSettings({ provider: null, baseUrl: null, model: "", temperature: null });
    expect((await getEffectiveLlmSettings()).provider).toBe("heuristic");
  });
});
