import { z } from "zod";
import { answerRunStep } from "@/lib/server/runs/step-answer";
import { requireActor } from "../../../_lib/auth";
import { respond } from "../../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const runParams = z.object({ id: z.string().min(1).max(100) });

/** The answer the step judged answerable gives (heuristic Ask over its triples), or null. */
export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  return respond(async () => {
    await requireActor(request, "read");
    const { id } = runParams.parse(await ctx.params);
    return { answer: await answerRunStep(id) };
  });
}
