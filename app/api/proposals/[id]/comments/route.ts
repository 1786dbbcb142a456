import { createComment, findComments } from "@/lib/server/approvals/comments";
import { requireActor } from "../../../_lib/auth";
import { respond } from "../../../_lib/respond";
import { approvalsContract } from "@/lib/server/approvals/contract";
import { parseRequest } from "../../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The discussion on a proposal and its actions, oldest first. */
export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  return respond(async () => {
    await requireActor(request, "read");
    const { id } = (await parseRequest(request, approvalsContract.findComments, ctx)).params;
    return findComments({ proposalId: id });
  });
}

/** Comment on the proposal, or on one action (`action`, 0-based). */
export async function POST(request: Request, ctx: { params: Promise<{ id: string }> }) {
  return respond(
    async () => {
      const actor = await requireActor(request, "propose");
      const { params, body: input } = await parseRequest(request, approvalsContract.createComment, ctx);
      const { id } = params;
      return createComment({ proposalId: id, actionIndex: input.action ?? null, actor, body: input.body });
    },
    { status: 201 },
  );
}
