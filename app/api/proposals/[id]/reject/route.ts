import { z } from "zod";
import { rejectActions } from "@/lib/server/proposals";
import { readJson } from "../../../_lib/read-json";
import { proposalParams } from "../../../_lib/ids";
import { respond } from "../../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const body = z.object({ actions: z.array(z.number().int().min(0)).min(1).optional(), reason: z.string().trim().max(2000).optional() });

export async function POST(request: Request, ctx: { params: Promise<{ id: string }> }) {
  return respond(async () => {
    const { id } = proposalParams.parse(await ctx.params);
    const input = body.parse(await readJson(request));
    return rejectActions({ proposalId: id, actionIndexes: input.actions, reason: input.reason });
  });
}
