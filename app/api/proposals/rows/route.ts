import { findQueueProposalPage } from "@/lib/server/proposals/queue-proposals";
import { requireActor } from "../../_lib/auth";
import { respond } from "../../_lib/respond";
import { approvalsContract } from "@/lib/server/approvals/contract";
import { parseRequest } from "../../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * The review queue's compact read, one page at a time (default 200, at most 500): the filters,
 * cursor and summary of GET /api/proposals, each action with only what a queue row shows (no
 * evidence, suggestions or decision history: GET /api/proposals/{id} has them).
 */
export async function GET(request: Request) {
  return respond(async () => {
    await requireActor(request, "read");
    const { query: q } = await parseRequest(request, approvalsContract.findProposalRows);
    return findQueueProposalPage({ graph: q.graph, status: q.status, runId: q.run, origin: q.origin, cursor: q.cursor, limit: q.limit });
  });
}
