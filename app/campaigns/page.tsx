import type { Metadata } from "next";
import { CampaignsTable } from "@/components/campaigns/campaigns-table";
import { StartCampaignForm } from "@/components/campaigns/start-campaign-form";
import { findCampaigns } from "@/lib/server/campaigns/campaigns";
import { findGraphs } from "@/lib/server/graphs/graph-store";
import { findPagePermission } from "@/app/_lib/page-actor";
import "./campaigns.css";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const metadata: Metadata = { title: "Campaigns" };

/** Campaigns, newest first, and (for people who may propose) the form that starts one. */
export default async function CampaignsPage() {
  const { isAllowed } = await findPagePermission("propose");
  const [campaigns, graphs] = await Promise.all([findCampaigns(), findGraphs()]);
  return (
    <div className="stack">
      <h1>Refinement campaigns</h1>
      <p className="muted">
        A campaign scores a question set on a sandbox of the graph, lets the loop propose changes for the failing questions, keeps only changes with evidence that
        survive the devil&apos;s advocate, and accepts an iteration only when the score goes up. The best accepted iteration becomes one proposal in the review queue.
      </p>
      {isAllowed ? <StartCampaignForm graphs={graphs.map((g) => g.name)} /> : null}
      <CampaignsTable campaigns={campaigns} />
    </div>
  );
}
