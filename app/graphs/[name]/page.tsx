import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { Explorer } from "@/components/explorer/explorer";
import { GraphHeader } from "@/components/explorer/graph-header";
import { LoadingState } from "@/components/ui/states";
import { isAppError } from "@/lib/errors";
import { findHubNodes } from "@/lib/server/explore-graph";
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
  const { name } = await params;
  return { title: decodeURIComponent(name) };
}

export default async function GraphPage({ params }: GraphPageProps) {
  const name = decodeURIComponent((await params).name);
  const summary = await findSummary(name);
  if (!summary) notFound();
  const hubs = await findHubNodes({ name: summary.name, limit: 12 });
  return (
    <div className="stack stack--tight">
      <GraphHeader summary={summary} />
      <Suspense fallback={<LoadingState label="Loading the explorer…" />}>
        <Explorer graphName={summary.name} hubs={hubs} />
      </Suspense>
    </div>
  );
}
