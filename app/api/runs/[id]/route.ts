import { z } from "zod";
import { getRun } from "@/lib/server/runs/runs";
import { requireActor } from "../../_lib/auth";
import { respond } from "../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const runParams = z.object({ id: z.string().min(1).max(100) });

export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  return respond(async () => {
    await requireActor(request, "read");
    const { id } = runParams.parse(await ctx.params);
    return getRun(id);
  });
}
