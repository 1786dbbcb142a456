import { checkLlmConnection } from "@/lib/server/providers/settings-store";
import { requireActor } from "../../../_lib/auth";
import { respond } from "../../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Send one tiny prompt through the configured provider: latency and the first words, or the error. */
export async function POST(request: Request) {
  return respond(async () => {
    await requireActor(request, "admin");
    return checkLlmConnection();
  });
}
