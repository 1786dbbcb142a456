import { z } from "zod";
import { createProposal, findProposals, getProposal, reviewForGraph } from "@/lib/server/proposals";
import { getGraphRecord } from "@/lib/server/graph-store";
import { requireActor } from "../_lib/auth";
import { readJson } from "../_lib/read-json";
import { respond } from "../_lib/respond";
import { submitProposalBody } from "@/lib/server/approvals-requests";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const query = z.object({
  graph: z.string().min(1).max(200).optional(),
  status: z.enum(["pending", "applied", "partially_applied", "rejected"]).optional(),
  run: z.string().min(1).max(100).optional(),
});

/** The review queue: proposals (newest first) with every action, its label, review and approvals. */
export async function GET(request: Request) {
  return respond(async () => {
    await requireActor(request, "read");
    const q = query.parse(Object.fromEntries(new URL(request.url).searchParams));
    return findProposals({ graph: q.graph, status: q.status, runId: q.run });
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
