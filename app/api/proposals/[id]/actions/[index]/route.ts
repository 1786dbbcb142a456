import { z } from "zod";
import { editAction } from "@/lib/server/proposals/proposals";
import { requireActor } from "../../../../_lib/auth";
import { readJson } from "../../../../_lib/read-json";
import { respond } from "../../../../_lib/respond";
import { refinementActionBody } from "@/lib/server/approvals/approvals-requests";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const params = z.object({ id: z.string().min(1).max(100), index: z.coerce.number().int().min(0) });

/** Edit a pending action before approving it; the review is recomputed and its approvals dismissed. */
export async function PUT(request: Request, ctx: { params: Promise<{ id: string; index: string }> }) {
  return respond(async () => {
    const actor = await requireActor(request, "decide");
    const { id, index } = params.parse(await ctx.params);
    const body = z.object({ action: refinementActionBody }).parse(await readJson(request));
    return editAction({ proposalId: id, index, action: body.action, actor });
  });
}
