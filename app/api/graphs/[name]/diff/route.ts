import { diffVersionsGraph } from "@/lib/server/proposals/changesets";
import { requireActor } from "../../../_lib/auth";
import { respond } from "../../../_lib/respond";
import { proposalsContract } from "@/lib/server/proposals/contract";
import { parseRequest } from "../../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Version-to-version diff as data, plus the diff graph for drawing it. */
export async function GET(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond(async () => {
    await requireActor(request, "read");
    const { params, query } = await parseRequest(request, proposalsContract.diffVersions, ctx);
    const { name } = params;
    const { from, to } = query;
    return diffVersionsGraph({ graph: name, from, to });
  });
}
