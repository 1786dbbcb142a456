import { z } from "zod";
import { actorLabel } from "@/lib/auth/permissions";
import { revertVersion } from "@/lib/server/proposals/changesets";
import { requireActor } from "../../../../../_lib/auth";
import { readJson } from "../../../../../_lib/read-json";
import { respond } from "../../../../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const params = z.object({ name: z.string().min(1).max(200), version: z.coerce.number().int().min(1) });

/** Undo the change that created this version, as a new version. */
export async function POST(request: Request, ctx: { params: Promise<{ name: string; version: string }> }) {
  return respond(async () => {
    const actor = await requireActor(request, "revert");
    const { name, version } = params.parse(await ctx.params);
    // The body no longer names the actor: who reverts is whoever is signed in.
    await readJson(request);
    // The audit event is part of the revert's own transaction.
    return revertVersion({ graph: name, version, actor: actorLabel(actor), auditAs: actor });
  });
}
