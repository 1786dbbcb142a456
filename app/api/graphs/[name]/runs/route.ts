import { z } from "zod";
import { launchRuns } from "@/lib/server/runs/run-launcher";
import { findRuns } from "@/lib/server/runs/runs";
import { requireActor } from "../../../_lib/auth";
import { graphParams } from "../../../_lib/params";
import { readJson } from "../../../_lib/read-json";
import { respond } from "../../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const startBody = z.object({
  question: z.string().trim().max(4000).optional(),
  queryId: z.string().regex(/^[0-9a-f]{16}$/).optional(),
  pending: z.boolean().optional(),
  provider: z.enum(["heuristic", "openai", "replay"]).optional(),
  refineAfterFinalYes: z.boolean().optional(),
});

export async function GET(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond(async () => {
    await requireActor(request, "read");
    const { name } = graphParams.parse(await ctx.params);
    return findRuns({ graph: name });
  });
}

/** Starts a run (or the pending queue) and answers 202 at once; progress: GET /api/runs/{id}/events. */
export async function POST(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond(
    async () => {
      const actor = await requireActor(request, "propose");
      const { name } = graphParams.parse(await ctx.params);
      const body = startBody.parse(await readJson(request));
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
