import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { Explorer } from "@/components/explorer/explorer";
import { LoadingState } from "@/components/ui/states";
import { findGraphSummary } from "./find-graph-summary";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

interface GraphPageProps {
  params: Promise<{ name: string }>;
}

export async function generateMetadata({ params }: GraphPageProps): Promise<Metadata> {
  return { title: (await params).name };
}

/**
 * Only the summary is read here (shared with the layout), so a missing graph answers with a
 * real 404 and the page arrives at once. The graph itself is loaded by the API the
 * explorer calls: route handlers and pages hold separate module instances, so loading it here
 * too would keep a second copy of a large graph in memory.
 */
export default async function GraphPage({ params }: GraphPageProps) {
  const summary = await findGraphSummary((await params).name);
  if (!summary) notFound();
  return (
    // useSearchParams needs a Suspense boundary above it.
    <Suspense fallback={<LoadingState label="Loading the explorer…" />}>
      <Explorer graphName={summary.name} />
    </Suspense>
  );
}
