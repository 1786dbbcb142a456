import { describeProvider } from "@/lib/server/providers";
import { respond } from "../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The configured LLM provider, for the UI banner: never the API key. */
export async function GET() {
  return respond(async () => describeProvider());
}
