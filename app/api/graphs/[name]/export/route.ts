/**
 * A version of a graph as graphify graph.json (`deeprefine pull`, scripts): the current version
 * or `?version=N`. Read permission; the answer names the version in `X-Refinery-Version`.
 */
import { NextResponse } from "next/server";
import { z } from "zod";
import { exportGraphifyJson } from "@/lib/export/export-graphify";
import { loadGraph } from "@/lib/server/graphs/graph-store";
import { requireActor } from "../../../_lib/auth";
import { graphParams } from "../../../_lib/params";
import { errorResponse } from "../../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const exportQuery = z.object({ version: z.coerce.number().int().positive().optional() });

export async function GET(request: Request, ctx: { params: Promise<{ name: string }> }) {
  try {
    await requireActor(request, "read");
    const { name } = graphParams.parse(await ctx.params);
    const { version } = exportQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
    const loaded = await loadGraph(name, version);
    return new NextResponse(exportGraphifyJson(loaded.graph) + "\n", {
      headers: { "content-type": "application/json; charset=utf-8", "x-refinery-version": String(loaded.version), "content-disposition": `attachment; filename="graph.json"` },
    });
  } catch (error) {
    return errorResponse(error);
  }
}
