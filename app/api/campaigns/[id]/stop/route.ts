import { stopCampaign } from "@/lib/server/campaigns/campaigns";
import { requireActor } from "../../../_lib/auth";
import { respond } from "../../../_lib/respond";
import { campaignsContract } from "@/lib/server/campaigns/contract";
import { parseRequest } from "../../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Asks a running campaign to halt; it keeps its iterations and submits its best one. */
export async function POST(request: Request, ctx: { params: Promise<{ id: string }> }) {
  return respond(
    async () => {
      await requireActor(request, "propose");
      const { id } = (await parseRequest(request, campaignsContract.stopCampaign, ctx)).params;
      return stopCampaign(id);
    },
    { status: 202 },
  );
}
