import { previewProposal } from "@/lib/server/proposals/proposals";
import { requireActor } from "../../../_lib/auth";
import { respond } from "../../../_lib/respond";
import { approvalsContract } from "@/lib/server/approvals/contract";
import { parseRequest } from "../../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** What applying would do (planned operations, diff, diff graph), without doing it. */
export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  return respond(async () => {
    await requireActor(request, "read");
    const { params, query } = await parseRequest(request, approvalsContract.previewProposal, ctx);
    const { id } = params;
    const { actions } = query;
    return previewProposal({ proposalId: id, actionIndexes: actions });
  });
}
