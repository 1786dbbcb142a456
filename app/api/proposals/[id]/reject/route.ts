import { rejectActions } from "@/lib/server/approvals/approvals-veto";
import { requireActor } from "../../../_lib/auth";
import { proposalParams } from "../../../_lib/ids";
import { readJson } from "../../../_lib/read-json";
import { respond } from "../../../_lib/respond";
import { rejectBody } from "@/lib/server/approvals/approvals-requests";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Veto actions: nobody can approve or apply them until the veto is withdrawn. */
export async function POST(request: Request, ctx: { params: Promise<{ id: string }> }) {
  return respond(async () => {
    const actor = await requireActor(request, "decide");
    const { id } = proposalParams.parse(await ctx.params);
    const input = rejectBody.parse(await readJson(request));
    return rejectActions({ proposalId: id, actionIndexes: input.actions, actor, reason: input.reason });
  });
}
