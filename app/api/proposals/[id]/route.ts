import { getProposal } from "@/lib/server/proposals";
import { proposalParams } from "../../_lib/ids";
import { respond } from "../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(_request: Request, ctx: { params: Promise<{ id: string }> }) {
  return respond(async () => getProposal(proposalParams.parse(await ctx.params).id));
}
