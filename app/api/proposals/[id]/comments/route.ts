import { createComment, findComments } from "@/lib/server/approvals/comments";
import { requireActor } from "../../../_lib/auth";
import { proposalParams } from "../../../_lib/ids";
import { readJson } from "../../../_lib/read-json";
import { respond } from "../../../_lib/respond";
import { commentBody } from "@/lib/server/approvals/approvals-requests";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The discussion on a proposal and its actions, oldest first. */
export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  return respond(async () => {
    await requireActor(request, "read");
    const { id } = proposalParams.parse(await ctx.params);
    return findComments({ proposalId: id });
  });
}

/** Comment on the proposal, or on one action (`action`, 0-based). */
export async function POST(request: Request, ctx: { params: Promise<{ id: string }> }) {
  return respond(
    async () => {
      const actor = await requireActor(request, "propose");
      const { id } = proposalParams.parse(await ctx.params);
      const input = commentBody.parse(await readJson(request));
      return createComment({ proposalId: id, actionIndex: input.action ?? null, actor, body: input.body });
    },
    { status: 201 },
  );
}
