import { getGraphRecord } from "@/lib/server/graphs/graph-store";
import { syncMemoryFiles } from "@/lib/server/runs/questions";
import { AppError } from "@/lib/errors";
import { can } from "@/lib/auth/permissions";
import { requireActor } from "../../../../_lib/auth";
import { respond } from "../../../../_lib/respond";
import { runsContract } from "@/lib/server/runs/contract";
import { parseRequest } from "../../../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function POST(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond(async () => {
    const actor = await requireActor(request, "propose");
    const { params, body } = await parseRequest(request, runsContract.syncMemoryQuestions, ctx);
    const { name } = params;
    const { dir } = body;
    // Any folder on the server's disk is an administrator's choice; others sync the graph's own.
    if (dir !== undefined && !can(actor, "admin")) throw new AppError("FORBIDDEN", "only admins may name a folder on the server; leave it out to use the graph's own folder", { permission: "admin" });
    const folder = dir ?? (await getGraphRecord(name)).sourcePath;
    if (!folder) throw new AppError("INVALID_INPUT", "this graph was uploaded, not imported from a folder: give the folder holding graphify-out/memory");
    return syncMemoryFiles({ graph: name, dir: folder.endsWith(".json") ? folder.replace(/[/\\][^/\\]+$/, "") : folder });
  });
}
