import { findVersions } from "@/lib/server/proposals/changesets";
import { requireActor } from "../../../_lib/auth";
import { respond } from "../../../_lib/respond";
import { proposalsContract } from "@/lib/server/proposals/contract";
import { parseRequest } from "../../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The graph's versions, newest first: what created each, and whether it was undone. */
export async function GET(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond(async () => {
    await requireActor(request, "read");
    return findVersions((await parseRequest(request, proposalsContract.findVersions, ctx)).params.name);
  });
}
