import { z } from "zod";
import { getLoopSettings, updateLoopSettings } from "@/lib/server/runs/loop-settings";
import { requireActor } from "../../../_lib/auth";
import { graphParams } from "../../../_lib/params";
import { readJson } from "../../../_lib/read-json";
import { respond } from "../../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const loopSettingsBody = z.object({ step1Retrieval: z.enum(["graphify_query", "graph_rft_plan"]) });

export async function GET(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond(async () => {
    await requireActor(request, "read");
    const { name } = graphParams.parse(await ctx.params);
    return getLoopSettings({ graph: name });
  });
}

/** Change how the loop retrieves at step 1 for this graph (admins; audited). */
export async function PUT(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond(async () => {
    const actor = await requireActor(request, "admin");
    const { name } = graphParams.parse(await ctx.params);
    const body = loopSettingsBody.parse(await readJson(request));
    return updateLoopSettings({ graph: name, step1Retrieval: body.step1Retrieval, actor });
  });
}
