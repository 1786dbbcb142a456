import { z } from "zod";
import { checkLlmConnection } from "@/lib/server/providers/settings-store";
import { requireActor } from "../../../_lib/auth";
import { readJson } from "../../../_lib/read-json";
import { respond } from "../../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const value = z.union([z.string().max(2000), z.number(), z.null()]).transform((v) => (typeof v === "number" ? String(v) : v));
const body = z
  .object({ provider: value, baseUrl: value, model: value, temperature: value, timeoutMs: value, maxRetries: value, concurrency: value, maxTokens: value })
  .partial()
  .strict();

/**
 * Send one tiny prompt through the provider: latency and the first words, or the error. A body
 * (the settings form's values, as PUT takes them) is tested instead of the saved settings,
 * without saving anything; no body tests the saved ones.
 */
export async function POST(request: Request) {
  return respond(async () => {
    await requireActor(request, "admin");
    const changes = body.parse(await readJson(request));
    return checkLlmConnection(Object.keys(changes).length > 0 ? { changes } : {});
  });
}
