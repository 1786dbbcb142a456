import type { NodeDetails } from "@/components/api/types";
import { getNodeDetails } from "@/lib/server/graphs/explore-graph";
import { nodeParams } from "../../../../_lib/params";
import { requireActor } from "../../../../_lib/auth";
import { respond } from "../../../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(request: Request, ctx: { params: Promise<{ name: string; nodeId: string }> }) {
  return respond<NodeDetails>(async () => {
    await requireActor(request, "read");
    const { name, nodeId } = nodeParams.parse(await ctx.params);
    return getNodeDetails({ name, nodeId });
  });
}
