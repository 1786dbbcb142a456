import type { NodeSummary } from "@/components/api/types";
import { findHubNodes } from "@/lib/server/graphs/explore-graph";
import { requireActor } from "../../../_lib/auth";
import { respond } from "../../../_lib/respond";
import { graphsContract } from "@/lib/server/graphs/contract";
import { parseRequest } from "../../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The most connected nodes: where the explorer suggests starting. */
export async function GET(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond<NodeSummary[]>(async () => {
    await requireActor(request, "read");
    const { params, query } = await parseRequest(request, graphsContract.findHubNodes, ctx);
    const { name } = params;
    const { limit } = query;
    return findHubNodes({ name, limit });
  });
}
