import { checkLlmConnection } from "@/lib/server/providers/check-connection";
import { requireActor } from "../../../_lib/auth";
import { respond } from "../../../_lib/respond";
import { providersContract } from "@/lib/server/providers/contract";
import { parseRequest } from "../../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * Send one tiny prompt through the provider: latency and the first words, or the error. A body
 * (the settings form's values, as PUT takes them) is tested instead of the saved settings,
 * without saving anything; no body tests the saved ones.
 */
export async function POST(request: Request) {
  return respond(async () => {
    await requireActor(request, "admin");
    const { body: changes } = await parseRequest(request, providersContract.checkLlmConnection);
    return checkLlmConnection(Object.keys(changes).length > 0 ? { changes } : {});
  });
}
