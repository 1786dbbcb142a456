import type { Metadata } from "next";
import type { ProposalDetails } from "@/components/api/proposal-types";
import { ReviewQueue } from "@/components/review/review-queue";
import { parseQueueFilters, toQueueRows } from "@/components/review/queue-rows";
import { findProposals } from "@/lib/server/proposals/proposals";
import "../styles/review.css";
import "../styles/review-dialogs.css";
import "../styles/review-queue.css";
import "../styles/calibration.css";
import { requirePageActor } from "@/app/_lib/page-actor";
import { toDecider } from "@/components/proposals/decision-rules";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const metadata: Metadata = { title: "Review" };

interface ReviewPageProps {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

/**
 * Every proposal of every graph, reduced here to one small row per action: the reviews'
 * evidence and suggestions stay on the server, so a queue of hundreds of actions arrives and
 * hydrates quickly. The proposal page has the full review.
 */
export default async function ReviewPage({ searchParams }: ReviewPageProps) {
  const actor = await requirePageActor();
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(await searchParams)) if (typeof value === "string") params.set(key, value);
  // Typed as the components' copy: the compiler checks the two still agree.
  const proposals: ProposalDetails[] = await findProposals({});
  const viewer = toDecider(actor);
  return <ReviewQueue initialRows={toQueueRows(proposals, viewer)} initialFilters={parseQueueFilters(params)} viewer={viewer} />;
}
