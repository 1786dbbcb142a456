import { askAgainForProposal } from "@/lib/server/asks/ask-again";
import { requireActor } from "../../../_lib/auth";
import { respond } from "../../../_lib/respond";
import { asksContract } from "@/lib/server/asks/contract";
import { parseRequest } from "../../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Ask the applied proposal's question of its base version and of the current one; waits for both. */
export async function POST(request: Request, ctx: { params: Promise<{ id: string }> }) {
  return respond(async () => {
    const actor = await requireActor(request, "propose");
    const { params, body } = await parseRequest(request, asksContract.askAgainAfterApply, ctx);
    const { id } = params;
    return askAgainForProposal({ proposalId: id, provider: body.provider, actor });
  });
}
