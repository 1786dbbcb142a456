import type { GraphSummary } from "@/components/api/types";
import { clientIp } from "@/lib/server/auth/request-info";
import { getGraphSummary } from "@/lib/server/graphs/graph-store";
import { deleteGraph, renameGraph } from "@/lib/server/graphs/rename-graph";
import { requireActor } from "../../_lib/auth";
import { respond } from "../../_lib/respond";
import { graphsContract } from "@/lib/server/graphs/contract";
import { parseRequest } from "../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond<GraphSummary>(async () => {
    await requireActor(request, "read");
    const { name } = (await parseRequest(request, graphsContract.getGraph, ctx)).params;
    return getGraphSummary(name);
  });
}

/** Rename the graph (admins; audited). Its runs, proposals and versions follow it. */
export async function PATCH(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond(async () => {
    const actor = await requireActor(request, "admin");
    const { params, body: input } = await parseRequest(request, graphsContract.renameGraph, ctx);
    const { name } = params;
    return renameGraph({ name, newName: input.name, actor, ip: clientIp(request) });
  });
}

/** Delete the graph and everything it holds (admins; audited). `confirm` repeats its name. */
export async function DELETE(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond(async () => {
    const actor = await requireActor(request, "admin");
    const { params, body: input } = await parseRequest(request, graphsContract.deleteGraph, ctx);
    const { name } = params;
    return deleteGraph({ name, confirm: input.confirm, actor, ip: clientIp(request) });
  });
}
