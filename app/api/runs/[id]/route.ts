import { getRun } from "@/lib/server/runs/runs";
import { requireActor } from "../../_lib/auth";
import { respond } from "../../_lib/respond";
import { runsContract } from "@/lib/server/runs/contract";
import { parseRequest } from "../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  return respond(async () => {
    await requireActor(request, "read");
    const { id } = (await parseRequest(request, runsContract.getRun, ctx)).params;
    return getRun(id);
  });
}
