import { answerRunStep } from "@/lib/server/runs/step-answer";
import { requireActor } from "../../../_lib/auth";
import { respond } from "../../../_lib/respond";
import { runsContract } from "@/lib/server/runs/contract";
import { parseRequest } from "../../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The answer the step judged answerable gives (heuristic Ask over its triples), or null. */
export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  return respond(async () => {
    await requireActor(request, "read");
    const { id } = (await parseRequest(request, runsContract.getRunStepAnswer, ctx)).params;
    return { answer: await answerRunStep(id) };
  });
}
