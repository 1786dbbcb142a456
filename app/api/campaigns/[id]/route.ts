import { getCampaign } from "@/lib/server/campaigns/campaigns";
import { requireActor } from "../../_lib/auth";
import { respond } from "../../_lib/respond";
import { campaignsContract } from "@/lib/server/campaigns/contract";
import { parseRequest } from "../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The campaign with every iteration so far (poll it to watch a running one). */
export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  return respond(async () => {
    await requireActor(request, "read");
    const { id } = (await parseRequest(request, campaignsContract.getCampaign, ctx)).params;
    return getCampaign(id);
  });
}
