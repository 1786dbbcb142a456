import { z } from "zod";
import { MAX_QUESTION_CHARS, findAsks, getAsk, startAsk } from "@/lib/server/asks/asks";
import { requireActor } from "../../../_lib/auth";
import { graphParams } from "../../../_lib/params";
import { readJson } from "../../../_lib/read-json";
import { respond } from "../../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const askBody = z.object({
  question: z.string().trim().min(1, "the question is empty").max(MAX_QUESTION_CHARS),
  provider: z.enum(["heuristic", "openai", "replay"]).optional(),
  version: z.number().int().positive().optional(),
  corpusFallback: z.boolean().optional(),
  toolBudget: z.number().int().min(1).max(50).optional(),
  /** Answer when the ask has finished instead of at once (scripts). */
  wait: z.boolean().optional(),
});

export async function GET(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond(async () => {
    await requireActor(request, "read");
    const { name } = graphParams.parse(await ctx.params);
    return findAsks({ graph: name });
  });
}

/** Starts an ask: 201 with the stored ask, status running (poll GET /api/asks/{id}) unless `wait`. */
export async function POST(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond(
    async () => {
      const actor = await requireActor(request, "propose");
      const { name } = graphParams.parse(await ctx.params);
      const { wait, ...body } = askBody.parse(await readJson(request));
      const started = await startAsk({ graph: name, ...body, actor });
      return wait ? started.done : getAsk(started.askId);
    },
    { status: 201 },
  );
}
