import { actorLabel } from "@/lib/auth/permissions";
import { revertVersion } from "@/lib/server/proposals/changesets";
import { requireActor } from "../../../../../_lib/auth";
import { respond } from "../../../../../_lib/respond";
import { proposalsContract } from "@/lib/server/proposals/contract";
import { parseRequest } from "../../../../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Undo the change that created this version, as a new version. */
export async function POST(request: Request, ctx: { params: Promise<{ name: string; version: string }> }) {
  return respond(async () => {
    const actor = await requireActor(request, "revert");
    // The body no longer names the actor: who reverts is whoever is signed in.
    const { name, version } = (await parseRequest(request, proposalsContract.revertVersion, ctx)).params;
    // The audit event is part of the revert's own transaction.
    return revertVersion({ graph: name, version, actor: actorLabel(actor), auditAs: actor });
  });
}
