import { z } from "zod";
import { askAgainForProposal } from "@/lib/server/asks/ask-again";
import { requireActor } from "../../../_lib/auth";
import { readJson } from "../../../_lib/read-json";
import { respond } from "../../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const proposalParams = z.object({ id: z.string().min(1).max(100) });
const askAgainBody = z.object({ provider: z.enum(["heuristic", "openai", "replay"]).optional() });

/** Ask the applied proposal's question of its base version and of the current one; waits for both. */
export async function POST(request: Request, ctx: { params: Promise<{ id: string }> }) {
  return respond(async () => {
    const actor = await requireActor(request, "propose");
    const { id } = proposalParams.parse(await ctx.params);
    const body = askAgainBody.parse((await readJson(request)) ?? {});
    return askAgainForProposal({ proposalId: id, provider: body.provider, actor });
  });
}
