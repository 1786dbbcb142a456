import type { Metadata } from "next";
import { notFound } from "next/navigation";
import type { CampaignDetails } from "@/components/campaigns/campaign-api";
import { CampaignView } from "@/components/campaigns/campaign-view";
import { isAppError } from "@/lib/errors";
import { getCampaign } from "@/lib/server/campaigns/campaigns";
import { requirePageActor } from "@/app/_lib/page-actor";
import "../campaigns.css";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

interface CampaignPageProps {
  params: Promise<{ id: string }>;
}

async function findCampaign(id: string): Promise<CampaignDetails | null> {
  try {
    return await getCampaign(id);
  } catch (error) {
    if (isAppError(error) && error.code === "NOT_FOUND") return null;
    throw error;
  }
}

export async function generateMetadata({ params }: CampaignPageProps): Promise<Metadata> {
  return { title: `Campaign ${(await params).id}` };
}

export default async function CampaignPage({ params }: CampaignPageProps) {
  await requirePageActor();
  const campaign = await findCampaign((await params).id);
  if (!campaign) notFound();
  return <CampaignView initialCampaign={campaign} />;
}
