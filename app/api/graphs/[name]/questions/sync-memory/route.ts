import { z } from "zod";
import { getGraphRecord } from "@/lib/server/graphs/graph-store";
import { syncMemoryFiles } from "@/lib/server/runs/questions";
import { AppError } from "@/lib/errors";
import { can } from "@/lib/auth/permissions";
import { requireActor } from "../../../../_lib/auth";
import { graphParams } from "../../../../_lib/params";
import { readJson } from "../../../../_lib/read-json";
import { respond } from "../../../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const body = z.object({ dir: z.string().trim().min(1).optional() });

export async function POST(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond(async () => {
    const actor = await requireActor(request, "propose");
    const { name } = graphParams.parse(await ctx.params);
    const { dir } = body.parse(await readJson(request));
    // Any folder on the server's disk is an administrator's choice; others sync the graph's own.
    if (dir !== undefined && !can(actor, "admin")) throw new AppError("FORBIDDEN", "only admins may name a folder on the server; leave it out to use the graph's own folder", { permission: "admin" });
    const folder = dir ?? (await getGraphRecord(name)).sourcePath;
    if (!folder) throw new AppError("INVALID_INPUT", "this graph was uploaded, not imported from a folder: give the folder holding graphify-out/memory");
    return syncMemoryFiles({ graph: name, dir: folder.endsWith(".json") ? folder.replace(/[/\\][^/\\]+$/, "") : folder });
  });
}
