import { z } from "zod";
import type { NodeSummary } from "@/components/api/types";
import { findHubNodes } from "@/lib/server/graphs/explore-graph";
import { graphParams } from "../../../_lib/params";
import { requireActor } from "../../../_lib/auth";
import { respond } from "../../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const hubsQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(12) });

/** The most connected nodes: where the explorer suggests starting. */
export async function GET(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond<NodeSummary[]>(async () => {
    await requireActor(request, "read");
    const { name } = graphParams.parse(await ctx.params);
    const { limit } = hubsQuery.parse({ limit: new URL(request.url).searchParams.get("limit") ?? undefined });
    return findHubNodes({ name, limit });
  });
}
