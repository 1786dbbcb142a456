import type { NodeDetails } from "@/components/api/types";
import { getNodeDetails } from "@/lib/server/graphs/explore-graph";
import { requireActor } from "../../../../_lib/auth";
import { respond } from "../../../../_lib/respond";
import { graphsContract } from "@/lib/server/graphs/contract";
import { parseRequest } from "../../../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(request: Request, ctx: { params: Promise<{ name: string; nodeId: string }> }) {
  return respond<NodeDetails>(async () => {
    await requireActor(request, "read");
    const { name, nodeId } = (await parseRequest(request, graphsContract.getNodeDetails, ctx)).params;
    return getNodeDetails({ name, nodeId });
  });
}
