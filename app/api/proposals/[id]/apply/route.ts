import { z } from "zod";
import { applyProposal } from "@/lib/server/proposals";
import { readJson } from "../../../_lib/read-json";
import { proposalParams } from "../../../_lib/ids";
import { respond } from "../../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * Approve and apply. LOW-confidence actions need `lowConfidence: {accepted: true, reason}` with
 * a written reason: enforced here, whatever the client does (a missing or empty reason is a
 * 428 and nothing changes).
 */
const body = z.object({
  actions: z.array(z.number().int().min(0)).min(1).optional(),
  lowConfidence: z.object({ accepted: z.literal(true), reason: z.string().trim().min(3, "give a reason for accepting the risk") }).optional(),
  actor: z.string().trim().max(200).optional(),
});

export async function POST(request: Request, ctx: { params: Promise<{ id: string }> }) {
  return respond(async () => {
    const { id } = proposalParams.parse(await ctx.params);
    const input = body.parse(await readJson(request));
    const result = await applyProposal({
      proposalId: id,
      actionIndexes: input.actions,
      allowLowConfidence: input.lowConfidence?.accepted === true && input.lowConfidence.reason.length >= 3,
      lowConfidenceReason: input.lowConfidence?.reason,
      actor: input.actor ?? "web",
    });
    return result;
  });
}
