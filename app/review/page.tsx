import type { Metadata } from "next";
import type { ProposalDetails } from "@/components/api/proposal-types";
import { ReviewQueue } from "@/components/review/review-queue";
import { parseQueueFilters, toQueueRows } from "@/components/review/queue-rows";
import { findProposalPage } from "@/lib/server/proposals/find-proposal-page";
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

/** Proposals in the server-rendered first page: the queue is drawn and usable at once, older ones stream in after. */
const FIRST_PAGE = 100;

/**
 * The newest proposals of every graph, reduced here to one small row per action: the reviews'
 * evidence and suggestions stay on the server, so the queue arrives and hydrates quickly. A
 * longer queue (5,000 pending actions) renders its first page here and the client reads the
 * rest page by page in the background. The proposal page has the full review.
 */
export default async function ReviewPage({ searchParams }: ReviewPageProps) {
  const actor = await requirePageActor();
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(await searchParams)) if (typeof value === "string") params.set(key, value);
  // Typed as the components' copy: the compiler checks the two still agree.
  const first = await findProposalPage({ limit: FIRST_PAGE });
  const proposals: ProposalDetails[] = first.proposals;
  const viewer = toDecider(actor);
  return (
    <ReviewQueue
      initialRows={toQueueRows(proposals, viewer)}
      initialComplete={first.nextCursor === null}
      initialTotals={{ pendingActions: first.summary.pendingActions, pendingByLabel: first.summary.pendingByLabel }}
      initialFilters={parseQueueFilters(params)}
      viewer={viewer}
    />
  );
}
