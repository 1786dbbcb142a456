import { launchRuns } from "@/lib/server/runs/run-launcher";
import { findRuns } from "@/lib/server/runs/runs";
import { requireActor } from "../../../_lib/auth";
import { respond } from "../../../_lib/respond";
import { runsContract } from "@/lib/server/runs/contract";
import { parseRequest } from "../../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond(async () => {
    await requireActor(request, "read");
    const { name } = (await parseRequest(request, runsContract.findRuns, ctx)).params;
    return findRuns({ graph: name });
  });
}

/** Starts a run (or the pending queue) and answers 202 at once; progress: GET /api/runs/{id}/events. */
export async function POST(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond(
    async () => {
      const actor = await requireActor(request, "propose");
      const { params, body } = await parseRequest(request, runsContract.startRuns, ctx);
      const { name } = params;
      return launchRuns({
        graph: name,
        question: body.question,
        queryId: body.queryId,
        pending: body.pending,
        provider: body.provider,
        config: body.refineAfterFinalYes === undefined ? undefined : { refineAfterFinalYes: body.refineAfterFinalYes },
        actor,
      });
    },
    { status: 202 },
  );
}
