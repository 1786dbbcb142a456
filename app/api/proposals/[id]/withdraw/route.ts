import { withdrawDecision } from "@/lib/server/approvals/approvals-veto";
import { requireActor } from "../../../_lib/auth";
import { proposalParams } from "../../../_lib/ids";
import { readJson } from "../../../_lib/read-json";
import { respond } from "../../../_lib/respond";
import { withdrawBody } from "@/lib/server/approvals/approvals-requests";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Withdraw your own approval or veto of an action (admins: also someone else's veto). */
export async function POST(request: Request, ctx: { params: Promise<{ id: string }> }) {
  return respond(async () => {
    const actor = await requireActor(request, "decide");
    const { id } = proposalParams.parse(await ctx.params);
    const input = withdrawBody.parse(await readJson(request));
    return withdrawDecision({ proposalId: id, actionIndex: input.action, actor, decisionId: input.decision });
  });
}
