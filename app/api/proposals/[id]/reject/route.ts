import { rejectActions } from "@/lib/server/approvals/approvals-veto";
import { requireActor } from "../../../_lib/auth";
import { respond } from "../../../_lib/respond";
import { approvalsContract } from "@/lib/server/approvals/contract";
import { parseRequest } from "../../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Veto actions: nobody can approve or apply them until the veto is withdrawn. */
export async function POST(request: Request, ctx: { params: Promise<{ id: string }> }) {
  return respond(async () => {
    const actor = await requireActor(request, "decide");
    const { params, body: input } = await parseRequest(request, approvalsContract.rejectActions, ctx);
    const { id } = params;
    return rejectActions({ proposalId: id, actionIndexes: input.actions, actor, reason: input.reason });
  });
}
