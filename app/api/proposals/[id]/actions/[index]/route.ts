import { z } from "zod";
import { editAction } from "@/lib/server/proposals";
import { readJson } from "../../../../_lib/read-json";
import { respond } from "../../../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const params = z.object({ id: z.string().min(1).max(100), index: z.coerce.number().int().min(0) });
const name = z.string().trim().min(1).max(2000);
const action = z.discriminatedUnion("type", [
  z.object({ type: z.literal("insert_edge"), subject: name, relation: name, object: name }),
  z.object({ type: z.literal("delete_edge"), subject: name, relation: name, object: name }),
  z.object({ type: z.literal("replace_node"), old: name, new: name }),
]);

/** Edit a pending action before approving it; the review is recomputed at once. */
export async function PUT(request: Request, ctx: { params: Promise<{ id: string; index: string }> }) {
  return respond(async () => {
    const { id, index } = params.parse(await ctx.params);
    const body = z.object({ action }).parse(await readJson(request));
    return editAction({ proposalId: id, index, action: body.action });
  });
}
