import { z } from "zod";
import { getRun } from "@/lib/server/runs";
import { respond } from "../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const runParams = z.object({ id: z.string().min(1).max(100) });

export async function GET(_request: Request, ctx: { params: Promise<{ id: string }> }) {
  return respond(async () => {
    const { id } = runParams.parse(await ctx.params);
    return getRun(id);
  });
}
