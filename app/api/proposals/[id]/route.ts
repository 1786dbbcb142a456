import { getProposal } from "@/lib/server/proposals/proposals";
import { requireActor } from "../../_lib/auth";
import { proposalParams } from "../../_lib/ids";
import { respond } from "../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  return respond(async () => {
    await requireActor(request, "read");
    return getProposal(proposalParams.parse(await ctx.params).id);
  });
}
