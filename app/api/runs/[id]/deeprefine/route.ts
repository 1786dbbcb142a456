import { NextResponse } from "next/server";
import { deepRefineFileNames, refinementActionsText, traceToDeepRefineJson } from "@/lib/loop/deeprefine-files";
import { getRun, traceOfRun } from "@/lib/server/runs/runs";
import { requireActor } from "../../../_lib/auth";
import { errorResponse } from "../../../_lib/respond";
import { runsContract } from "@/lib/server/runs/contract";
import { parseRequest } from "../../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The run as the deeprefine skill's files: `?file=trace` (loop_trace_<id>.json) or `?file=refinement`. */
export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  try {
    await requireActor(request, "read");
    const { params, query } = await parseRequest(request, runsContract.getRunDeepRefineFile, ctx);
    const { id } = params;
    const { file } = query;
    const run = await getRun(id);
    const names = deepRefineFileNames(run.queryId);
    const trace = traceOfRun(run);
    const hasRefinement = !run.earlyExit && run.refinementRaw !== null;
    const body =
      file === "trace"
        ? JSON.stringify(traceToDeepRefineJson(trace, { refinementActionFile: hasRefinement ? names.refinement : null }), null, 2) + "\n"
        : refinementActionsText(trace);
    const filename = file === "trace" ? names.trace : names.refinement;
    return new NextResponse(body, {
      headers: {
        "content-type": file === "trace" ? "application/json; charset=utf-8" : "text/plain; charset=utf-8",
        "content-disposition": `attachment; filename="${filename}"`,
      },
    });
  } catch (error) {
    return errorResponse(error);
  }
}
