import { z } from "zod";
import { diffVersionsGraph } from "@/lib/server/proposals/changesets";
import { graphParams } from "../../../_lib/params";
import { requireActor } from "../../../_lib/auth";
import { respond } from "../../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const query = z.object({ from: z.coerce.number().int().min(1), to: z.coerce.number().int().min(1) });

/** Version-to-version diff as data, plus the diff graph for drawing it. */
export async function GET(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond(async () => {
    await requireActor(request, "read");
    const { name } = graphParams.parse(await ctx.params);
    const { from, to } = query.parse(Object.fromEntries(new URL(request.url).searchParams));
    return diffVersionsGraph({ graph: name, from, to });
  });
}
