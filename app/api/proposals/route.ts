import { getProposal } from "@/lib/server/proposals/proposals";
import { submitProposal } from "@/lib/server/proposals/submit-proposal";
import { findProposalPage } from "@/lib/server/proposals/find-proposal-page";
import { requireActor } from "../_lib/auth";
import { respond } from "../_lib/respond";
import { approvalsContract } from "@/lib/server/approvals/contract";
import { parseRequest } from "../_lib/parse-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * The review queue, one page at a time: proposals (newest first) with every action, its label,
 * review and approvals, `nextCursor` for the next page and a summary of all that match.
 */
export async function GET(request: Request) {
  return respond(async () => {
    await requireActor(request, "read");
    const { query: q } = await parseRequest(request, approvalsContract.findProposals);
    return findProposalPage({ graph: q.graph, status: q.status, runId: q.run, origin: q.origin, cursor: q.cursor, limit: q.limit });
  });
}

/**
 * Submit actions for review (a script, an agent, a person): reviewed now against the current
 * version and queued. The submitter is recorded and may not approve them.
 */
export async function POST(request: Request) {
  return respond(
    async () => {
      const actor = await requireActor(request, "propose");
      const { body: input } = await parseRequest(request, approvalsContract.submitProposal);
      const id = await submitProposal({
        graph: input.graph,
        source: "api",
        inputs: [...input.actions, ...(input.unparseable ?? [])],
        question: input.question ?? null,
        submittedBy: actor,
        agent: { name: input.agent, model: input.model },
      });
      return getProposal(id);
    },
    { status: 201 },
  );
}
