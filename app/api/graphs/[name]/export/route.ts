/**
 * A version of a graph as graphify graph.json (`deeprefine pull`, scripts): the current version
 * or `?version=N`. Read permission; the answer names the version in `X-Refinery-Version`. The
 * body streams as it is printed (pulled as the client reads), so a graph of any size exports
 * with flat memory; errors (not found, bad version) come before the first byte.
 */
import { NextResponse } from "next/server";
import { graphifyJsonStream } from "@/lib/export/export-graphify";
import { loadGraph } from "@/lib/server/graphs/graph-store";
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
    const loaded = await loadGraph(name, version);
    return new NextResponse(graphifyJsonStream(loaded.graph, { trailer: "\n" }), {
      headers: { "content-type": "application/json; charset=utf-8", "x-refinery-version": String(loaded.version), "content-disposition": `attachment; filename="graph.json"` },
    });
  } catch (error) {
    return errorResponse(error);
  }
}
