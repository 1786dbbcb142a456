/**
 * A version of a graph as graphify graph.json (`deeprefine pull`, scripts): the current version
 * or `?version=N`. Read permission; the answer names the version in `X-Refinery-Version`. The
 * body streams as it is printed (pulled as the client reads), so a graph of any size exports
 * with flat memory; a graph served by SQL retrieval is printed straight from its rows, never
 * loaded whole (lib/server/graphs/sql-export.ts). Errors (not found, bad version) come before
 * the first byte.
 */
import { NextResponse } from "next/server";
import { openGraphExport } from "@/lib/server/graphs/sql-export";
import { requireActor } from "../../../_lib/auth";
import { errorResponse } from "../../../_lib/respond";
import { graphsContract } from "@/lib/server/graphs/contract";
import { parseRequest } from "../../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(request: Request, ctx: { params: Promise<{ name: string }> }) {
  try {
    await requireActor(request, "read");
    const { params, query } = await parseRequest(request, graphsContract.exportGraph, ctx);
    const { name } = params;
    const { version } = query;
    const exported = await openGraphExport(name, version);
    return new NextResponse(exported.stream({ trailer: "\n" }), {
      headers: { "content-type": "application/json; charset=utf-8", "x-refinery-version": String(exported.version), "content-disposition": `attachment; filename="graph.json"` },
    });
  } catch (error) {
    return errorResponse(error);
  }
}
