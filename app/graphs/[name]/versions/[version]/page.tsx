import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { VersionDiffView } from "@/components/diff/version-diff-view";
import { findVersions } from "@/lib/server/proposals/changesets";
import { findGraphSummary } from "../../find-graph-summary";
import "../../../../styles/diff.css";
import { requirePageActor } from "@/app/_lib/page-actor";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

interface VersionPageProps {
  params: Promise<{ name: string; version: string }>;
  searchParams: Promise<{ from?: string | string[] }>;
}

function parseVersion(value: string | string[] | undefined): number | null {
  if (typeof value !== "string" || !/^\d{1,9}$/.test(value)) return null;
  return Number(value);
}

export async function generateMetadata({ params }: VersionPageProps): Promise<Metadata> {
  const { name, version } = await params;
  return { title: `Version ${version} · ${name}` };
}

/**
 * A version's change (version − 1 → version, or `?from=` any version). The graph is not loaded
 * here: route handlers and pages hold separate module instances, so the diff comes from the API.
 */
export default async function VersionPage({ params, searchParams }: VersionPageProps) {
  await requirePageActor();
  const { name, version } = await params;
  const summary = await findGraphSummary(name);
  const to = parseVersion(version);
  if (!summary || to === null || to < 1 || to > summary.version) notFound();
  const asked = parseVersion((await searchParams).from);
  const from = asked !== null && asked >= 1 && asked <= summary.version ? asked : Math.max(1, to - 1);
  return <VersionDiffView graphName={summary.name} from={from} to={to} initialVersions={await findVersions(summary.name)} />;
}
