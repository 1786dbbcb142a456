import { approveActions } from "@/lib/server/approvals/approvals";
import { requireActor } from "../../../_lib/auth";
import { respond } from "../../../_lib/respond";
import { approvalsContract } from "@/lib/server/approvals/contract";
import { parseRequest } from "../../../_lib/parse-request";

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
    const { params, body: input } = await parseRequest(request, approvalsContract.approveActions, ctx);
    const { id } = params;
    return approveActions({ proposalId: id, actionIndexes: input.actions, actor, reason: input.reason, lowConfidenceConfirmed: input.lowConfidence === true, seen: input.seen });
  });
}
