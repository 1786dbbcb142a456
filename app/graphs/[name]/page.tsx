import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { Explorer } from "@/components/explorer/explorer";
import { GraphHeader } from "@/components/explorer/graph-header";
import { LoadingState } from "@/components/ui/states";
import { isAppError } from "@/lib/errors";
import type { GraphSummary } from "@/lib/server/graph-store";
import { getGraphSummary } from "@/lib/server/graph-store";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

interface GraphPageProps {
  params: Promise<{ name: string }>;
}

async function findSummary(name: string): Promise<GraphSummary | null> {
  try {
    return await getGraphSummary(name);
  } catch (error) {
    if (isAppError(error) && error.code === "NOT_FOUND") return null;
    throw error;
  }
}

export async function generateMetadata({ params }: GraphPageProps): Promise<Metadata> {
  return { title: (await params).name };
}

/**
 * Only the summary is read here (a few indexed queries), so a missing graph answers with a real
 * 404 and the page arrives at once. The graph itself is loaded by the API the explorer calls:
 * route handlers and pages hold separate module instances, so loading it here too would keep
 * a second copy of a large graph in memory.
 */
export default async function GraphPage({ params }: GraphPageProps) {
  const { name } = await params;
  const summary = await findSummary(name);
  if (!summary) notFound();
  return (
    <div className="stack stack--tight">
      <GraphHeader summary={summary} />
      {/* useSearchParams needs a Suspense boundary above it. */}
      <Suspense fallback={<LoadingState label="Loading the explorer…" />}>
        <Explorer graphName={summary.name} />
      </Suspense>
    </div>
  );
}
