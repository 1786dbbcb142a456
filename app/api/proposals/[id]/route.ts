import { getProposal } from "@/lib/server/proposals/proposals";
import { requireActor } from "../../_lib/auth";
import { respond } from "../../_lib/respond";
import { approvalsContract } from "@/lib/server/approvals/contract";
import { parseRequest } from "../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  return respond(async () => {
    await requireActor(request, "read");
    return getProposal((await parseRequest(request, approvalsContract.getProposal, ctx)).params.id);
  });
}
