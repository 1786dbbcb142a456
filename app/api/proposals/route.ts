import { z } from "zod";
import { findProposals } from "@/lib/server/proposals";
import { respond } from "../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const query = z.object({
  graph: z.string().min(1).max(200).optional(),
  status: z.enum(["pending", "applied", "partially_applied", "rejected"]).optional(),
  run: z.string().min(1).max(100).optional(),
});

/** The review queue: proposals (newest first) with every action, its label and review. */
export async function GET(request: Request) {
  return respond(async () => {
    const q = query.parse(Object.fromEntries(new URL(request.url).searchParams));
    return findProposals({ graph: q.graph, status: q.status, runId: q.run });
  });
}
