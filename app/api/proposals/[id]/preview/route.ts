import { z } from "zod";
import { previewProposal } from "@/lib/server/proposals/proposals";
import { requireActor } from "../../../_lib/auth";
import { actionIndexList, proposalParams } from "../../../_lib/ids";
import { respond } from "../../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const query = z.object({ actions: actionIndexList });

/** What applying would do (planned operations, diff, diff graph), without doing it. */
export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  return respond(async () => {
    await requireActor(request, "read");
    const { id } = proposalParams.parse(await ctx.params);
    const { actions } = query.parse(Object.fromEntries(new URL(request.url).searchParams));
    return previewProposal({ proposalId: id, actionIndexes: actions });
  });
}
