import { createProposal, getProposal, reviewForGraph } from "@/lib/server/proposals/proposals";
import { findProposalPage } from "@/lib/server/proposals/find-proposal-page";
import { queries } from "@/lib/server/http/openapi-requests";
import { getGraphRecord } from "@/lib/server/graphs/graph-store";
import { requireActor } from "../_lib/auth";
import { readJson } from "../_lib/read-json";
import { respond } from "../_lib/respond";
import { submitProposalBody } from "@/lib/server/approvals/approvals-requests";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * The review queue, one page at a time: proposals (newest first) with every action, its label,
 * review and approvals, `nextCursor` for the next page and a summary of all that match.
 */
export async function GET(request: Request) {
  return respond(async () => {
    await requireActor(request, "read");
    const q = queries.proposals.parse(Object.fromEntries(new URL(request.url).searchParams));
    return findProposalPage({ graph: q.graph, status: q.status, runId: q.run, cursor: q.cursor, limit: q.limit });
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
      const input = submitProposalBody.parse(await readJson(request));
      const record = await getGraphRecord(input.graph);
      const reviews = await reviewForGraph({ graph: input.graph, version: record.currentVersion, actions: input.actions });
      const id = await createProposal({ graph: input.graph, baseVersion: record.currentVersion, source: "api", question: input.question ?? null, actions: input.actions, reviews, submittedBy: actor });
      return getProposal(id);
    },
    { status: 201 },
  );
}
