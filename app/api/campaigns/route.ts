import { findCampaigns, findQueueQuestions, startCampaign } from "@/lib/server/campaigns/campaigns";
import { requireActor } from "../_lib/auth";
import { respond } from "../_lib/respond";
import { campaignsContract } from "@/lib/server/campaigns/contract";
import { parseRequest } from "../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(request: Request) {
  return respond(async () => {
    await requireActor(request, "read");
    const { query: q } = await parseRequest(request, campaignsContract.findCampaigns);
    return findCampaigns({ graph: q.graph, limit: q.limit });
  });
}

/** Starts a campaign and answers 202 at once; progress: GET /api/campaigns/{id}. */
export async function POST(request: Request) {
  return respond(
    async () => {
      const actor = await requireActor(request, "propose");
      const { body } = await parseRequest(request, campaignsContract.startCampaign);
      const questions = body.questions
        ? body.questions.map((q, i) => ({ id: q.id ?? `q${i + 1}`, question: q.question, ...(q.answers?.length ? { answers: q.answers } : {}) }))
        : await findQueueQuestions({ graph: body.graph, status: body.fromQueue ?? "all" });
      const started = await startCampaign({
        graph: body.graph,
        questions,
        provider: body.provider,
        iterationCap: body.iterationCap,
        maxActionsPerIteration: body.maxActionsPerIteration,
        ...(body.target !== undefined ? { thresholds: { target: body.target } } : {}),
        actor,
      });
      // The campaign goes on in the background; `done` never rejects (a failure is a status).
      void started.done;
      return { campaignId: started.campaignId };
    },
    { status: 202 },
  );
}
