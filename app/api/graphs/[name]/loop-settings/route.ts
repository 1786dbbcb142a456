import { getLoopSettings, updateLoopSettings } from "@/lib/server/runs/loop-settings";
import { requireActor } from "../../../_lib/auth";
import { respond } from "../../../_lib/respond";
import { runsContract } from "@/lib/server/runs/contract";
import { parseRequest } from "../../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond(async () => {
    await requireActor(request, "read");
    const { name } = (await parseRequest(request, runsContract.getLoopSettings, ctx)).params;
    return getLoopSettings({ graph: name });
  });
}

/** Change how the loop retrieves at step 1 for this graph (admins; audited). */
export async function PUT(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond(async () => {
    const actor = await requireActor(request, "admin");
    const { params, body } = await parseRequest(request, runsContract.updateLoopSettings, ctx);
    const { name } = params;
    return updateLoopSettings({ graph: name, step1Retrieval: body.step1Retrieval, actor });
  });
}
