import { z } from "zod";
import { revertVersion } from "@/lib/server/changesets";
import { readJson } from "../../../../../_lib/read-json";
import { respond } from "../../../../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const params = z.object({ name: z.string().min(1).max(200), version: z.coerce.number().int().min(1) });
const body = z.object({ actor: z.string().trim().max(200).optional() });

/** Undo the change that created this version, as a new version. */
export async function POST(request: Request, ctx: { params: Promise<{ name: string; version: string }> }) {
  return respond(async () => {
    const { name, version } = params.parse(await ctx.params);
    const input = body.parse(await readJson(request));
    return revertVersion({ graph: name, version, actor: input.actor ?? "web" });
  });
}
