import { resumeCampaign } from "@/lib/server/campaigns/campaigns";
import { requireActor } from "../../../_lib/auth";
import { respond } from "../../../_lib/respond";
import { campaignsContract } from "@/lib/server/campaigns/contract";
import { parseRequest } from "../../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Goes on with an interrupted campaign in this server from its stored iterations; answers 202 at once. */
export async function POST(request: Request, ctx: { params: Promise<{ id: string }> }) {
  return respond(
    async () => {
      const actor = await requireActor(request, "propose");
      const { id } = (await parseRequest(request, campaignsContract.resumeCampaign, ctx)).params;
      const started = await resumeCampaign({ id, actor });
      // It goes on in the background; `done` never rejects (a failure is a status).
      void started.done;
      return { campaignId: started.campaignId };
    },
    { status: 202 },
  );
}
