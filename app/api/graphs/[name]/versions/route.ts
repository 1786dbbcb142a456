import { findVersions } from "@/lib/server/proposals/changesets";
import { requireActor } from "../../../_lib/auth";
import { graphParams } from "../../../_lib/params";
import { respond } from "../../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The graph's versions, newest first: what created each, and whether it was undone. */
export async function GET(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond(async () => {
    await requireActor(request, "read");
    return findVersions(graphParams.parse(await ctx.params).name);
  });
}
