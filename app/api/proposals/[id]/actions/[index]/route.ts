import { editAction } from "@/lib/server/proposals/proposals";
import { requireActor } from "../../../../_lib/auth";
import { respond } from "../../../../_lib/respond";
import { approvalsContract } from "@/lib/server/approvals/contract";
import { parseRequest } from "../../../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Edit a pending action before approving it; the review is recomputed and its approvals dismissed. */
export async function PUT(request: Request, ctx: { params: Promise<{ id: string; index: string }> }) {
  return respond(async () => {
    const actor = await requireActor(request, "decide");
    const { params, body } = await parseRequest(request, approvalsContract.editAction, ctx);
    const { id, index } = params;
    return editAction({ proposalId: id, index, action: body.action, actor });
  });
}
