import { findProposalTimeline } from "@/lib/server/approvals/approvals-timeline";
import { requireActor } from "../../../_lib/auth";
import { respond } from "../../../_lib/respond";
import { approvalsContract } from "@/lib/server/approvals/contract";
import { parseRequest } from "../../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Who ran, proposed, approved, vetoed, withdrew, commented, applied and reverted — oldest first. */
export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  return respond(async () => {
    await requireActor(request, "read");
    const { id } = (await parseRequest(request, approvalsContract.findProposalTimeline, ctx)).params;
    return findProposalTimeline({ proposalId: id });
  });
}
