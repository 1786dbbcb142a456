import { z } from "zod";
import { describeLlmSettings, saveLlmSettings } from "@/lib/server/providers/settings-store";
import { clientIp } from "@/lib/server/auth/request-info";
import { requireActor } from "../../_lib/auth";
import { readJson } from "../../_lib/read-json";
import { respond } from "../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const value = z.union([z.string().max(2000), z.number(), z.null()]).transform((v) => (typeof v === "number" ? String(v) : v));
const body = z
  .object({
    provider: value,
    baseUrl: value,
    model: value,
    temperature: value,
    timeoutMs: value,
    maxRetries: value,
    concurrency: value,
    maxTokens: value,
  })
  .partial()
  .strict();

/** The LLM settings in effect (environment + saved overrides); the API key only as "set or not". */
export async function GET(request: Request) {
  return respond(async () => {
    await requireActor(request, "read");
    return describeLlmSettings();
  });
}

/** Save overrides; null or "" returns a field to the environment's value. The API key cannot be set here. */
export async function PUT(request: Request) {
  return respond(async () => {
    const actor = await requireActor(request, "admin");
    const input = body.parse(await readJson(request));
    // The audit event is written in the settings' own transaction, and only if they were valid.
    return await saveLlmSettings(input, { actor, ip: clientIp(request) });
  });
}
