import { describeLlmSettings, saveLlmSettings } from "@/lib/server/providers/settings-store";
import { clientIp } from "@/lib/server/auth/request-info";
import { requireActor } from "../../_lib/auth";
import { respond } from "../../_lib/respond";
import { providersContract } from "@/lib/server/providers/contract";
import { parseRequest } from "../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

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
    const { body: input } = await parseRequest(request, providersContract.saveLlmSettings);
    // The audit event is written in the settings' own transaction, and only if they were valid.
    return await saveLlmSettings(input, { actor, ip: clientIp(request) });
  });
}
