import type { SearchResult } from "@/components/api/types";
import { searchNodes } from "@/lib/server/graphs/explore-graph";
import { requireActor } from "../../../_lib/auth";
import { respond } from "../../../_lib/respond";
import { graphsContract } from "@/lib/server/graphs/contract";
import { parseRequest } from "../../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond<SearchResult>(async () => {
    await requireActor(request, "read");
    const { params, query } = await parseRequest(request, graphsContract.searchNodes, ctx);
    const { name } = params;
    const { q, limit } = query;
    return searchNodes({ name, q, limit });
  });
}
