import type { Neighbourhood } from "@/components/api/types";
import { getNeighbourhood } from "@/lib/server/graphs/explore-graph";
import { requireActor } from "../../../../../_lib/auth";
import { respond } from "../../../../../_lib/respond";
import { graphsContract } from "@/lib/server/graphs/contract";
import { parseRequest } from "../../../../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(request: Request, ctx: { params: Promise<{ name: string; nodeId: string }> }) {
  return respond<Neighbourhood>(async () => {
    await requireActor(request, "read");
    const { params, query } = await parseRequest(request, graphsContract.getNeighbourhood, ctx);
    const { name, nodeId } = params;
    const { depth, limit } = query;
    return getNeighbourhood({ name, nodeId, depth, limit });
  });
}
