import { z } from "zod";
import { getGraphRecord } from "@/lib/server/graph-store";
import { syncMemoryFiles } from "@/lib/server/questions";
import { AppError } from "@/lib/errors";
import { requireActor } from "../../../../_lib/auth";
import { graphParams } from "../../../../_lib/params";
import { readJson } from "../../../../_lib/read-json";
import { respond } from "../../../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const body = z.object({ dir: z.string().trim().min(1).optional() });

export async function POST(request: Request, ctx: { params: Promise<{ name: string }> }) {
  return respond(async () => {
    await requireActor(request, "propose");
    const { name } = graphParams.parse(await ctx.params);
    const { dir } = body.parse(await readJson(request));
    const folder = dir ?? (await getGraphRecord(name)).sourcePath;
    if (!folder) throw new AppError("INVALID_INPUT", "this graph was uploaded, not imported from a folder: give the folder holding graphify-out/memory");
    return syncMemoryFiles({ graph: name, dir: folder.endsWith(".json") ? folder.replace(/[/\\][^/\\]+$/, "") : folder });
  });
}
