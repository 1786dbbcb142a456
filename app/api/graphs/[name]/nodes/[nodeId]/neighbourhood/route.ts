import { z } from "zod";
import type { Neighbourhood } from "@/components/api/types";
import { getNeighbourhood } from "@/lib/server/graphs/explore-graph";
import { nodeParams } from "../../../../../_lib/params";
import { requireActor } from "../../../../../_lib/auth";
import { respond } from "../../../../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const neighbourhoodQuery = z.object({
  depth: z.coerce.number().int().min(1).max(3).default(1),
  limit: z.coerce.number().int().min(2).max(500).default(150),
});

export async function GET(request: Request, ctx: { params: Promise<{ name: string; nodeId: string }> }) {
  return respond<Neighbourhood>(async () => {
    await requireActor(request, "read");
    const { name, nodeId } = nodeParams.parse(await ctx.params);
    const search = new URL(request.url).searchParams;
    const { depth, limit } = neighbourhoodQuery.parse({
      depth: search.get("depth") ?? undefined,
      limit: search.get("limit") ?? undefined,
    });
    return getNeighbourhood({ name, nodeId, depth, limit });
  });
}
