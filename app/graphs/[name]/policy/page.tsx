import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { PolicyEditor } from "@/components/policy/policy-editor";
import { can } from "@/lib/auth/permissions";
import { getApprovalPolicy } from "@/lib/server/policies/policies";
import { requirePageActor } from "@/app/_lib/page-actor";
import { findGraphSummary } from "../find-graph-summary";
import "../../../styles/review.css";
import "../../../styles/policy.css";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

interface PolicyPageProps {
  params: Promise<{ name: string }>;
}

export async function generateMetadata({ params }: PolicyPageProps): Promise<Metadata> {
  return { title: `Policy · ${(await params).name}` };
}

/** Who must agree before this graph changes: editable by admins, read-only for everyone else. */
export default async function PolicyPage({ params }: PolicyPageProps) {
  const actor = await requirePageActor();
  const summary = await findGraphSummary((await params).name);
  if (!summary) notFound();
  const policy = await getApprovalPolicy({ graph: summary.name });
  return <PolicyEditor graphName={summary.name} initialPolicy={policy} isAdmin={can(actor, "admin")} />;
}
