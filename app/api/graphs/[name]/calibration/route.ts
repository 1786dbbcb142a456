import { applyThresholdRefit, getCalibration, resetThresholds } from "@/lib/server/proposals/review-calibration";
import { requireActor } from "../../../_lib/auth";
import { respond } from "../../../_lib/respond";
import { proposalsContract } from "@/lib/server/proposals/contract";
import { parseRequest } from "../../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** How people decided per action kind and label, the graph's thresholds and the re-fit they support. */
export async function GET(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond(async () => {
    await requireActor(request, "read");
    const { name } = (await parseRequest(request, proposalsContract.getCalibration, ctx)).params;
    return getCalibration({ graph: name });
  });
}

/** Apply the re-fit, or reset to the defaults (admins only; audited). */
export async function POST(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond(async () => {
    const actor = await requireActor(request, "admin");
    const { params, body } = await parseRequest(request, proposalsContract.updateCalibration, ctx);
    const { name } = params;
    return body.action === "reset" ? resetThresholds({ graph: name, actor }) : applyThresholdRefit({ graph: name, actor, expected: body.expected });
  });
}
