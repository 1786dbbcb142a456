/**
 * The campaign endpoints as the browser sees them: the server's own types (type-only imports,
 * nothing of the server ships), the fetchers, query options and their keys.
 */
import { queryOptions } from "@tanstack/react-query";
import { fetchJson } from "../api/fetch-json";
import type { CampaignDetails, CampaignSummary } from "@/lib/server/campaigns/campaigns";

export type { CampaignDetails, CampaignStatus, CampaignSummary } from "@/lib/server/campaigns/campaigns";
export type { Band, CampaignIteration, Decision, WorklogEntry } from "@/lib/campaign/types";

/** How often a running campaign is fetched again. */
export const CAMPAIGN_POLL_MS = 2000;

export const campaignKeys = {
  all: ["campaigns"] as const,
  list: (graph: string | null) => ["campaigns", "list", { graph }] as const,
  campaign: (id: string) => ["campaigns", "detail", id] as const,
};

export function getCampaign(id: string): Promise<CampaignDetails> {
  return fetchJson<CampaignDetails>(`/api/campaigns/${encodeURIComponent(id)}`);
}

export function campaignQueryOptions(id: string) {
  return queryOptions({ queryKey: campaignKeys.campaign(id), queryFn: () => getCampaign(id) });
}

export function findCampaigns(graph: string | null): Promise<CampaignSummary[]> {
  return fetchJson<CampaignSummary[]>(`/api/campaigns${graph ? `?graph=${encodeURIComponent(graph)}` : ""}`);
}

export interface StartCampaignInput {
  graph: string;
  questions?: Array<{ id?: string; question: string; answers?: string[] }>;
  fromQueue?: "pending" | "all";
  provider?: "heuristic" | "openai" | "replay";
  iterationCap?: number;
}

export function startCampaign(input: StartCampaignInput): Promise<{ campaignId: string }> {
  return fetchJson<{ campaignId: string }>("/api/campaigns", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(input) });
}

export function stopCampaign(id: string): Promise<CampaignDetails> {
  return fetchJson<CampaignDetails>(`/api/campaigns/${encodeURIComponent(id)}/stop`, { method: "POST" });
}

export function resumeCampaign(id: string): Promise<{ campaignId: string }> {
  return fetchJson<{ campaignId: string }>(`/api/campaigns/${encodeURIComponent(id)}/resume`, { method: "POST" });
}
