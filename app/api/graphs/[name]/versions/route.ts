import { findVersions } from "@/lib/server/changesets";
import { graphParams } from "../../../_lib/params";
import { respond } from "../../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The graph's versions, newest first: what created each, and whether it was undone. */
export async function GET(_request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond(async () => findVersions(graphParams.parse(await ctx.params).name));
}
