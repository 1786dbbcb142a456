import { z } from "zod";
import type { GraphSummary } from "@/components/api/types";
import { clientIp } from "@/lib/server/auth/request-info";
import { getGraphSummary } from "@/lib/server/graphs/graph-store";
import { deleteGraph, renameGraph } from "@/lib/server/graphs/rename-graph";
import { readJson } from "../../_lib/read-json";
import { graphParams } from "../../_lib/params";
import { requireActor } from "../../_lib/auth";
import { respond } from "../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond<GraphSummary>(async () => {
    await requireActor(request, "read");
    const { name } = graphParams.parse(await ctx.params);
    return getGraphSummary(name);
  });
}

const renameBody = z.object({ name: z.string().min(1).max(200) }).strict();
const deleteBody = z.object({ confirm: z.string().max(200) }).strict();

/** Rename the graph (admins; audited). Its runs, proposals and versions follow it. */
export async function PATCH(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond(async () => {
    const actor = await requireActor(request, "admin");
    const { name } = graphParams.parse(await ctx.params);
    const input = renameBody.parse(await readJson(request));
    return renameGraph({ name, newName: input.name, actor, ip: clientIp(request) });
  });
}

/** Delete the graph and everything it holds (admins; audited). `confirm` repeats its name. */
export async function DELETE(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond(async () => {
    const actor = await requireActor(request, "admin");
    const { name } = graphParams.parse(await ctx.params);
    const input = deleteBody.parse(await readJson(request));
    return deleteGraph({ name, confirm: input.confirm, actor, ip: clientIp(request) });
  });
}
