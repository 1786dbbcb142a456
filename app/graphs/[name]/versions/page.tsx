import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { VersionHistory } from "@/components/diff/version-history";
import { findVersions } from "@/lib/server/proposals/changesets";
import { findGraphSummary } from "../find-graph-summary";
import "../../../styles/diff.css";
import { requirePageActor } from "@/app/_lib/page-actor";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

interface VersionsPageProps {
  params: Promise<{ name: string }>;
}

export async function generateMetadata({ params }: VersionsPageProps): Promise<Metadata> {
  return { title: `Versions · ${(await params).name}` };
}

/** The history is a few indexed rows (no graph is loaded), so it is rendered with the page. */
export default async function VersionsPage({ params }: VersionsPageProps) {
  await requirePageActor();
  const summary = await findGraphSummary((await params).name);
  if (!summary) notFound();
  return <VersionHistory graphName={summary.name} initialVersions={await findVersions(summary.name)} />;
}
