import type { GraphSummary } from "@/components/api/types";
import { getGraphSummary } from "@/lib/server/graph-store";
import { graphParams } from "../../_lib/params";
import { requireActor } from "../../_lib/auth";
import { respond } from "../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond<GraphSummary>(async () => {
    await requireActor(request, "read");
    const { name } = graphParams.parse(await ctx.params);
    return getGraphSummary(name);
  });
}
