import { findAsks, getAsk, startAsk } from "@/lib/server/asks/asks";
import { requireActor } from "../../../_lib/auth";
import { respond } from "../../../_lib/respond";
import { asksContract } from "@/lib/server/asks/contract";
import { parseRequest } from "../../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond(async () => {
    await requireActor(request, "read");
    const { name } = (await parseRequest(request, asksContract.findAsks, ctx)).params;
    return findAsks({ graph: name });
  });
}

/** Starts an ask: 201 with the stored ask, status running (poll GET /api/asks/{id}) unless `wait`. */
export async function POST(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond(
    async () => {
      const actor = await requireActor(request, "propose");
      const { params, body: input } = await parseRequest(request, asksContract.askGraph, ctx);
      const { name } = params;
      const { wait, ...body } = input;
      const started = await startAsk({ graph: name, ...body, actor });
      return wait ? started.done : getAsk(started.askId);
    },
    { status: 201 },
  );
}
