import { getCampaign } from "@/lib/server/campaigns/campaigns";
import { campaignParams } from "@/lib/server/campaigns/campaigns-requests";
import { requireActor } from "../../_lib/auth";
import { respond } from "../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The campaign with every iteration so far (poll it to watch a running one). */
export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  return respond(async () => {
    await requireActor(request, "read");
    const { id } = campaignParams.parse(await ctx.params);
    return getCampaign(id);
  });
}
