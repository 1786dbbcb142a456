import { approveActions } from "@/lib/server/approvals/approvals";
import { requireActor } from "../../../_lib/auth";
import { proposalParams } from "../../../_lib/ids";
import { readJson } from "../../../_lib/read-json";
import { respond } from "../../../_lib/respond";
import { approveBody } from "@/lib/server/approvals/approvals-requests";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * Approve under the graph's policy. The approval is recorded; when it completes the policy of
 * any action of the proposal, those actions are applied as one new version in this request.
 * LOW actions need `lowConfidence: true` and (by default) a written `reason`, else 428.
 */
export async function POST(request: Request, ctx: { params: Promise<{ id: string }> }) {
  return respond(async () => {
    const actor = await requireActor(request, "decide");
    const { id } = proposalParams.parse(await ctx.params);
    const input = approveBody.parse(await readJson(request));
    return approveActions({ proposalId: id, actionIndexes: input.actions, actor, reason: input.reason, lowConfidenceConfirmed: input.lowConfidence === true, seen: input.seen });
  });
}
