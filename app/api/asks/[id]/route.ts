import { z } from "zod";
import { getAsk } from "@/lib/server/asks/asks";
import { requireActor } from "../../_lib/auth";
import { respond } from "../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const askParams = z.object({ id: z.string().min(1).max(100) });

/** One ask with its whole trace (null while it runs). */
export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  return respond(async () => {
    await requireActor(request, "read");
    const { id } = askParams.parse(await ctx.params);
    return getAsk(id);
  });
}
