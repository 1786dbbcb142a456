import { getAsk } from "@/lib/server/asks/asks";
import { requireActor } from "../../_lib/auth";
import { respond } from "../../_lib/respond";
import { asksContract } from "@/lib/server/asks/contract";
import { parseRequest } from "../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** One ask with its whole trace (null while it runs). */
export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  return respond(async () => {
    await requireActor(request, "read");
    const { params } = await parseRequest(request, asksContract.getAsk, ctx);
    return getAsk(params.id);
  });
}
