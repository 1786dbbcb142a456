import { describeProvider } from "@/lib/server/providers";
import { requireActor } from "../_lib/auth";
import { respond } from "../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The configured LLM provider, for the UI banner: never the API key. */
export async function GET(request: Request) {
  return respond(async () => {
    await requireActor(request, "read");
    return describeProvider();
  });
}
