import type { Metadata } from "next";
import { ReviewQueue } from "@/components/review/review-queue";
import { parseQueueFilters, toQueueRows } from "@/components/review/queue-rows";
import { findQueueProposalPage } from "@/lib/server/proposals/queue-proposals";
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
 * rest in the background through the compact GET /api/proposals/rows (no evidence). The
 * proposal page has the full review.
 */
export default async function ReviewPage({ searchParams }: ReviewPageProps) {
  const actor = await requirePageActor();
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(await searchParams)) if (typeof value === "string") params.set(key, value);
  const first = await findQueueProposalPage({ limit: FIRST_PAGE });
  const viewer = toDecider(actor);
  return (
    <ReviewQueue
      initialRows={toQueueRows(first.proposals, viewer)}
      initialComplete={first.nextCursor === null}
      initialTotals={{ pendingActions: first.summary.pendingActions, pendingByLabel: first.summary.pendingByLabel }}
      initialFilters={parseQueueFilters(params)}
      viewer={viewer}
    />
  );
}
