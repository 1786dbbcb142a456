import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { RunsView } from "@/components/runs/runs-view";
import { findGraphSummary } from "../find-graph-summary";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

interface RunsPageProps {
  params: Promise<{ name: string }>;
}

export async function generateMetadata({ params }: RunsPageProps): Promise<Metadata> {
  return { title: `Runs · ${(await params).name}` };
}

/** The list itself is fetched (and refreshed while runs go on) in the browser. */
export default async function RunsPage({ params }: RunsPageProps) {
  const summary = await findGraphSummary((await params).name);
  if (!summary) notFound();
  return <RunsView graphName={summary.name} />;
}
