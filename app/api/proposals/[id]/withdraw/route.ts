import { withdrawDecision } from "@/lib/server/approvals/approvals-veto";
import { requireActor } from "../../../_lib/auth";
import { respond } from "../../../_lib/respond";
import { approvalsContract } from "@/lib/server/approvals/contract";
import { parseRequest } from "../../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Withdraw your own approval or veto of an action (admins: also someone else's veto). */
export async function POST(request: Request, ctx: { params: Promise<{ id: string }> }) {
  return respond(async () => {
    const actor = await requireActor(request, "decide");
    const { params, body: input } = await parseRequest(request, approvalsContract.withdrawDecision, ctx);
    const { id } = params;
    return withdrawDecision({ proposalId: id, actionIndex: input.action, actor, decisionId: input.decision });
  });
}
